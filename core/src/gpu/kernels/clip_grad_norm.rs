//! `shaders/clip_grad_norm.wgsl`: once per step, the global gradient norm, the clipping factor
//! and the skip decision for non-finite gradients (`max_norm > 0`), and Adam's step count and
//! bias corrections, for `adam_update`. CPU twin: `math::optim::clip_grad_norm` (and
//! `AdamConfig::step_scalars`).

use bytemuck::{Pod, Zeroable};

use crate::math::optim::AdamConfig;

/// Uniform of `clip_grad_norm.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct ClipDims {
    /// Number of gradients P.
    pub len: u32,
    /// Clipping threshold; ≤ 0 turns clipping (and the skip check) off.
    pub max_norm: f32,
    /// Slot of the results ring that receives the norm and the skip flag.
    pub result_slot: u32,
    /// Learning rate of this step.
    pub lr: f32,
    /// ln β1 (computed in f64).
    pub ln_beta1: f32,
    /// ln β2 (computed in f64).
    pub ln_beta2: f32,
    /// Padding.
    pub _pad: [u32; 2],
}

impl ClipDims {
    /// The uniform for one step with `config` (lr, betas) over `len` gradients.
    pub fn new(config: &AdamConfig, len: u32, max_norm: f32, result_slot: u32) -> Self {
        ClipDims {
            len,
            max_norm,
            result_slot,
            lr: config.lr,
            ln_beta1: (config.beta1 as f64).ln() as f32,
            ln_beta2: (config.beta2 as f64).ln() as f32,
            _pad: [0; 2],
        }
    }
}

/// Elements of the `step_state` buffer shared with `adam_update`: gradient scale, skip flag,
/// Adam step count t, `lr / (1 − β1^t)`, `√(1 − β2^t)`, and the halted flag (set by a
/// non-finite loss: every later step is skipped until the host zeroes the buffer).
pub const STEP_STATE_LEN: usize = 6;

kernel! {
    /// Bindings: `grads [P]` (read); `step_state [6]`, `results [ring]` (read_write).
    ClipGradNorm = "clip_grad_norm", [Read, ReadWrite, ReadWrite], ClipDims,
    |_, _| Ok([1, 1, 1])
}
