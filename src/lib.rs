//! Unroll's browser app: the Leptos pages, their charts and text, and the page's side of the
//! training engine. Everything it shows is computed by the `unroll_core` crate; this crate
//! only draws it, in English and 简体中文.
//!
//! Three layers, and an import only runs down (checked by a test, `src/tests/layers.rs`):
//!
//! - the root: [`app`], the router (header, navigation, the page chosen by `?lesson=`), and
//!   [`mount`].
//! - the pages, one folder each, holding its components, its page model and its text
//!   catalogue; no page imports another:
//!   - [`lessons`]: the lessons' index, the frame every lesson stands in, one folder per
//!     lesson (`lessons/lstm/`: the page, its `text.rs`, its question and its tour's steps);
//!   - [`names`]: the names lab (`?lesson=names`): the training page, its session, the data
//!     loader, the bridge to the core's configuration and engine, its panels in
//!     [`names::lab`] (metrics, compare mode, inspector, gradient flow) and in [`names::keep`]
//!     (own data, weights files, the model kept in this browser);
//!   - [`sequence`]: the sequence lab (`?lesson=delay`): delay-copy and the long-memory tasks
//!     (adding, copy memory, temporal order) on one page with its task switcher, one folder per
//!     task part over one engine session core and one store.
//! - the shared layer, which imports no page:
//!   - [`kit`]: what more than one page uses: navigation and link helpers, number formats, the
//!     question and tour components, the IndexedDB store, the text catalogues' idiom;
//!   - [`charts`]: every chart (plotters draw functions, tested natively into SVG), the SVG
//!     heatmap and the canvas that hosts them; [`widgets`]: reusable view pieces (number
//!     field, run controls, stat, a figure's downloads, the "As PyTorch" panel);
//!   - [`shell`]: the ground floor: the URL in and out, the interface language, the page's
//!     side of the engine's Web Worker, downloads and the clipboard, the one run status,
//!     deferred drawing, the panic panel.
//!
//! Components compile natively too (Leptos is an ordinary dependency), so `cargo test -p
//! unroll` checks the pages' pure logic, the catalogues and the charts without a browser.
#![warn(missing_docs)]

pub mod app;
pub mod charts;
pub mod kit;
pub mod lessons;
pub mod names;
pub mod sequence;
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
