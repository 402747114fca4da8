//! `shaders/adam.wgsl`: one Adam step (torch.optim.Adam, no weight decay) on the flat
//! parameter vector. CPU twin: `math::optim::adam`.

use bytemuck::{Pod, Zeroable};

use super::{grid_1d, Access, KernelSpec};
use crate::gpu::error::GpuError;

/// Uniform of `adam.wgsl`. Bias corrections are computed on the host in f64.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct AdamDims {
    /// Number of parameters P.
    pub len: u32,
    /// `lr / (1 − β1^t)`.
    pub step_size: f32,
    /// `√(1 − β2^t)`.
    pub bias_correction2_sqrt: f32,
    /// β1.
    pub beta1: f32,
    /// β2.
    pub beta2: f32,
    /// ε.
    pub eps: f32,
    /// Padding.
    pub _pad: [u32; 2],
}

impl AdamDims {
    /// The uniform for step `t` (1-based) over `len` parameters.
    pub fn for_step(len: u32, t: u64, lr: f32, beta1: f32, beta2: f32, eps: f32) -> Self {
        let t = t.max(1) as i32;
        let bc1 = 1.0 - (beta1 as f64).powi(t);
        let bc2 = 1.0 - (beta2 as f64).powi(t);
        AdamDims {
            len,
            step_size: (lr as f64 / bc1) as f32,
            bias_correction2_sqrt: bc2.sqrt() as f32,
            beta1,
            beta2,
            eps,
            _pad: [0; 2],
        }
    }
}

/// Bindings: `grads [P]` (read); `params`, `adam_m`, `adam_v [P]` (read_write).
#[derive(Debug)]
pub struct Adam;

impl KernelSpec for Adam {
    const NAME: &'static str = "adam";
    const STORAGE: &'static [Access] = &[Access::Read, Access::ReadWrite, Access::ReadWrite, Access::ReadWrite];
    type Dims = AdamDims;
    fn workgroups(d: &AdamDims, max: u32) -> Result<[u32; 3], GpuError> {
        grid_1d(d.len as u64, max)
    }
}
