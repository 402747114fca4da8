//! `shaders/classifier_head.wgsl`: Linear head, then log-softmax and NLL or the squared error
//! (mean), `d_logits`, the `fc.bias` gradient and the step's (loss, correct) record, in one
//! workgroup. CPU twins: `math::loss::softmax_cross_entropy` and `math::loss::squared_error`
//! with `math::model::SeqModel`'s head.

use bytemuck::{Pod, Zeroable};

/// Uniform of `classifier_head.wgsl`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct HeadDims {
    /// B.
    pub batch: u32,
    /// F = D·H (columns of `fc.weight`).
    pub features: u32,
    /// C.
    pub num_classes: u32,
    /// 0: logits only (evaluation); 1: training (gradient + results record).
    pub mode: u32,
    /// Offset of the feature rows `[B, F]` in the features buffer.
    pub feat_offset: u32,
    /// Params offset of `fc.weight [C, F]`.
    pub fc_w_offset: u32,
    /// Params (and grads) offset of `fc.bias [C]`.
    pub fc_b_offset: u32,
    /// Slot of the results ring that receives this step's (loss, correct).
    pub result_slot: u32,
    /// 1 / B.
    pub inv_batch: f32,
    /// 0: cross-entropy over the C logits (`labels` are classes); 1: squared error of the one
    /// output (`labels` hold the f32 targets' bits).
    pub loss: u32,
    /// Padding.
    pub _pad: [u32; 2],
}

/// One training step's record in the results ring (`StepResult` in `common.wgsl`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct StepRecord {
    /// Mean loss over the batch's rows.
    pub loss: f32,
    /// Names whose arg-max class equals the label.
    pub correct: u32,
    /// Global L2 norm of the gradients; −1 when clipping was off (not computed).
    pub grad_norm: f32,
    /// 1 when the norm was not finite and the Adam step was skipped.
    pub skipped: u32,
}

kernel! {
    /// Bindings: `params`, `features [B, F]`, `labels [B]` (classes or f32 bits; read);
    /// `logits [B, C]`, `d_logits [B, C]`, `grads`, `results [ring]` (read_write).
    ClassifierHead = "classifier_head",
    [Read, Read, Read, ReadWrite, ReadWrite, ReadWrite, ReadWrite],
    HeadDims,
    |_, _| Ok([1, 1, 1])
}
