//! Unroll: RNN, LSTM and GRU computed live in the browser.
//!
//! Layers, from the bottom up (an arrow means "may import"):
//!
//! ```text
//! config, math, data  <-  gpu  <-  train, delay  <-  engine  <-  ui (components wasm only)
//! ```
//!
//! - [`math`]: the CPU reference of every recurrent cell, loss and optimizer, in PyTorch's
//!   layouts. Pure Rust, no GPU, no UI. The tests pin it to PyTorch fixtures.
//! - [`data`]: the names data set (normalisation, de-duplication, split, batches).
//! - [`config`]: plain configuration structs and the URL query codec.
//! - [`gpu`]: wgpu host code for the WGSL kernels in `shaders/`; each kernel has a CPU twin
//!   of the same name in [`math`].
//! - [`train`]: the training loop over either backend (no Leptos).
//! - [`engine`]: the training engine as a service: the page ↔ Web Worker messages and, in the
//!   browser, the worker that runs every training loop off the page's main thread.
//! - [`lessons`]: the computations of the lesson pages, on top of [`math`] (no Leptos).
//! - [`delay`]: the delay-copy task (generator, per-token model, trainer, held-out sweeps).
//! - [`weights`]: parameters ⇄ PyTorch as `.safetensors` (names, shapes, metadata).
//! - [`keep`]: the weights file the page downloads/loads and the record it keeps across reloads.
//! - [`ui`]: the Leptos app. Its components compile for wasm32 only; its pure logic compiles
//!   natively too so `cargo test` checks it: [`ui::charts`] (the charts' draw functions over any
//!   plotters backend, drawn into SVG by the tests), the lab panels' models in [`ui::lab`] and
//!   the helpers of [`ui::training_bridge`].
#![warn(missing_docs)]

pub mod config;
pub mod data;
pub mod delay;
pub mod engine;
pub mod gpu;
pub mod keep;
pub mod lessons;
pub mod math;
pub mod train;
pub mod ui;
pub mod weights;
