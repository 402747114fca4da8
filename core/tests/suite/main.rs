//! The computing core's native tests, in one test binary (one compile and one link of the core,
//! wgpu and naga for all of them): one module per topic, plus the shared support modules.
//!
//! ```text
//! cargo test -p unroll-core --test suite               # everything (GPU tests on lavapipe)
//! cargo test -p unroll-core --test suite -- gpu_       # the tests of the WGSL path
//! cargo test -p unroll-core --test suite -- url_       # a topic, by module name
//! ```
//!
//! Where a new test goes (see also `core/tests/README.md`): into the module of its topic; a
//! new topic is a new file here, declared below in its group. The GPU tests' modules start with
//! `gpu_` (or name the path, `trainer_gpu`) and take their adapter from
//! `gpu_support::context`, which fails the test when there is none. The wasm32-only tests are
//! in `core/tests/web`, the timings in `core/benches`.
#![cfg(not(target_arch = "wasm32"))] // native: blocks on futures with pollster, reads files

// Shared support: PyTorch fixtures (`common`), tolerances (`tol`), GPU context and test data
// (`gpu_support`), the source's import graph (`import_graph`, the app's layer test reads it too).
mod common;
mod gpu_support;
mod import_graph;
mod tol;

// The CPU maths against PyTorch (float64 fixtures) and against itself.
mod classifier_inspect;
mod fixtures_pytorch;
mod forget_bias;
mod math_cpu;
mod slowmo;

// The WGSL path (lavapipe natively): kernels, modules, the model's step, the shaders' validity,
// the one trainer on the GPU for every lab task.
mod gpu_classifier;
mod gpu_kernels;
mod gpu_modules;
mod shaders_validate;
mod trainer_gpu;

// Data, training and keeping a model.
mod data_names;
mod data_upload;
mod engine_loop;
mod generate;
mod keep_model;
mod parallel;
mod resume;
mod split;
mod train_lab;
mod train_session;
mod weights_safetensors;

// The long-memory lab: delay-copy and the other memory tasks.
mod delay;
mod delay_runs;
mod memory_run;
mod memory_tasks;
mod memory_url;

// The lessons: computations, questions, handout notes.
mod handout;
mod lessons;
mod questions;

// URL codecs.
mod url_config;
mod url_lessons;

// The README, kept honest (its commands, paths, binaries and links).
mod readme;

// The core's folders: no import cycle between them.
mod layers;
