//! `shaders/activation.wgsl`: `y = act(x)` with the prelude's NaN-free activations.
//! CPU twin: `math::activation`.

use bytemuck::{Pod, Zeroable};

use super::{grid_1d, Access, KernelSpec};
use crate::gpu::error::GpuError;

/// Which activation [`Activation`] applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum ActivationKind {
    /// Logistic sigmoid (`sigmoid_safe`).
    Sigmoid = 0,
    /// Hyperbolic tangent (`tanh_safe`, input clamped to ±15).
    Tanh = 1,
    /// `max(x, 0)`.
    Relu = 2,
}

/// Uniform of `activation.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct ActivationDims {
    /// Number of elements.
    pub len: u32,
    /// [`ActivationKind`] as u32.
    pub kind: u32,
    /// Padding.
    pub _pad: [u32; 2],
}

/// Bindings: `x` `[len]` (read), `y` `[len]` (read_write).
#[derive(Debug)]
pub struct Activation;

impl KernelSpec for Activation {
    const NAME: &'static str = "activation";
    const STORAGE: &'static [Access] = &[Access::Read, Access::ReadWrite];
    type Dims = ActivationDims;
    fn workgroups(d: &ActivationDims, max: u32) -> Result<[u32; 3], GpuError> {
        grid_1d(d.len as u64, max)
    }
}
