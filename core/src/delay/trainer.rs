//! Training the delay-copy models on the CPU path, without freezing the browser tab.
//!
//! One optimisation step of a cell: a fresh batch from its [`TokenStream`], forward and BPTT
//! over the whole batch (the loss is the mean over every supervised token of the batch),
//! global-norm gradient clipping (`clip_grad_norm_`, when the recipe's `max_norm` is set), then
//! Adam (`torch.optim.Adam`). The weights start from PyTorch's default initialisation plus, for
//! the LSTM, the recipe's forget-gate bias. A step's arithmetic never depends on timing; in the
//! browser the steps run inside the engine's Web Worker.
//!
//! [`SideBySide`] holds one [`CellTrainer`] per cell and steps them in turn (RNN, LSTM, RNN,
//! …). Every cell's stream comes from the same seed, so step k of every cell trains on the
//! same sequences, and every cell's weights come from PyTorch's initialisation with the same
//! seed: the comparison differs only in the cell.

use super::model::{DelayModel, DelayStats};
use super::task::{DelayBatch, DelayTask, TokenStream};
use crate::config::delay::{DelayConfig, DelayRangeError};
use crate::math::optim::{clip_grad_norm, Adam, AdamConfig, ClipOutcome};
use crate::math::params::CellKind;
use serde::{Deserialize, Serialize};

/// The optimisation settings of a run (everything but the cell, the task and the seed).
/// [`Recipe::default`] is recipe R, the page's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recipe {
    /// Hidden size H.
    pub hidden_size: usize,
    /// Adam learning rate.
    pub lr: f32,
    /// Sequences per step.
    pub batch_size: usize,
    /// Global-norm clipping threshold; `None` = no clipping.
    pub max_norm: Option<f32>,
    /// Added to the LSTM's forget-gate block of `bias_ih_l0` at initialisation (no effect on
    /// RNN/GRU).
    pub forget_bias: f32,
}

impl Recipe {
    /// The recipe of a page configuration (`hidden_size`, `lr`, `batch_size`, `max_norm`,
    /// `forget_bias`).
    pub fn of(config: &DelayConfig) -> Recipe {
        Recipe {
            hidden_size: config.hidden_size.max(1),
            lr: config.lr as f32,
            batch_size: config.batch_size.max(1),
            max_norm: config.clip_norm().map(|m| m as f32),
            forget_bias: config.forget_bias as f32,
        }
    }
}

impl Default for Recipe {
    /// Recipe R: hidden 128, lr 0.003, batch 32, clipping at 1.0, forget-gate bias 1.0.
    fn default() -> Self {
        Recipe::of(&DelayConfig::default())
    }
}

/// Steps per cell after which a run stops by itself (so a forgotten tab does not train
/// forever).
pub const MAX_STEPS: u64 = 5000;

/// What one optimisation step of one cell produced (the loss and accuracy are those of the
/// training batch before the update).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct DelayStep {
    /// The cell.
    pub cell: CellKind,
    /// The run's seed (weights and token stream).
    pub seed: u32,
    /// This cell's step count, from 1.
    pub step: u64,
    /// Mean cross-entropy over the batch's supervised tokens, nats.
    pub loss: f64,
    /// Per-token accuracy over the batch's supervised tokens, 0–1.
    pub token_acc: f64,
    /// Global L2 norm of the gradient before clipping.
    pub grad_norm: f64,
    /// True when the loss or a gradient was not finite and the update was skipped (weights
    /// unchanged).
    pub skipped: bool,
}

/// Where one cell's training stands: enough to go on exactly where it stopped (with the same
/// cell, task, recipe and seed, which the owner checks).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainerState {
    /// Steps done.
    pub step: u64,
    /// `[P]` parameters, flat in the model's layout.
    pub params: Vec<f32>,
    /// Adam's updates applied so far (skipped steps apply none).
    pub adam_step: u32,
    /// `[P]` Adam first moments.
    pub adam_m: Vec<f32>,
    /// `[P]` Adam second moments.
    pub adam_v: Vec<f32>,
    /// The token stream's position ([`TokenStream::position`]).
    pub stream_position: u128,
}

impl TrainerState {
    /// Bytes of its vectors (what keeping it costs).
    pub fn size_bytes(&self) -> usize {
        (self.params.len() + self.adam_m.len() + self.adam_v.len()) * 4
    }
}

/// One cell of the delay-copy task with its parameters, Adam state and token stream.
pub struct CellTrainer {
    model: DelayModel,
    params: Vec<f32>,
    adam: Adam,
    grads: Vec<f32>,
    stream: TokenStream,
    batch_size: usize,
    max_norm: Option<f32>,
    seed: u32,
    step: u64,
}

impl CellTrainer {
    /// A trainer for `cell` on `task` with `recipe`: weights from PyTorch's initialisation with
    /// `seed` (plus the recipe's forget-gate bias for the LSTM), the token stream from `seed`,
    /// Adam with the recipe's learning rate, `batch_size` sequences per step.
    pub fn new(cell: CellKind, task: &DelayTask, recipe: &Recipe, seed: u32) -> CellTrainer {
        let model = DelayModel::new(cell, task.vocab(), recipe.hidden_size.max(1));
        let params = model.init_with_forget_bias(u64::from(seed), recipe.forget_bias);
        let n = params.len();
        CellTrainer {
            adam: Adam::new(
                AdamConfig {
                    lr: recipe.lr,
                    ..AdamConfig::default()
                },
                n,
            ),
            grads: vec![0.0; n],
            stream: task.stream(u64::from(seed)),
            batch_size: recipe.batch_size.max(1),
            max_norm: recipe.max_norm.filter(|m| *m > 0.0),
            seed,
            step: 0,
            model,
            params,
        }
    }

