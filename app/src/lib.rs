//! Unroll's browser app: the Leptos pages, their charts and text, and the page's side of the
//! training engine. Everything it shows is computed by the `unroll_core` crate, which it
//! reaches only through that crate's public API. The components compile for wasm32 only; the UI's pure logic compiles
//! natively too, so `cargo test` checks it: [`charts`] (draw functions, tested into SVG), the
//! [`text`] catalogues, the lab panels' models in [`lab`] (the inspector's model, the
//! validation metrics, compare mode's runs), the delay page's model ([`delay::sweep`]), the
//! helpers of [`training_bridge`] and [`run_status`].
//!
//! Only this crate imports Leptos. It reads configuration through the core's URL codec, drives
//! the core's training engine in a Web Worker, and draws charts with plotters.
//!
//! - [`app`]: the shell (header, navigation, page chosen by `?lesson=`).
//! - [`engine_client`]: the page's side of the training engine's Web Worker.
//! - [`training`]: the names training page; [`session`]: its `TrainingSession` context (the
//!   session's status, control and view, shared by the page's panels).
//! - [`run_status`]: the one run status of the names page, compare mode and the delay page.
//! - [`delay`]: the delay-copy task page (`?lesson=delay`).
//! - [`lab`]: the training lab's panels (configuration extras, metrics, compare mode,
//!   inspector, gradient flow).
//! - [`lessons`]: the lesson pages and their index (client-side routing).
//! - [`data_loader`]: fetches the manifest and the class files.
//! - [`keep`]: own data upload, weights download/load, the model saved in IndexedDB.
//! - [`i18n`]: the interface language (English or 简体中文).
//! - [`text`]: every user-facing text, one catalogue per page or panel.
//! - [`url`]: `location.search` in, `history.replaceState` out, the URL notice.
//! - [`charts`]: plotters draw functions; [`widgets`]: reusable view pieces.
//! - [`panic_panel`]: the DOM error panel written by the panic hook.

#![warn(missing_docs)]

#[cfg(target_arch = "wasm32")]
pub mod app;
pub mod charts;
#[cfg(target_arch = "wasm32")]
pub mod data_loader;
#[cfg(target_arch = "wasm32")]
pub mod defer;
#[cfg(target_arch = "wasm32")]
pub mod delay;
/// The delay-copy page's model ([`delay::sweep`], `app/src/delay/sweep.rs`); the page itself
/// compiles for wasm32 only.
#[cfg(not(target_arch = "wasm32"))]
pub mod delay {
    pub mod sweep;
}
#[cfg(target_arch = "wasm32")]
pub mod engine_client;
#[cfg(target_arch = "wasm32")]
pub mod i18n;
#[cfg(target_arch = "wasm32")]
pub mod keep;
pub mod lab;
#[cfg(target_arch = "wasm32")]
pub mod lessons;
#[cfg(target_arch = "wasm32")]
pub mod panic_panel;
pub mod run_status;
#[cfg(target_arch = "wasm32")]
pub mod session;
pub mod text;
#[cfg(target_arch = "wasm32")]
pub mod training;
pub mod training_bridge;
#[cfg(target_arch = "wasm32")]
pub mod url;
#[cfg(target_arch = "wasm32")]
pub mod widgets;
/// What a heatmap shows and its cells' markup ([`widgets::heatmap_data`]); the widgets
/// themselves compile for wasm32 only.
#[cfg(not(target_arch = "wasm32"))]
pub mod widgets {
    pub mod heatmap_data;
}

/// Test hook: panics with `message`, so the end-to-end test can check that a panic shows the
/// error panel (and the console message) instead of a blank page. Trunk exposes it to the page
/// as `window.wasmBindings.unroll_debug_panic(message)`; nothing in the app calls it.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn unroll_debug_panic(message: String) {
    panic!("{message}");
}

#[cfg(target_arch = "wasm32")]
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
