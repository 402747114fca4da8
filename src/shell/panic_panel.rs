//! The last-resort error panel.
//!
//! After a Rust panic the wasm instance traps (release builds use `panic = "abort"`), so Leptos
//! can never render again. The hook installed here therefore writes a plain DOM panel with
//! `web-sys` directly, before the trap, and logs the message to the browser console.

use std::panic::PanicHookInfo;

/// `id` of the panel element; also its `data-testid` is `panic-panel`.
pub const PANEL_ID: &str = "unroll-panic";

/// Installs the panic hook. Call once, first thing in `main`.
///
/// The hook logs the panic message (with its source location) through `console.error` and
/// shows a fixed panel explaining that the page has to be reloaded. It never panics itself:
/// every DOM step that fails is skipped.
pub fn install() {
    std::panic::set_hook(Box::new(|info: &PanicHookInfo<'_>| {
        let message = info.to_string();
        web_sys::console::error_1(&format!("Unroll panicked: {message}").into());
        show(&message);
    }));
}

/// Writes (or replaces) the error panel with `message` as plain text.
///
/// Usable for fatal errors that are not panics as well. Text is set with `textContent`, never as
/// HTML, so the message cannot inject markup.
pub fn show(message: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Some(body) = document.body() else {
        return;
    };
    if let Some(old) = document.get_element_by_id(PANEL_ID) {
        old.remove();
    }
    let Ok(panel) = document.create_element("section") else {
        return;
    };
    panel.set_id(PANEL_ID);
    let _ = panel.set_attribute("class", "panic-panel");
    let _ = panel.set_attribute("role", "alert");
    let _ = panel.set_attribute("data-testid", "panic-panel");

    // The app keeps <html lang> in step with the interface language.
    let zh = document
        .document_element()
        .and_then(|e| e.get_attribute("lang"))
        .is_some_and(|l| l.starts_with("zh"));
    let (title, text, reload) = if zh {
        (
            "Unroll 因内部错误而停止",
            "页面无法继续运行。请重新加载以重新开始；如果问题反复出现，下面的信息有助于报告问题。",
            "重新加载",
        )
    } else {
        (
            "Unroll stopped because of an internal error",
            "The page cannot continue. Reload it to start again; if this keeps happening, the \
             message below helps to report it.",
            "Reload",
        )
    };
    let add = |tag: &str, class: &str, text: &str| {
        if let Ok(el) = document.create_element(tag) {
            let _ = el.set_attribute("class", class);
            el.set_text_content(Some(text));
            let _ = panel.append_child(&el);
        }
    };
    add("h2", "panic-title", title);
    add("p", "panic-text", text);
    add("pre", "panic-message", message);
    if let Ok(button) = document.create_element("button") {
        let _ = button.set_attribute("type", "button");
        let _ = button.set_attribute("class", "btn btn-primary");
        // An inline handler: after the trap no Rust closure can run any more.
        let _ = button.set_attribute("onclick", "location.reload()");
        button.set_text_content(Some(reload));
        let _ = panel.append_child(&button);
    }
    let _ = body.prepend_with_node_1(&panel);
}
