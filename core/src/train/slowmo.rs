//! One training step in slow motion: one real update of the name classifier on one name
//! (batch 1), with every stage's numbers kept for the training page to step through.
//!
//! The stages, in order:
//! 1. **forward**: per character, `h_t` (and `c_t`, the gates) of every layer and direction
//!    ([`ClassifierModel::trace`]);
//! 2. **logits**, **softmax**, **loss**: `fc` on the output the head reads, its softmax and
//!    `−ln p[label]`;
//! 3. **backward**: per character, in the order BPTT visits the steps (top layer first; the
//!    forward direction from the last character back to the first, the reverse direction the
//!    other way), the total `∂L/∂h_t` and the norm of each weight tensor's gradient accumulated
//!    so far (the head's gradient first, then each step's contribution
//!    `dW_ih += d_gi ⊗ x_t`, `dW_hh += d_gh ⊗ h_{t−1}`, `db_ih += d_gi`, `db_hh += d_gh`);
//! 4. **clip**: the global norm and the scale `clip_grad_norm` applied;
//! 5. **adam**: the update `Δ = new − old` of every parameter and its largest movers per tensor;
//! 6. **new prediction**: the same name through the updated weights.
//!
//! The update itself is the trainer's: `accumulate_loss_and_grads` over a batch of that one
//! name, `clip_grad_norm`, `Adam::update` with the step's learning rate, and the same rule for
//! skipping a non-finite step as [`super::cpu::CpuTrainer::step`], so the new weights are those
//! of one real training step at batch 1 (`core/tests/suite/slowmo.rs` checks both this and that the
//! step-by-step gradients add up to the trainer's).

use super::Hyper;
use crate::math::classifier::{ClassifierBatch, ClassifierModel};
use crate::math::loss::softmax_cross_entropy;
use crate::math::optim::{clip_grad_norm, Adam, ClipOutcome};
use crate::math::params::{LayerOffsets, ParamEntry};
use crate::math::recurrent::{DirectionTrace, ModuleRecord};
use crate::math::shapes::RnnError;

/// Largest movers kept per tensor ([`TensorMovers::top`]).
pub const TOP_MOVERS: usize = 5;

/// What the slow-motion step starts from.
#[derive(Clone, Copy, Debug)]
pub struct SlowmoInput<'a> {
    /// The classifier.
    pub model: &'a ClassifierModel,
    /// `[P]` its parameters (`model.layout` order).
    pub params: &'a [f32],
    /// Adam's state before the step (moments and the number of updates done).
    pub adam: &'a Adam,
    /// Learning rate and clipping threshold of the step.
    pub hyper: Hyper,
    /// The name as symbol indices (as the data set encodes it).
    pub tokens: &'a [u32],
    /// Its language (class index).
    pub label: u32,
}

/// One step of the backward pass through time.
#[derive(Clone, Debug, PartialEq)]
pub struct BackwardStep {
    /// Layer l.
    pub layer: usize,
    /// 0 forward, 1 reverse.
    pub direction: usize,
    /// Time index of the step (over the sequence the module reads).
    pub t: usize,
    /// `[H]` total `∂L/∂h_t` at this step (through the recurrence).
    pub dh: Vec<f32>,
    /// `‖∂L/∂h_t‖₂`.
    pub dh_norm: f32,
    /// `[tensors]` L2 norm of each tensor's gradient accumulated after this step.
    pub grad_norms: Vec<f32>,
}

/// What clipping did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClipStage {
    /// The threshold (`max_norm`; 0 = clipping off).
    pub max_norm: f32,
    /// Global L2 norm of the gradient before clipping (computed even with clipping off).
    pub norm: f64,
    /// The factor the gradients were multiplied by (1 when unchanged or off).
    pub scale: f64,
    /// Whether the gradients were scaled.
    pub clipped: bool,
}

/// The largest updates of one tensor.
#[derive(Clone, Debug, PartialEq)]
pub struct TensorMovers {
    /// Largest `|Δ|` in the tensor.
    pub max_abs: f32,
    /// Mean `|Δ|` over the tensor.
    pub mean_abs: f32,
    /// Up to [`TOP_MOVERS`] `(index in the tensor, Δ)`, largest `|Δ|` first.
    pub top: Vec<(usize, f32)>,
}

