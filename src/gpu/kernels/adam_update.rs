//! `shaders/adam_update.wgsl`: one Adam step (torch.optim.Adam, no weight decay) on the flat
//! parameter vector. CPU twin: `math::optim::adam_update`.

use bytemuck::{Pod, Zeroable};

use super::{grid_1d, Access, KernelSpec};
use crate::gpu::error::GpuError;
use crate::math::optim::AdamConfig;

/// Uniform of `adam_update.wgsl`. The per-step scalars come from
/// [`AdamConfig::step_scalars`] (f64 on the host), as on the CPU path.
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
    /// The uniform of step `step` (counted from 1) over `len` parameters.
    pub fn for_step(config: &AdamConfig, step: u32, len: u32) -> Self {
        let s = config.step_scalars(step.max(1));
        AdamDims {
            len,
            step_size: s.step_size,
            bias_correction2_sqrt: s.bias_correction2_sqrt,
            beta1: config.beta1,
            beta2: config.beta2,
            eps: config.eps,
            _pad: [0; 2],
        }
    }
}

/// Bindings: `grads [P]` (read); `params`, `adam_m`, `adam_v [P]` (read_write).
#[derive(Debug)]
pub struct AdamUpdate;

impl KernelSpec for AdamUpdate {
    const NAME: &'static str = "adam_update";
    const STORAGE: &'static [Access] = &[Access::Read, Access::ReadWrite, Access::ReadWrite, Access::ReadWrite];
    type Dims = AdamDims;
    fn workgroups(d: &AdamDims, max: u32) -> Result<[u32; 3], GpuError> {
        grid_1d(d.len as u64, max)
    }
}
