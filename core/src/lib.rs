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
//! (The tasks themselves live with their lab: `task/names.rs`, `delay/task.rs`,
//! `memory/task.rs`; what a finished sweep means, `delay/outcome.rs` and `memory/outcome.rs`,
//! reads [`train`]'s results.)
//!
//! - [`math`]: the CPU reference of every recurrent cell, loss and optimizer, in PyTorch's
//!   layouts. Pure Rust, no GPU, no UI. The tests pin it to PyTorch fixtures.
//! - [`data`]: the names data set (normalisation, de-duplication, split, batches).
//! - [`config`]: plain configuration structs and the URL query codec.
//! - [`gpu`]: wgpu host code for the WGSL kernels in `shaders/`; each kernel has a CPU twin
//!   of the same name in [`math`].
//! - [`task`]: the seam every lab trains through: a supervised sequence task (batches,
//!   readout, loss, held-out set, baseline, criterion); the names task lives there.
//! - [`train`]: one trainer over either backend, the seed × cell sweep with its resume
//!   checkpoint, each cell's backend choice (no Leptos).
//! - [`engine`]: the training engine as a service: the page ↔ Web Worker messages and, in the
//!   browser, the worker that runs every training loop off the page's main thread.
//! - [`lessons`]: the computations of the lesson pages, on top of [`math`] (no Leptos).
//! - [`delay`]: the delay-copy task (generator, held-out set, verdicts of a sweep).
//! - [`memory`]: the adding problem, copy memory and temporal order (generators, baselines,
//!   criteria, a sweep's outcome).
//! - [`weights`]: parameters ⇄ PyTorch as `.safetensors` (names, shapes, metadata).
//! - [`as_pytorch`]: the names page's and the labs' configurations as runnable PyTorch scripts.
//! - [`keep`]: the weights file the page downloads/loads and the record it keeps across reloads.
#![warn(missing_docs)]

pub mod as_pytorch;
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