/// Every stage of one training step on one name.
#[derive(Clone, Debug)]
pub struct SlowStep {
    /// The symbols the module reads (the name; for `head=padded`, padded or cut to 10).
    pub read: Vec<u32>,
    /// Forward: per (layer, direction), layer-major, `h_t`, `c_t`, gates per step.
    pub forward: Vec<DirectionTrace>,
    /// `[D·H]` the output the head reads.
    pub feature: Vec<f32>,
    /// `[C]` logits.
    pub logits: Vec<f32>,
    /// `[C]` softmax of the logits.
    pub probabilities: Vec<f32>,
    /// The target class.
    pub label: usize,
    /// Cross-entropy `−ln p[label]` (nats).
    pub loss: f32,
    /// `[C]` `∂L/∂logits = p − onehot(label)`.
    pub d_logits: Vec<f32>,
    /// The parameter tensors (PyTorch names and shapes, `model.layout` order).
    pub tensors: Vec<ParamEntry>,
    /// `[tensors]` gradient norms once the head's gradient is in (before the first backward
    /// step through time).
    pub head_grad_norms: Vec<f32>,
    /// Backward through time, in the order BPTT visits the steps.
    pub backward: Vec<BackwardStep>,
    /// `[P]` the gradient of the loss as the trainer computes it (before clipping).
    pub grads: Vec<f32>,
    /// `[P]` the same gradient rebuilt from the head and the per-step contributions.
    pub rebuilt: Vec<f32>,
    /// Clipping.
    pub clip: ClipStage,
    /// `[tensors]` gradient norms after clipping.
    pub clipped_norms: Vec<f32>,
    /// True when the loss or the gradient norm was not finite and no update was made.
    pub skipped: bool,
    /// Adam's state after the step (`step` is this update's number).
    pub new_adam: Adam,
    /// `[P]` `Δ = new − old` of every parameter.
    pub delta: Vec<f32>,
    /// `[tensors]` the largest updates of each tensor.
    pub movers: Vec<TensorMovers>,
    /// `[P]` the parameters after the step.
    pub new_params: Vec<f32>,
    /// `[C]` the name's probabilities with the new parameters.
    pub new_probabilities: Vec<f32>,
    /// `−ln p_new[label]`.
    pub new_loss: f32,
}

/// Runs one training step on one name in slow motion (module docs).
///
/// # Errors
/// [`RnnError::EmptySequence`] for an empty name, [`RnnError::TokenOutOfRange`] for a symbol
/// outside the vocabulary.
///
/// # Panics
/// If `label` is not a class of the model, or `params` / Adam's moments do not match its
/// layout (the caller picks them from the model's own classes and state).
pub fn slow_step(input: SlowmoInput<'_>) -> Result<SlowStep, RnnError> {
    let SlowmoInput {
        model,
        params,
        tokens,
        label,
        ..
    } = input;
    assert!(
        (label as usize) < model.num_classes,
        "slow_step: label {label} is not one of the {} classes",
        model.num_classes
    );
    let trace = model.trace(params, tokens)?;
    let batch = ClassifierBatch {
        batch: 1,
        seq_len: tokens.len(),
        tokens: tokens.to_vec(),
        lengths: vec![tokens.len() as u32],
        labels: vec![label],
    };
    let read = model.model_tokens(tokens);
    let feature = head_feature(&trace.directions, model, read.len());
    let logits = model.forward(params, &batch).logits;
    let mut d_logits = vec![0.0f32; logits.len()];
    let loss = softmax_cross_entropy(&logits, &[label], model.num_classes, 1.0, &mut d_logits);
    // The trainer's gradient, and the same call recording what BPTT kept of every step.
    let mut grads = vec![0.0f32; params.len()];
    model.accumulate_loss_and_grads(params, &batch, 1, &mut grads);
    let mut record = ModuleRecord {
        pre_activations: true,
        ..ModuleRecord::default()
    };
    let mut scratch = vec![0.0f32; params.len()];
    model.accumulate_loss_and_grads_recorded(params, &batch, 1, &mut scratch, &mut record);
    let tensors = model.layout.entries.clone();
    let mut rebuilt = vec![0.0f32; params.len()];
    add_head_grads(model, &feature, &d_logits, &mut rebuilt);
    let head_grad_norms = tensor_norms(&tensors, &rebuilt);
    let walk = BackwardWalk {
        model,
        read: &read,
        forward: &trace.directions,
        record: &record,
        tensors: &tensors,
    };
    let backward = walk.run(&mut rebuilt);
    let applied = update(input, &grads, loss);
    let new_probabilities = model.predict(&applied.new_params, tokens)?;
    let new_loss = -new_probabilities[label as usize].ln();
    let delta: Vec<f32> = applied
        .new_params
        .iter()
        .zip(params)
        .map(|(n, o)| n - o)
        .collect();
    Ok(SlowStep {
        read,
        forward: trace.directions,
        feature,
        probabilities: trace.probabilities,
        logits,
        label: label as usize,
        loss,
        d_logits,
        head_grad_norms,
        backward,
        clipped_norms: tensor_norms(&tensors, &applied.clipped),
        movers: tensors.iter().map(|e| movers(&delta[e.range()])).collect(),
        tensors,
        grads,
        rebuilt,
        clip: applied.clip,
        skipped: applied.skipped,
        new_adam: applied.adam,
        delta,
        new_params: applied.new_params,
        new_probabilities,
        new_loss,
    })
}

