//! One run's steps split across workers: each batch's rows are cut into `shares` contiguous
//! shares ([`share_rows`]), each share's gradient is computed with the current weights
//! ([`share_gradient`], by the engine's worker itself or by a helper worker), and the trainer
//! sums them in share order ([`sum_shares`]) before it clips and applies Adam once.
//!
//! **Determinism.** A share's gradient depends only on the weights, the batch and the
//! share's rows, never on which worker computed it; the sum runs in share order, element by
//! element (`((g₀ + g₁) + g₂) + …`). So a run's numbers depend on its settings and its
//! number of shares alone: a helper that is missing or fails is replaced by the engine's
//! worker computing that share itself, with the same result bit for bit. One share is the
//! unsplit step, bit for bit (its gradient is the whole batch's, accumulated into zeros as
//! the unsplit step does). Different share counts agree to float rounding (the batch's
//! gradient sums its rows in another order), not bit for bit, so the resume checkpoint
//! records the count ([`crate::train::sweep::SweepCheckpoint::shares`]).
//!
//! The messages between the engine's worker and its helpers are [`ShareJob`] and
//! [`ShareGradient`], postcard-encoded; their buffers are transferred, not copied.

use std::future::Future;
use std::ops::Range;
use std::pin::Pin;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::recipe::{model_of_shape, Recipe};
use crate::math::loss::ReadoutSums;
use crate::math::model::{SeqBatch, SeqModel, Targets};
use crate::math::params::CellKind;
use crate::math::recurrent::SeqData;
use crate::task::TaskShape;

/// The most shares a batch is cut into (as many as the most workers a sweep gets).
pub const MAX_SHARES: usize = crate::config::delay::MAX_WORKERS;

/// The rows of each share of a batch of `batch` sequences cut into `shares` (at least 1):
/// contiguous, in order, the first `batch mod shares` one row longer; no empty share (a batch
/// smaller than `shares` gives one share per row).
pub fn share_rows(batch: usize, shares: usize) -> Vec<Range<usize>> {
    let shares = shares.clamp(1, batch.max(1));
    let (base, extra) = (batch / shares, batch % shares);
    let mut start = 0;
    (0..shares)
        .map(|k| {
            let len = base + usize::from(k < extra);
            let r = start..start + len;
            start += len;
            r
        })
        .collect()
}

/// What a helper needs to build the model once (the run's cell, recipe and task shape).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShareModel {
    /// The task's shape (input, outputs, readout, loss, head, conditions).
    pub shape: TaskShape,
    /// The cell.
    pub cell: CellKind,
    /// The recipe (sizes; the optimiser settings are not used by a helper).
    pub recipe: Recipe,
}

impl ShareModel {
    /// The model these settings describe (the trainer's own, [`super::recipe::model_of`]).
    pub fn model(&self) -> SeqModel {
        model_of_shape(&self.shape, self.cell, &self.recipe)
    }
}

/// One share's work: the gradient of `rows` with the current weights (sent beside it as
/// their own buffer, `[P]` flat in the model's layout). In a message, `model` and `divisor`
/// travel postcard-encoded and `rows` as 32-bit words ([`rows_to_words`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ShareJob {
    /// The model.
    pub model: ShareModel,
    /// The share's rows of the batch ([`SeqBatch::rows`]).
    pub rows: SeqBatch,
    /// Readouts of the whole batch: the share's gradient is that of `(1/divisor) Σ loss`.
    pub divisor: usize,
}

/// Words before the data in [`rows_to_words`].
const ROWS_HEAD: usize = 6;

/// A batch's rows as 32-bit words, for a message: `[B, T, tokens (1) or features (0), classes
/// (1) or values (0), input words, target words]`, then `lengths [B]`, the input (`[T, B]`
/// tokens or `[T, B, I]` features as their bits), the targets (`[R·B]` classes or values as
/// their bits) and the conditions (`[B]` or none). [`rows_from_words`] reads it back exactly.
pub fn rows_to_words(b: &SeqBatch) -> Vec<u32> {
    let (tokens, input): (u32, Vec<u32>) = match &b.input {
        SeqData::Tokens(t) => (1, t.clone()),
        SeqData::Dense(x) => (0, x.iter().map(|v| v.to_bits()).collect()),
    };
    let (classes, targets): (u32, Vec<u32>) = match &b.targets {
        Targets::Classes(c) => (1, c.clone()),
        Targets::Values(v) => (0, v.iter().map(|v| v.to_bits()).collect()),
    };
    let mut w = vec![
        b.batch as u32,
        b.seq_len as u32,
        tokens,
        classes,
        input.len() as u32,
        targets.len() as u32,
    ];
    w.extend_from_slice(&b.lengths);
    w.extend(input);
    w.extend(targets);
    w.extend_from_slice(&b.conditions);
    w
}

