//! Unroll's computing core: RNN, LSTM and GRU in PyTorch's semantics, on the CPU and in WGSL,
//! with everything that trains them and computes the lessons. It has no UI: the browser app
//! (the `unroll` crate) depends on it, never the other way round, so the compiler keeps the
//! layers.
//!
//! Layers, from the bottom up (an arrow means "may import"):
//!
//! ```text
//! config, math, data  <-  gpu  <-  task  <-  train  <-  engine  <-  (the app crate)
//! ```
//!
//! Every task lives in [`task`] (`task/names.rs`, `task/generate.rs`, `task/delay.rs`,
//! `task/memory.rs`); what a finished sweep means (`delay/outcome.rs`, `memory/outcome.rs`)
//! reads [`train`]'s results, so [`delay`] and [`memory`] sit above [`train`] and nothing
//! below imports them (`delay::task` and `memory::task` re-export the tasks under their
//! earlier paths). No two top-level folders import each other in a loop: the core's test
//! `layers` (`core/tests/suite/layers.rs`) checks it.
//!
//! - [`math`]: the CPU reference of every recurrent cell, loss and optimizer, in PyTorch's
//!   layouts. Pure Rust, no GPU, no UI. The tests pin it to PyTorch fixtures.
//! - [`data`]: the names data set (normalisation, de-duplication, split, batches).
//! - [`config`]: plain configuration structs and the URL query codec.
//! - [`gpu`]: wgpu host code for the WGSL kernels in `shaders/`; each kernel has a CPU twin
//!   of the same name in [`math`].
//! - [`task`]: the seam every lab trains through: a supervised sequence task (batches,
//!   readout, loss, held-out set, baseline, criterion), and every task: names classification
//!   and generation, delay-copy, the long-memory tasks.
//! - [`train`]: one trainer over either backend, the seed × cell sweep with its resume
//!   checkpoint, each cell's backend choice (no Leptos).
//! - [`engine`]: the training engine as a service: the page ↔ Web Worker messages and, in the
//!   browser, the worker that runs every training loop off the page's main thread.
//! - [`lessons`]: the computations of the lesson pages, on top of [`math`] (no Leptos).
//! - [`delay`]: what a delay-copy sweep shows (verdicts, summaries, capacity); its task is
//!   [`task::delay`].
//! - [`memory`]: what a sweep of the adding problem, copy memory or temporal order shows;
//!   their tasks are [`task::memory`].
//! - [`weights`]: parameters ⇄ PyTorch as `.safetensors` (names, shapes, metadata).
//! - [`as_pytorch`]: the names page's and the labs' configurations as runnable PyTorch scripts.
//! - `cli` (native only): what the binaries in `core/src/bin/` share on the command line.
//! - [`keep`]: the weights file the page downloads/loads and the record it keeps across reloads.
#![warn(missing_docs)]

pub mod as_pytorch;
#[cfg(not(target_arch = "wasm32"))]
pub mod cli;
pub mod config;
pub mod data;
pub mod delay;
pub mod engine;
pub mod gpu;
pub mod keep;
pub mod lessons;
pub mod math;
pub mod memory;
pub mod task;
pub mod train;
pub mod weights;