/// The `[D·H]` output the head reads: every top-layer direction's `h` at the read position.
fn head_feature(forward: &[DirectionTrace], model: &ClassifierModel, len: usize) -> Vec<f32> {
    let hid = model.spec.hidden_size;
    let top = model.spec.num_layers - 1;
    forward
        .iter()
        .filter(|d| d.layer == top)
        .flat_map(|d| d.h[(len - 1) * hid..][..hid].iter().copied())
        .collect()
}

/// `fc.weight += d_logits ⊗ feature`, `fc.bias += d_logits`.
fn add_head_grads(model: &ClassifierModel, feature: &[f32], d_logits: &[f32], out: &mut [f32]) {
    let w = model.layout.get("fc.weight").expect("fc.weight").offset;
    let b = model.layout.get("fc.bias").expect("fc.bias").offset;
    let feat = feature.len();
    for (c, &d) in d_logits.iter().enumerate() {
        for (g, &x) in out[w + c * feat..][..feat].iter_mut().zip(feature) {
            *g += d * x;
        }
        out[b + c] += d;
    }
}

/// L2 norm of each tensor of `flat`.
fn tensor_norms(tensors: &[ParamEntry], flat: &[f32]) -> Vec<f32> {
    tensors.iter().map(|e| l2(&flat[e.range()])).collect()
}

fn l2(xs: &[f32]) -> f32 {
    xs.iter()
        .map(|&x| (x as f64) * (x as f64))
        .sum::<f64>()
        .sqrt() as f32
}

/// The backward pass through time, step by step, from what BPTT recorded.
struct BackwardWalk<'a> {
    model: &'a ClassifierModel,
    read: &'a [u32],
    forward: &'a [DirectionTrace],
    record: &'a ModuleRecord,
    tensors: &'a [ParamEntry],
}

