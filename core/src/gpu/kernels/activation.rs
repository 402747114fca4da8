//! `shaders/activation.wgsl`: `y = act(x)` with the prelude's NaN-free activations.
//! CPU twin: `math::activation`.

use bytemuck::{Pod, Zeroable};

use super::grid_1d;

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

kernel! {
    /// Bindings: `x` `[len]` (read), `y` `[len]` (read_write).
    Activation = "activation", [Read, ReadWrite], ActivationDims,
    |d, max| grid_1d(d.len as u64, max)
}