/// The batch [`rows_to_words`] wrote; `None` for words it cannot have written (too short, or
/// conditions that are neither `[B]` nor none).
pub fn rows_from_words(w: &[u32]) -> Option<SeqBatch> {
    let head = w.get(..ROWS_HEAD)?;
    let (batch, n_in, n_t) = (head[0] as usize, head[4] as usize, head[5] as usize);
    let mut rest = &w[ROWS_HEAD..];
    let mut take = |n: usize| {
        let part = rest.get(..n)?;
        rest = &rest[n..];
        Some(part)
    };
    let lengths = take(batch)?.to_vec();
    let input = take(n_in)?;
    let input = match head[2] {
        1 => SeqData::Tokens(input.to_vec()),
        _ => SeqData::Dense(input.iter().map(|&v| f32::from_bits(v)).collect()),
    };
    let targets = take(n_t)?;
    let targets = match head[3] {
        1 => Targets::Classes(targets.to_vec()),
        _ => Targets::Values(targets.iter().map(|&v| f32::from_bits(v)).collect()),
    };
    let conditions = rest.to_vec();
    if !conditions.is_empty() && conditions.len() != batch {
        return None;
    }
    Some(SeqBatch {
        batch,
        seq_len: head[1] as usize,
        lengths,
        input,
        targets,
        conditions,
    })
}

/// One share's result (in a message, `grads` travels as its own buffer).
#[derive(Clone, Debug, PartialEq)]
pub struct ShareGradient {
    /// `[P]` the gradient of the share's rows, flat in the model's layout.
    pub grads: Vec<f32>,
    /// Loss and accuracy sums over the share's readouts.
    pub sums: ReadoutSums,
}

/// The gradient of `rows` (one share of a batch whose readouts number `divisor`) with
/// `params`, accumulated into zeros.
///
/// # Panics
/// As [`SeqModel::accumulate`].
pub fn share_gradient(
    model: &SeqModel,
    params: &[f32],
    rows: &SeqBatch,
    divisor: usize,
) -> ShareGradient {
    let mut grads = vec![0.0f32; params.len()];
    let r = model.accumulate(params, rows, divisor, &mut grads);
    ShareGradient {
        grads,
        sums: r.sums,
    }
}

/// [`share_gradient`] of a job with `params` (what a helper does; `model` is
/// `job.model.model()`, kept by the helper between jobs).
pub fn run_job(job: &ShareJob, model: &SeqModel, params: &[f32]) -> ShareGradient {
    share_gradient(model, params, &job.rows, job.divisor)
}

/// The shares' gradients summed in share order, element by element, and their sums; the
/// first share's buffer is reused. `None` for no share.
///
/// # Panics
/// If the gradients differ in length.
pub fn sum_shares(shares: Vec<ShareGradient>) -> Option<ShareGradient> {
    let mut it = shares.into_iter();
    let mut total = it.next()?;
    for s in it {
        assert_eq!(s.grads.len(), total.grads.len(), "shares of other models");
        for (t, g) in total.grads.iter_mut().zip(&s.grads) {
            *t += g;
        }
        total.sums.add(s.sums);
    }
    Some(total)
}

/// A share's gradient on its way back from a helper: `None` when the helper failed (the
/// trainer computes the share itself).
pub type Pending = Pin<Box<dyn Future<Output = Option<ShareGradient>>>>;

/// The helper workers of a split run, as the trainer sees them.
pub trait Helpers {
    /// Helpers that can take a share now (the trainer computes the others itself).
    fn count(&self) -> usize;

    /// Hands `job` with the weights `params` to helper `k` (`k < count()`); its gradient
    /// comes back through the future.
    fn post(&self, k: usize, job: ShareJob, params: &[f32]) -> Pending;
}

