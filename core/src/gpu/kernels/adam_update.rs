//! `shaders/adam_update.wgsl`: one Adam step (torch.optim.Adam, no weight decay) on the flat
//! parameter vector, with the per-step scalars (clip scale, skip flag, bias corrections) that
//! `clip_grad_norm.wgsl` left in `step_state`. CPU twin: `math::optim::adam_update`.

use bytemuck::{Pod, Zeroable};

use super::grid_1d;
use crate::math::optim::AdamConfig;

/// Uniform of `adam_update.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct AdamDims {
    /// Number of parameters P.
    pub len: u32,
    /// β1.
    pub beta1: f32,
    /// β2.
    pub beta2: f32,
    /// ε.
    pub eps: f32,
}

impl AdamDims {
    /// The uniform for `config` over `len` parameters.
    pub fn new(config: &AdamConfig, len: u32) -> Self {
        AdamDims {
            len,
            beta1: config.beta1,
            beta2: config.beta2,
            eps: config.eps,
        }
    }
}

kernel! {
    /// Bindings: `grads [P]`, `step_state [5]` (read); `params`, `adam_m`, `adam_v [P]` (read_write).
    AdamUpdate = "adam_update", [Read, Read, ReadWrite, ReadWrite, ReadWrite], AdamDims,
    |d, max| grid_1d(d.len as u64, max)
}
