//! Wall-clock time and cooperative yielding, the same API natively and in the browser.
//!
//! The training loop runs on the browser's main thread; it calls [`yield_now`] between pieces
//! of work so that no task runs longer than a few tens of milliseconds.

/// Milliseconds since an arbitrary fixed origin (monotonic where the platform allows).
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

/// Milliseconds since the page's time origin (`performance.now()`).
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// Gives the browser's event loop a turn (a macrotask via `setTimeout(0)`), so rendering and
/// input handling happen between training steps. Natively this returns at once.
#[cfg(target_arch = "wasm32")]
pub async fn yield_now() {
    sleep_ms(0).await
}

/// Natively there is no event loop to yield to.
#[cfg(not(target_arch = "wasm32"))]
pub async fn yield_now() {}

/// Waits `ms` milliseconds without blocking the browser (used while paused).
#[cfg(target_arch = "wasm32")]
pub async fn sleep_ms(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        } else {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Sleeps the current thread for `ms` milliseconds.
#[cfg(not(target_arch = "wasm32"))]
pub async fn sleep_ms(ms: i32) {
    std::thread::sleep(std::time::Duration::from_millis(ms.max(0) as u64));
}