/// How a trainer's steps are split: `shares` per batch (1: unsplit), the shares after the
/// first handed to `helpers` when there are any.
#[derive(Clone)]
pub struct Split {
    /// Shares per batch, at least 1.
    pub shares: usize,
    /// The helpers (none: the trainer computes every share itself).
    pub helpers: Option<Rc<dyn Helpers>>,
}

impl Default for Split {
    /// Unsplit.
    fn default() -> Self {
        Split {
            shares: 1,
            helpers: None,
        }
    }
}

impl std::fmt::Debug for Split {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Split")
            .field("shares", &self.shares)
            .field("helpers", &self.helpers.as_ref().map(|h| h.count()))
            .finish()
    }
}

/// The gradient of `batch` with `params` in `shares` shares summed in order: share 0 by this
/// worker, shares `1..` by `helpers` while there are some (each share `k ≥ 1` to helper
/// `k − 1`), the rest here. Posted first, so the helpers work while this worker computes
/// share 0.
pub async fn split_gradient(
    model: &SeqModel,
    share_model: impl Fn() -> ShareModel,
    params: &[f32],
    batch: &SeqBatch,
    shares: usize,
    helpers: Option<&dyn Helpers>,
) -> ShareGradient {
    let divisor = batch.targets.len();
    let ranges = share_rows(batch.batch, shares);
    let mut pending: Vec<Option<Pending>> = Vec::with_capacity(ranges.len());
    pending.push(None);
    if let Some(h) = helpers {
        let n = h.count();
        for (k, r) in ranges.iter().enumerate().skip(1) {
            pending.push((k - 1 < n).then(|| {
                h.post(
                    k - 1,
                    ShareJob {
                        model: share_model(),
                        rows: batch.rows(r.clone()),
                        divisor,
                    },
                    params,
                )
            }));
        }
    }
    let mut results = Vec::with_capacity(ranges.len());
    for (k, r) in ranges.iter().enumerate() {
        let from_helper = match pending.get_mut(k).and_then(Option::take) {
            Some(p) => p.await,
            None => None,
        };
        let g = match from_helper {
            Some(g) if g.grads.len() == params.len() => g,
            _ if ranges.len() == 1 => share_gradient(model, params, batch, divisor),
            _ => share_gradient(model, params, &batch.rows(r.clone()), divisor),
        };
        results.push(g);
    }
    sum_shares(results).expect("a batch has at least one share")
}

/// Helpers on native threads (the native commands and benchmarks, and the tests that check
/// that helpers change no number): one thread per helper, each keeping the model of its last
/// job.
#[cfg(not(target_arch = "wasm32"))]
pub struct ThreadHelpers {
    senders: Vec<std::sync::mpsc::Sender<ThreadJob>>,
}

#[cfg(not(target_arch = "wasm32"))]
type ThreadJob = (
    ShareJob,
    Vec<f32>,
    futures_channel::oneshot::Sender<ShareGradient>,
);

#[cfg(not(target_arch = "wasm32"))]
impl ThreadHelpers {
    /// `n` helper threads (they end when this is dropped).
    pub fn new(n: usize) -> ThreadHelpers {
        let senders = (0..n)
            .map(|_| {
                let (tx, rx) = std::sync::mpsc::channel::<ThreadJob>();
                std::thread::spawn(move || {
                    let mut kept: Option<(ShareModel, SeqModel)> = None;
                    while let Ok((job, params, reply)) = rx.recv() {
                        if kept.as_ref().is_none_or(|(m, _)| *m != job.model) {
                            kept = Some((job.model.clone(), job.model.model()));
                        }
                        let model = &kept.as_ref().expect("kept above").1;
                        let _ = reply.send(run_job(&job, model, &params));
                    }
                });
                tx
            })
            .collect();
        ThreadHelpers { senders }
    }
}

#[cfg(not(target_arch = "wasm32"))]
impl Helpers for ThreadHelpers {
    fn count(&self) -> usize {
        self.senders.len()
    }

    fn post(&self, k: usize, job: ShareJob, params: &[f32]) -> Pending {
        let (tx, rx) = futures_channel::oneshot::channel();
        let sent = self.senders[k].send((job, params.to_vec(), tx)).is_ok();
        Box::pin(async move {
            if sent {
                rx.await.ok()
            } else {
                None
            }
        })
    }
}