    /// The seed of the weights and of the token stream.
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// The cell.
    pub fn cell(&self) -> CellKind {
        self.model.spec.cell
    }

    /// The model (layout, parameter count).
    pub fn model(&self) -> &DelayModel {
        &self.model
    }

    /// Current parameters, flat in the model's layout.
    pub fn params(&self) -> &[f32] {
        &self.params
    }

    /// Steps done.
    pub fn steps(&self) -> u64 {
        self.step
    }

    /// Where the training stands ([`CellTrainer::restore`] goes on from it).
    pub fn state(&self) -> TrainerState {
        TrainerState {
            step: self.step,
            params: self.params.clone(),
            adam_step: self.adam.step,
            adam_m: self.adam.m.clone(),
            adam_v: self.adam.v.clone(),
            stream_position: self.stream.position(),
        }
    }

    /// Goes on from `state`, a [`CellTrainer::state`] of a trainer with the same cell, task,
    /// recipe and seed: the steps that follow are those that followed it.
    ///
    /// # Errors
    /// The model's parameter count and the state's vector lengths when they differ (the state
    /// is of another model); the trainer is unchanged then.
    pub fn restore(&mut self, state: &TrainerState) -> Result<(), (usize, usize)> {
        let n = self.params.len();
        let lengths = [state.params.len(), state.adam_m.len(), state.adam_v.len()];
        if let Some(&bad) = lengths.iter().find(|&&l| l != n) {
            return Err((bad, n));
        }
        self.params.copy_from_slice(&state.params);
        self.adam.step = state.adam_step;
        self.adam.m.copy_from_slice(&state.adam_m);
        self.adam.v.copy_from_slice(&state.adam_v);
        self.stream.seek(state.stream_position);
        self.step = state.step;
        Ok(())
    }

    /// One optimisation step on the next batch of the stream (see the module docs).
    pub fn step(&mut self) -> DelayStep {
        let batch = self.stream.next_batch(self.batch_size);
        self.grads.iter_mut().for_each(|g| *g = 0.0);
        let divisor = batch.targets().len();
        let mut stats = DelayStats::default();
        stats.add(
            self.model
                .accumulate(&self.params, &batch, divisor, &mut self.grads),
        );
        self.step += 1;
        let loss = stats.mean_loss();
        // Clipping with an infinite threshold only measures the norm.
        let clip = clip_grad_norm(&mut self.grads, self.max_norm.unwrap_or(f32::INFINITY));
        let grad_norm = match clip {
            ClipOutcome::Unchanged { norm }
            | ClipOutcome::Clipped { norm, .. }
            | ClipOutcome::NonFinite { norm } => norm,
        };
        let skipped = !loss.is_finite() || clip.skip_step();
        if !skipped {
            self.adam.update(&mut self.params, &self.grads);
        }
        DelayStep {
            cell: self.cell(),
            seed: self.seed,
            step: self.step,
            loss,
            token_acc: stats.accuracy(),
            grad_norm,
            skipped,
        }
    }

    /// Loss and accuracy sums of the current weights on `batch`, forward only (in slices of
    /// at most the training batch size, so memory stays that of a training step).
    pub fn evaluate(&self, batch: &DelayBatch) -> DelayStats {
        self.model
            .evaluate_in_chunks(&self.params, batch, self.batch_size.max(32))
    }

    /// Arg-max predictions `[T − d]` of sequence `b` of `batch` with the current weights.
    pub fn predict(&self, batch: &DelayBatch, b: usize) -> Vec<u32> {
        self.model.predict(&self.params, batch, b)
    }
}

/// The example sequence the page shows for `task` and `seed`: a batch of one sequence from a
/// stream of its own (seeded from `seed`, but not the training stream).
pub fn example_batch(task: &DelayTask, seed: u64) -> DelayBatch {
    task.stream(seed ^ 0x5eed_e8a3_91c0_77d1).next_batch(1)
}

/// Several cells trained in turn on the same token stream, one seed (`config.seed`) and no
/// held-out evaluation; [`super::run::Sweep`] runs every seed and measures on the held-out set.
pub struct SideBySide {
    task: DelayTask,
    trainers: Vec<CellTrainer>,
    next: usize,
    example: DelayBatch,
}

impl SideBySide {
    /// One [`CellTrainer`] per cell of `config.cell`, in display order.
    ///
    /// # Errors
    /// [`DelayRangeError`] unless `0 < delay < length`.
    pub fn new(config: &DelayConfig) -> Result<SideBySide, DelayRangeError> {
        let task = DelayTask::new(config.vocab.max(2), config.length, config.delay)?;
        let recipe = Recipe::of(config);
        let trainers = config
            .cell
            .cells()
            .iter()
            .map(|&cell| CellTrainer::new(cell, &task, &recipe, config.seed))
            .collect();
        let example = example_batch(&task, u64::from(config.seed));
        Ok(SideBySide {
            task,
            trainers,
            next: 0,
            example,
        })
    }

    /// The task.
    pub fn task(&self) -> &DelayTask {
        &self.task
    }

    /// The trainers, in display order.
    pub fn trainers(&self) -> &[CellTrainer] {
        &self.trainers
    }

    /// The example sequence (a batch of one).
    pub fn example(&self) -> &DelayBatch {
        &self.example
    }

    /// One step of the cell whose turn it is (cells take turns).
    pub fn step(&mut self) -> DelayStep {
        let i = self.next;
        self.next = (self.next + 1) % self.trainers.len();
        self.trainers[i].step()
    }

    /// Arg-max predictions `[T − d]` of every cell on the example sequence.
    pub fn example_predictions(&self) -> Vec<(CellKind, Vec<u32>)> {
        self.trainers
            .iter()
            .map(|t| (t.cell(), t.predict(&self.example, 0)))
            .collect()
    }
}
