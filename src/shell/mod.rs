//! The ground floor every page and the kit stand on: the URL, the language, the page's side
//! of the training engine, downloads and the clipboard, the one run status and deferred
//! drawing. It imports nothing else of the app; the router is [`crate::app`].
//!
//! - [`url`]: `location.search` in, `history.replaceState` out, the URL notice.
//! - [`i18n`]: the interface language (English or 简体中文); [`catalogue`]: the macro that
//!   declares every text catalogue; [`text`]: the shell's texts; [`backend_text`]: the words
//!   for the path a run trains on (CPU or WebGPU).
//! - [`browser`]: downloads, the clipboard, the test hooks on `window`.
//! - [`engine_client`]: the page's side of the training engine's Web Worker.
//! - [`run_status`]: the one run status of the names page, compare mode and the delay page.
//! - [`defer`]: work put off until after the next paint.
//! - [`panic_panel`]: the DOM error panel written by the panic hook.
//! - [`embed`]: the page without the app's chrome (`embed=1`), for an `<iframe>` in a course
//!   page: whether this document is embedded, its query, its height for the parent window.

pub mod backend_text;
pub mod browser;
pub mod catalogue;
pub mod defer;
pub mod embed;
pub mod engine_client;
pub mod i18n;
pub mod panic_panel;
pub mod run_status;
pub mod text;
pub mod url;
