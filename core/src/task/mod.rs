//! The seam every lab trains through: one supervised sequence task.
//!
//! A [`Task`] says what its sequences are and how a model is read and scored:
//!
//! - its **batches** ([`SeqBatch`]: inputs, targets, lengths), from a seeded endless
//!   [`BatchStream`] whose position a checkpoint keeps;
//! - its **readout rule** ([`Readout`]: the last step, the last k steps, every step from a
//!   position, packed last) and **loss** ([`Loss`]: cross-entropy or squared error), with the
//!   input ([`Input`]) and the head's outputs: [`TaskShape`];
//! - its **fixed held-out set** ([`Task::heldout`]), the same for every cell and seed;
//! - its **memoryless baseline** with the rule it comes from ([`Baseline`]), its
//!   **"solved" criterion** ([`Criterion`]), and the keys the app words its outcome sentences
//!   with in English and Chinese ([`Task::key`], the typed baseline and criterion).
//!
//! Behind the seam everything is shared: one model ([`crate::math::model::SeqModel`]: the
//! recurrent module, any cell, layers and directions, plus a linear head over the readouts),
//! one trainer with the CPU path and the WebGPU path ([`crate::train::trainer::Trainer`]), one
//! seed × cell sweep with its resume checkpoint ([`crate::train::sweep`]), one worker loop
//! and one event type ([`crate::engine`]).
//!
//! The instances: names classification ([`names::NamesTask`]), names generation
//! ([`generate::GenerateTask`]: a next-character language model), delay-copy
//! ([`delay::DelayTask`]), and the adding problem, copy memory and temporal order
//! ([`memory::MemoryTask`]); [`lab_task`] builds the lab page's task from its
//! configuration.
//!
//! **A new task** touches four source files: its own file (the generator and its `impl Task`),
//! its key in the lab's URL choice ([`crate::config::delay::LabTask`]), its line in
//! [`lab_task`] here, and its name and criterion in the app's text catalogue of the lab page
//! — plus its tests. It then trains on the CPU and WebGPU paths, sweeps over seeds and cells,
//! resumes after a reload and reports through the same events as every other task.

use std::fmt::Debug;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub mod delay;
pub mod generate;
pub mod memory;
pub mod names;

use crate::config::delay::{DelayConfig, DelayRangeError, LabTask};
use crate::math::loss::ReadoutSums;
pub use crate::math::model::{Head, Loss, Readout, SeqBatch, Targets};

/// What the model reads at each step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Input {
    /// One-hot symbols of a vocabulary of `vocab` (input_size = vocab; at most 64 on WebGPU).
    OneHot {
        /// Vocabulary size V.
        vocab: usize,
    },
    /// Dense features of width `features` (input_size = features).
    Dense {
        /// Features per step I.
        features: usize,
    },
}

impl Input {
    /// The recurrent module's `input_size`.
    pub fn size(self) -> usize {
        match self {
            Input::OneHot { vocab } => vocab,
            Input::Dense { features } => features,
        }
    }

    /// The GPU's input kind.
    pub fn kind(self) -> crate::gpu::InputKind {
        match self {
            Input::OneHot { .. } => crate::gpu::InputKind::OneHot,
            Input::Dense { .. } => crate::gpu::InputKind::Dense,
        }
    }
}

/// How a task's sequences are read and scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TaskShape {
    /// What the model reads.
    pub input: Input,
    /// Outputs of the head O (classes, or 1 for a real target).
    pub outputs: usize,
    /// Which recurrent outputs the head reads.
    pub readout: Readout,
    /// The loss over the readouts.
    pub loss: Loss,
    /// How token sequences are fed ([`Head::Padded`] only for the names lab's course recipe).
    pub head: Head,
    /// Steps of the longest batch the task gives (training or held out).
    pub max_seq_len: usize,
    /// `Some(C)` when the model starts from an initial state computed from each sequence's
    /// condition, one of C classes ([`crate::math::model::SeqModel::with_initial_state`];
    /// the batches give [`SeqBatch::conditions`]); `None`: from zeros.
    pub conditions: Option<usize>,
}

/// Where a memoryless baseline comes from (the app words it in both languages).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum BaselineRule {
    /// A uniform guess among `choices` answers at every readout (delay-copy: the V tokens;
    /// copy memory: the 8 symbols at the recall; temporal order: the 4 classes): loss
    /// `ln choices`, accuracy `1/choices`.
    Uniform {
        /// Equally likely answers.
        choices: usize,
    },
    /// Always answering `answer` (the adding problem: 1, the mean of U₁ + U₂, whose squared
    /// error is `Var(U₁ + U₂) = 1/6`).
    Constant {
        /// The answer.
        answer: f64,
    },
    /// Each of `outcomes` answers guessed at its training frequency, add-one smoothed, whatever
    /// came before (the names generator: the letters and the end marker).
    Unigram {
        /// Outcomes K.
        outcomes: usize,
    },
    /// Always answering the largest class of the held-out set (the names lab), which holds
    /// `share` of it.
    Majority {
        /// The largest class's share of the held-out set, 0–1.
        share: f64,
    },
}

/// What a model that remembers nothing scores on the held-out set.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Baseline {
    /// Held-out loss per readout (nats, or squared error).
    pub loss: f64,
    /// Held-out accuracy per readout, 0–1 (`None` for a real target).
    pub accuracy: Option<f64>,
    /// Where it comes from.
    pub rule: BaselineRule,
}

/// When a run counts as having solved its task, judged on the held-out set.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Criterion {
    /// Mean held-out loss below this.
    LossBelow(f64),
    /// Held-out accuracy at least this, 0–1.
    AccuracyAtLeast(f64),
}