impl BackwardWalk<'_> {
    /// Visits every step in BPTT's order, adding its weight-gradient contribution to `acc`.
    fn run(&self, acc: &mut [f32]) -> Vec<BackwardStep> {
        let spec = &self.model.spec;
        let (dirs, hid, len) = (spec.num_directions(), spec.hidden_size, self.read.len());
        let mut steps = Vec::with_capacity(spec.num_layers * dirs * len);
        for layer in (0..spec.num_layers).rev() {
            for d in 0..dirs {
                let idx = layer * dirs + d;
                let off = self.model.layout.layer("rnn.", layer, d);
                for k in 0..len {
                    let t = if d == 0 { len - 1 - k } else { k };
                    self.add_step(layer, d, t, off, acc);
                    let dh = self.record.directions[idx].dh[t * hid..][..hid].to_vec();
                    steps.push(BackwardStep {
                        layer,
                        direction: d,
                        t,
                        dh_norm: l2(&dh),
                        dh,
                        grad_norms: tensor_norms(self.tensors, acc),
                    });
                }
            }
        }
        steps
    }

    /// Step `t` of `(layer, d)`: `dW_ih += d_gi ⊗ x_t`, `dW_hh += d_gh ⊗ h_prev`, and the
    /// biases.
    fn add_step(&self, layer: usize, d: usize, t: usize, off: LayerOffsets, acc: &mut [f32]) {
        let spec = &self.model.spec;
        let (dirs, hid, len) = (spec.num_directions(), spec.hidden_size, self.read.len());
        let rec = &self.record.directions[layer * dirs + d];
        let gw = rec.d_gi.len() / len;
        let d_gi = &rec.d_gi[t * gw..][..gw];
        let d_gh = &rec.d_gh[t * gw..][..gw];
        let in_size = off.input_size;
        if layer == 0 {
            let sym = self.read[t];
            if (sym as usize) < in_size {
                for (g, &dg) in d_gi.iter().enumerate() {
                    acc[off.w_ih + g * in_size + sym as usize] += dg;
                }
            }
        } else {
            let x: Vec<f32> = (0..dirs)
                .flat_map(|dd| self.h(layer - 1, dd, t).iter().copied())
                .collect();
            outer_acc(d_gi, &x, &mut acc[off.w_ih..][..gw * in_size]);
        }
        let prev = if d == 0 {
            t.checked_sub(1)
        } else {
            Some(t + 1).filter(|&p| p < len)
        };
        if let Some(p) = prev {
            let h_prev = self.h(layer, d, p).to_vec();
            outer_acc(d_gh, &h_prev, &mut acc[off.w_hh..][..gw * hid]);
        }
        for (a, &g) in acc[off.b_ih..][..gw].iter_mut().zip(d_gi) {
            *a += g;
        }
        for (a, &g) in acc[off.b_hh..][..gw].iter_mut().zip(d_gh) {
            *a += g;
        }
    }

    /// `h_t` of `(layer, d)` at time `t`.
    fn h(&self, layer: usize, d: usize, t: usize) -> &[f32] {
        let hid = self.model.spec.hidden_size;
        let dirs = self.model.spec.num_directions();
        &self.forward[layer * dirs + d].h[t * hid..][..hid]
    }
}

/// `out[r, c] += a[r] · b[c]`.
fn outer_acc(a: &[f32], b: &[f32], out: &mut [f32]) {
    for (row, &x) in out.chunks_exact_mut(b.len()).zip(a) {
        for (o, &y) in row.iter_mut().zip(b) {
            *o += x * y;
        }
    }
}

/// What clipping and Adam did.
struct Update {
    clipped: Vec<f32>,
    clip: ClipStage,
    skipped: bool,
    adam: Adam,
    new_params: Vec<f32>,
}

/// Clipping and Adam as [`super::cpu::CpuTrainer::step`] does them: a non-finite loss, or with
/// clipping on a non-finite norm, skips the update (Adam's step count unchanged).
fn update(input: SlowmoInput<'_>, grads: &[f32], loss: f32) -> Update {
    let hyper = input.hyper;
    let mut clipped = grads.to_vec();
    let mut skipped = !loss.is_finite();
    let mut clip = ClipStage {
        max_norm: hyper.max_norm,
        norm: grads
            .iter()
            .map(|&g| (g as f64) * (g as f64))
            .sum::<f64>()
            .sqrt(),
        scale: 1.0,
        clipped: false,
    };
    if hyper.max_norm > 0.0 && !skipped {
        let outcome = clip_grad_norm(&mut clipped, hyper.max_norm);
        clip.norm = outcome.norm();
        if let ClipOutcome::Clipped { scale, .. } = outcome {
            clip.scale = scale;
            clip.clipped = true;
        }
        skipped = outcome.skip_step();
    }
    let mut adam = input.adam.clone();
    let mut new_params = input.params.to_vec();
    if !skipped {
        adam.config.lr = hyper.lr;
        adam.update(&mut new_params, &clipped);
    }
    Update {
        clipped,
        clip,
        skipped,
        adam,
        new_params,
    }
}

/// The largest updates of one tensor's `Δ`.
fn movers(delta: &[f32]) -> TensorMovers {
    let mut order: Vec<usize> = (0..delta.len()).collect();
    order.sort_by(|&a, &b| delta[b].abs().total_cmp(&delta[a].abs()).then(a.cmp(&b)));
    let sum: f64 = delta.iter().map(|d| d.abs() as f64).sum();
    TensorMovers {
        max_abs: order.first().map_or(0.0, |&i| delta[i].abs()),
        mean_abs: if delta.is_empty() {
            0.0
        } else {
            (sum / delta.len() as f64) as f32
        },
        top: order
            .into_iter()
            .take(TOP_MOVERS)
            .map(|i| (i, delta[i]))
            .collect(),
    }
}
