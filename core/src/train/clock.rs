//! Wall-clock time, sleeping, and turns of the event loop, the same API natively and in the
//! browser (on the page or inside the engine's Web Worker).
//!
//! In the browser the training loops run inside a dedicated Web Worker
//! ([`crate::engine`]). A worker only receives the page's commands (pause, stop, …) when its
//! loop gives the event loop a turn, so the loops call [`check_in`] between steps: it yields
//! at most every [`CHECK_IN_MS`] milliseconds, through a `MessageChannel` message (a macrotask
//! that browsers do not clamp, unlike `setTimeout(0)`), and returns at once otherwise. A step's
//! arithmetic never depends on this timing.

use std::cell::Cell;

/// Longest stretch of work between two turns of the event loop in [`check_in`], in
/// milliseconds (the worker answers a command within about this time plus one step).
pub const CHECK_IN_MS: f64 = 50.0;

thread_local! {
    static LAST_TURN: Cell<f64> = const { Cell::new(f64::NEG_INFINITY) };
}

/// Milliseconds since an arbitrary fixed origin (monotonic where the platform allows).
#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

/// Milliseconds since the time origin of the page or worker (`performance.now()`).
#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    use wasm_bindgen::JsCast;
    let global = js_sys::global();
    js_sys::Reflect::get(&global, &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys::Performance>().ok())
        .map(|p| p.now())
        .unwrap_or_else(js_sys::Date::now)
}

/// Gives the event loop a turn when more than [`CHECK_IN_MS`] have passed since the last one
/// (so queued commands are handled); otherwise returns at once. Natively it never waits.
pub async fn check_in() {
    let now = now_ms();
    if now - LAST_TURN.with(Cell::get) >= CHECK_IN_MS {
        yield_now().await;
        LAST_TURN.with(|t| t.set(now_ms()));
    }
}

/// Gives the event loop one turn now (a `MessageChannel` macrotask). Natively this returns at
/// once.
#[cfg(target_arch = "wasm32")]
pub async fn yield_now() {
    use std::cell::RefCell;
    use std::collections::VecDeque;
    use wasm_bindgen::prelude::*;

    /// One channel per thread; each message wakes the oldest waiting `yield_now`.
    struct Turns {
        channel: web_sys::MessageChannel,
        waiting: std::rc::Rc<RefCell<VecDeque<js_sys::Function>>>,
        _on_message: Closure<dyn FnMut()>,
    }
    thread_local! {
        static TURNS: Option<Turns> = web_sys::MessageChannel::new().ok().map(|channel| {
            let waiting = std::rc::Rc::new(RefCell::new(VecDeque::<js_sys::Function>::new()));
            let queue = waiting.clone();
            let on_message = Closure::<dyn FnMut()>::new(move || {
                if let Some(resolve) = queue.borrow_mut().pop_front() {
                    let _ = resolve.call0(&JsValue::NULL);
                }
            });
            channel.port1().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            Turns { channel, waiting, _on_message: on_message }
        });
    }
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let queued = TURNS.with(|turns| match turns {
            Some(t) => {
                t.waiting.borrow_mut().push_back(resolve.clone());
                t.channel.port2().post_message(&JsValue::NULL).is_ok()
            }
            None => false,
        });
        if !queued {
            let _ = resolve.call0(&JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Natively there is no event loop to yield to.
#[cfg(not(target_arch = "wasm32"))]
pub async fn yield_now() {}

/// Waits `ms` milliseconds without blocking the page or the worker (used while paused: a
/// timer, never a busy loop).
#[cfg(target_arch = "wasm32")]
pub async fn sleep_ms(ms: i32) {
    use wasm_bindgen::JsCast;
    let promise = js_sys::Promise::new(&mut |resolve, _reject| {
        let global = js_sys::global();
        let scheduled = js_sys::Reflect::get(&global, &"setTimeout".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .map(|set_timeout| set_timeout.call2(&global, &resolve, &ms.into()).is_ok())
            .unwrap_or(false);
        if !scheduled {
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