impl Criterion {
    /// The held-out loss below which a run counts as solved (the "solved" line of a loss
    /// chart); `None` for a criterion on accuracy (temporal order's).
    pub fn loss_below(self) -> Option<f64> {
        match self {
            Criterion::LossBelow(x) => Some(x),
            Criterion::AccuracyAtLeast(_) => None,
        }
    }

    /// Whether held-out sums meet it.
    pub fn met(self, heldout: &ReadoutSums) -> bool {
        match self {
            Criterion::LossBelow(x) => heldout.mean_loss() < x,
            Criterion::AccuracyAtLeast(x) => heldout.accuracy() >= x,
        }
    }
}

/// An endless seeded source of training batches: the same seed gives the same batches, and a
/// stream moved to a [`BatchStream::position`] of another with the same seed gives the
/// batches that followed there.
pub trait BatchStream {
    /// The next training batch.
    fn next_batch(&mut self) -> SeqBatch;
    /// How far the stream has been read (a checkpoint keeps it).
    fn position(&self) -> u128;
    /// Moves the stream to `position`.
    fn seek(&mut self, position: u128);
}

/// A supervised sequence task (see the module docs).
pub trait Task: Debug + Send + Sync {
    /// The task's key, as URLs, the command line and the app's text catalogues name it:
    /// `names`, `delay`, `adding`, `copy`, `order`.
    fn key(&self) -> &'static str;

    /// The length T the task is set at (the URL's `length`), `None` for a task of
    /// variable-length data (the names).
    fn length(&self) -> Option<usize> {
        None
    }

    /// Everything that decides the task's numbers, canonically (a checkpoint of a sweep on
    /// another task is refused).
    fn settings(&self) -> String;

    /// How its sequences are read and scored.
    fn shape(&self) -> TaskShape;

    /// The training stream of a run with `seed`, `batch_size` sequences per batch.
    fn stream(&self, seed: u32, batch_size: usize) -> Box<dyn BatchStream>;

    /// The fixed held-out set in evaluation slices (for runs of `batch_size`: the slices never
    /// exceed what a training step of that size or the task's own slice holds, so the GPU's
    /// buffers fit both).
    fn heldout(&self, batch_size: usize) -> Vec<SeqBatch>;

    /// The memoryless baseline of the held-out figures.
    fn baseline(&self) -> Baseline;

    /// When a run counts as having solved the task (`None`: the task names no such point).
    fn criterion(&self) -> Option<Criterion>;

    /// Whether held-out sums meet the criterion.
    fn solved(&self, heldout: &ReadoutSums) -> bool {
        self.criterion().is_some_and(|c| c.met(heldout))
    }

    /// A sequence the page shows with the predictions of the runs of `seed` (not a training or
    /// held-out sequence), if the task has one.
    fn example(&self, _seed: u32) -> Option<SeqBatch> {
        None
    }

    /// A fixed held-out batch whose gradient flow is reported with the weights, if the task
    /// shows one.
    fn grad_flow_batch(&self) -> Option<SeqBatch> {
        None
    }

    /// Whether held-out evaluations count the confusion matrix (classes × classes).
    fn confusion(&self) -> bool {
        false
    }

    /// Whether a run stops at its first non-finite loss (else the step is skipped and counted).
    fn stops_on_bad_loss(&self) -> bool {
        false
    }

    /// Whether runs are evaluated on the held-out set before their first step.
    fn eval_at_start(&self) -> bool {
        true
    }
}

/// Why the lab page's configuration gives no task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TaskError {
    /// Delay-copy: `0 < delay < length` is broken.
    Delay(DelayRangeError),
    /// A long-memory task: the length is below what the task takes.
    Length(memory::LengthError),
    /// Names generation without the names data (the page sends it with the request).
    NoData,
}

impl std::fmt::Display for TaskError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TaskError::Delay(e) => std::fmt::Display::fmt(e, f),
            TaskError::Length(e) => std::fmt::Display::fmt(e, f),
            TaskError::NoData => f.write_str("names generation needs the names data set"),
        }
    }
}

impl std::error::Error for TaskError {}

/// The split seed of names generation's training and held-out names: the names page's default
/// seed, so the generator's held-out names are the classifier's validation names.
pub const GENERATE_SPLIT_SEED: u64 = 0;

/// The task of the lab page's configuration (`task`, with `length` and, for delay-copy,
/// `vocab` and `delay`; for names generation `conditioning` and the names `data`), at the
/// length `length` (the caller resolves a key left at its delay-copy default to the task's
/// own, [`crate::train::plan`]).
///
/// # Errors
/// [`TaskError`] when the length (or the delay) does not fit the task, or names generation has
/// no `data`.
pub fn lab_task(
    config: &DelayConfig,
    length: usize,
    data: Option<Arc<crate::data::names::NamesDataset>>,
) -> Result<Arc<dyn Task>, TaskError> {
    use self::delay::DelayTask;
    use self::memory::{MemoryTask, TaskKind};
    let memory = |kind| {
        MemoryTask::new(kind, length)
            .map(|t| Arc::new(t) as Arc<dyn Task>)
            .map_err(TaskError::Length)
    };
    match config.task {
        LabTask::Delay => DelayTask::new(config.vocab.max(2), length, config.delay)
            .map(|t| Arc::new(t) as Arc<dyn Task>)
            .map_err(TaskError::Delay),
        LabTask::Adding => memory(TaskKind::Adding),
        LabTask::Copy => memory(TaskKind::Copy),
        LabTask::Order => memory(TaskKind::Order),
        LabTask::Generate => {
            let data = data.ok_or(TaskError::NoData)?;
            Ok(Arc::new(generate::GenerateTask::new(
                data,
                GENERATE_SPLIT_SEED,
                config.conditioning,
            )))
        }
    }
}
