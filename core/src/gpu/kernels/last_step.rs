//! `shaders/last_step.wgsl`: gathers each sequence's output row at its last step (the head's
//! features) and scatters the features' gradient back. CPU twin: the gather/scatter of
//! `math::model::SeqModel` with `Readout::Last`.

use bytemuck::{Pod, Zeroable};

use super::grid_1d;

/// Uniform of `last_step.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct LastStepDims {
    /// B.
    pub batch: u32,
    /// F = D·H.
    pub width: u32,
    /// 0 gather (`[T, B, F]` → `[B, F]`), 1 scatter (`[B, F]` → `[T, B, F]`).
    pub mode: u32,
    /// Padding.
    pub _pad: u32,
}

kernel! {
    /// Bindings: `lengths [B]`, `src` (read); `dst` (read_write).
    LastStep = "last_step", [Read, Read, ReadWrite], LastStepDims,
    |d, max| grid_1d(d.batch as u64 * d.width as u64, max)
}
