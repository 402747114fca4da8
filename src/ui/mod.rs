//! The Leptos app (compiled for wasm32 only).
//!
//! Only this module imports Leptos. It reads configuration through the URL codec, drives the
//! training session of `train`, and draws charts with plotters. Everything it needs from the
//! layers below goes through [`training_bridge`].
//!
//! - [`app`]: the shell (header, navigation, page chosen by `?lesson=`).
//! - [`engine_client`]: the page's side of the training engine's Web Worker.
//! - [`training`]: the names training page.
//! - [`delay`]: the delay-copy task page (`?lesson=delay`).
//! - [`lab`]: the training lab's panels (configuration extras, metrics, compare mode,
//!   inspector, gradient flow).
//! - [`lessons`]: the lesson pages and their index (client-side routing).
//! - [`data_loader`]: fetches the manifest and the class files.
//! - [`keep`]: own data upload, weights download/load, the model saved in IndexedDB.
//! - [`i18n`]: English and 简体中文 text tables, the interface language.
//! - [`url`]: `location.search` in, `history.replaceState` out, the URL notice.
//! - [`charts`]: plotters draw functions; [`widgets`]: reusable view pieces.
//! - [`panic_panel`]: the DOM error panel written by the panic hook.

pub mod app;
pub mod charts;
pub mod data_loader;
pub mod delay;
pub mod engine_client;
pub mod i18n;
pub mod keep;
pub mod lab;
pub mod lessons;
pub mod panic_panel;
pub mod training;
pub mod training_bridge;
pub mod url;
pub mod widgets;

/// Test hook: panics with `message`, so the end-to-end test can check that a panic shows the
/// error panel (and the console message) instead of a blank page. Trunk exposes it to the page
/// as `window.wasmBindings.unroll_debug_panic(message)`; nothing in the app calls it.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn unroll_debug_panic(message: String) {
    panic!("{message}");
}

/// Mounts the app into `<body>`, replacing the static "Loading" message of `index.html`.
pub fn mount() {
    if let Some(boot) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("boot"))
    {
        boot.remove();
    }
    leptos::mount::mount_to_body(app::App);
}
