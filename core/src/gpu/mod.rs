//! wgpu host code for the WGSL kernels in `shaders/`.
//!
//! - [`context`]: adapter, device, queue; device-loss tracking; counts of the dispatches,
//!   submits and read-backs asked of the device ([`GpuCounts`]).
//! - [`shader_source`]: the registry of WGSL sources (the only `include_str!` of `shaders/`).
//! - [`wgsl_text`]: a WGSL file's shipped text (no comments), written by the build script.
//! - [`kernels`]: one module per kernel (uniform struct, bindings, dispatch size).
//! - [`buffers`]: buffer constructors and asynchronous readback.
//! - [`recurrent`]: the recurrent stack (any cell, layers, directions) forward and BPTT.
//! - [`model`]: the labs' model ([`crate::math::model::SeqModel`]) trained on the GPU.
//! - [`module`]: a bare recurrent module forward + backward (the PyTorch module fixtures).
//!
//! Imports `math` (layouts, batches) and nothing from `train`. Works on native
//! (Vulkan; lavapipe in tests, polled) and on wasm32 (WebGPU; never blocks).

pub mod buffers;
pub mod context;
pub mod error;
pub mod kernels;
pub mod model;
pub mod module;
pub mod recurrent;
pub mod shader_source;
pub mod wgsl_text;

pub use context::{GpuContext, GpuCounts};
pub use error::GpuError;
pub use model::{GpuModel, GpuTrainState, InputKind, StepResult};
pub use module::{GpuRnnModule, ModuleInputs, ModuleOutputs};
