//! Unroll's browser app: the Leptos pages, their charts and text, and the page's side of the
//! training engine. Everything it shows is computed by the `unroll_core` crate; this crate
//! only draws it, in English and 简体中文.
//!
//! One folder per page, each holding its components, its page model and its text catalogue:
//!
//! - [`lessons`]: the lessons' index and routing, one folder per lesson (`lessons/lstm/`:
//!   the page and its `text.rs`), the lessons' shared widgets and number formats.
//! - [`names`]: the names lab (`?lesson=names`): the training page, its session, the data
//!   loader, the bridge to the core's configuration and engine, its panels in [`names::lab`]
//!   (metrics, compare mode, inspector, gradient flow) and in [`names::keep`] (own data,
//!   weights files, the model kept in this browser).
//! - [`delay`]: the long-memory lab (`?lesson=delay`): page, sweep model, engine driver.
//!
//! Shared by the pages:
//!
//! - [`shell`]: the app shell and its routing (header, navigation, which page is shown), the
//!   URL in and out, the interface language, the page's side of the engine's Web Worker, the
//!   one run status, deferred drawing, the panic panel.
//! - [`charts`]: every chart (plotters draw functions, tested natively into SVG) and the
//!   canvas that hosts them; [`widgets`]: reusable view pieces (heatmap, number field, run
//!   controls, stat).
//! - [`text`]: the idiom of the text catalogues and the index of every page's catalogue.
//!
//! Components compile natively too (Leptos is an ordinary dependency), so `cargo test -p
//! unroll` checks the pages' pure logic, the catalogues and the charts without a browser.
#![warn(missing_docs)]

pub mod app;
pub mod charts;
pub mod delay;
pub mod kit;
pub mod lessons;
pub mod memory;
pub mod names;
pub mod shell;
pub mod widgets;

#[cfg(test)]
mod tests;

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
