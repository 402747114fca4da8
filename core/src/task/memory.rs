//! The three classic long-memory tasks as [`Task`]s: their generators, seeded with ChaCha8 (a
//! seed gives the same sequences on every platform, wasm included), their readouts and losses,
//! their fixed held-out set, their memoryless baselines and their criteria of "solved".
//!
//! Positions are counted from 0; every batch is time-major, as the recurrent module reads it.
//! The model reads the last step (adding, order) or the last 10 steps (copy) with a linear
//! head: one real output and the squared error (adding), or logits and the cross-entropy
//! (copy: 10 symbols, order: 4 classes).
//!
//! - **Adding** ([`TaskKind::Adding`], length T): T pairs (value, marker), value ∈ U[0, 1),
//!   marker 1 at one position drawn from the first half `0..T/2` and one from the second half
//!   `T/2..T`, 0 elsewhere. The target is the sum of the two marked values; the loss is the
//!   mean squared error of one scalar output read at the last step (Hochreiter & Schmidhuber
//!   1997, §5 experiment 4; the form of Le, Jaitly & Hinton 2015, §4.1, and Arjovsky, Shah &
//!   Bengio 2016, §4.2). Always answering 1 scores `Var(U₁ + U₂) = 1/6 ≈ 0.167`.
//! - **Copy memory** ([`TaskKind::Copy`], T blanks): 10 symbols drawn from 1..=8, T − 1 blanks
//!   (0), the delimiter 9, then 10 blanks: T + 20 tokens. The output is blank everywhere but the
//!   last 10 positions, which must recall the 10 symbols in order (Arjovsky, Shah & Bengio 2016,
//!   §4.1). The loss here is the cross-entropy over those 10 recalled positions only; a
//!   memoryless model that guesses uniformly among the 8 symbols there scores `ln 8 ≈ 2.079`
//!   per recalled position. The paper averages over all T + 20 positions, where that same
//!   guesser (sure of the blanks) scores `10 · ln 8 / (T + 20)` ([`paper_copy_loss`] converts).
//! - **Temporal order** ([`TaskKind::Order`], minimum length T, 100 in the paper): each
//!   sequence has its own length in `T..=T+10`, starts with the marker B and ends with E; the
//!   symbols X or Y stand at one position t₁ ∈ 10..=20 and one t₂ ∈ 50..=60, distractors
//!   a, b, c, d elsewhere. The class of the order (XX, XY, YX, YY) is read at the sequence's
//!   last step (Hochreiter & Schmidhuber 1997, §5 experiment 6a). A uniform guess scores
//!   `ln 4 ≈ 1.386` and accuracy 0.25.

use crate::config::delay::LabTask;
use crate::math::loss::ReadoutSums;
use crate::math::model::{Head, Loss, Readout, SeqBatch, Targets};
use crate::math::recurrent::SeqData;
use crate::task::{Baseline, BaselineRule, BatchStream, Criterion, Input, Task, TaskShape};
use rand::distr::{Distribution, Uniform};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// Symbols of the copy task: 0 blank, 1..=8 the categories, 9 the delimiter.
pub const COPY_VOCAB: usize = 10;
/// Symbols the copy task asks to recall.
pub const COPY_SYMBOLS: usize = 10;
/// The copy task's delimiter token.
pub const COPY_DELIMITER: u32 = 9;
/// Categories the recalled symbols are drawn from (tokens 1..=8).
pub const COPY_CATEGORIES: usize = 8;

/// Symbols of the temporal-order task: a, b, c, d (0..=3, distractors), X (4), Y (5), the start
/// marker B (6) and the end marker E (7).
pub const ORDER_VOCAB: usize = 8;
/// The temporal-order task's symbol X.
pub const ORDER_X: u32 = 4;
/// The temporal-order task's symbol Y.
pub const ORDER_Y: u32 = 5;
/// The temporal-order task's start marker B.
pub const ORDER_START: u32 = 6;
/// The temporal-order task's end marker E.
pub const ORDER_END: u32 = 7;
/// Classes of the temporal-order task: XX, XY, YX, YY (class = 2·[first is Y] + [second is Y]).
pub const ORDER_CLASSES: usize = 4;
/// Positions where the first relevant symbol may stand.
pub const ORDER_FIRST: std::ops::RangeInclusive<usize> = 10..=20;
/// Positions where the second relevant symbol may stand.
pub const ORDER_SECOND: std::ops::RangeInclusive<usize> = 50..=60;
/// How much longer than the minimum length T a temporal-order sequence may be (`T..=T+10`).
pub const ORDER_SPREAD: usize = 10;

/// Which task.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskKind {
    /// The adding problem: regression at the last step.
    Adding,
    /// Copy memory: recall 10 symbols after T blanks.
    Copy,
    /// Temporal order: classify the order of X and Y at the last step.
    Order,
}

impl TaskKind {
    /// Every task, in the order the page lists them.
    pub const ALL: [TaskKind; 3] = [TaskKind::Adding, TaskKind::Copy, TaskKind::Order];

    /// The key used in URLs and on the command line: `adding`, `copy`, `order`.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskKind::Adding => "adding",
            TaskKind::Copy => "copy",
            TaskKind::Order => "order",
        }
    }

    /// The default step budget at the default length: adding 1500, copy 1000, order 800 steps
    /// of the default batch (a few minutes per run on the CPU path natively).
    pub fn default_steps(self) -> u64 {
        match self {
            TaskKind::Adding => 1500,
            TaskKind::Copy => 1000,
            TaskKind::Order => 800,
        }
    }

    /// Parses a key of [`TaskKind::as_str`] (case-insensitive).
    pub fn parse(s: &str) -> Option<TaskKind> {
        TaskKind::ALL
            .into_iter()
            .find(|k| k.as_str().eq_ignore_ascii_case(s))
    }

    /// The default length T: adding 50 (pairs), copy 20 (blanks), order 100 (the paper's
    /// minimum length).
    pub fn default_length(self) -> usize {
        match self {
            TaskKind::Adding => 50,
            TaskKind::Copy => 20,
            TaskKind::Order => 100,
        }
    }

    /// The smallest length T the generator accepts: adding 2, copy 1, order 62 (the second
    /// relevant symbol stands at 60 at the latest and E must follow it).
    pub fn min_length(self) -> usize {
        match self {
            TaskKind::Adding => 2,
            TaskKind::Copy => 1,
            TaskKind::Order => *ORDER_SECOND.end() + 2,
        }
    }
}

/// The default hidden size of the long-memory tasks: 64 (recipe R of the delay-copy lab with a
/// smaller hidden size, so that the tasks' longer sequences train in minutes on the CPU path).
pub const DEFAULT_HIDDEN: usize = 64;

/// A length T the task cannot take (below [`TaskKind::min_length`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LengthError {
    /// The task.
    pub task: TaskKind,
    /// The length asked for.
    pub length: usize,
    /// The smallest length it takes.
    pub min: usize,
}

impl std::fmt::Display for LengthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the {} task needs a length of at least {}, got {}",
            self.task.as_str(),
            self.min,
            self.length
        )
    }
}

impl std::error::Error for LengthError {}

/// One task at one length: what the generator draws and how a model is read and scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryTask {
    kind: TaskKind,
    length: usize,
}

impl MemoryTask {
    /// The task `kind` at length `length` (adding: pairs per sequence; copy: blanks between the
    /// symbols and the delimiter's successor, the paper's T; order: minimum sequence length).
    ///
    /// # Errors
    /// [`LengthError`] below [`TaskKind::min_length`].
    pub fn new(kind: TaskKind, length: usize) -> Result<MemoryTask, LengthError> {
        let min = kind.min_length();
        if length < min {
            return Err(LengthError {
                task: kind,
                length,
                min,
            });
        }
        Ok(MemoryTask { kind, length })
    }

    /// The task at its default length ([`TaskKind::default_length`]).
    pub fn default_for(kind: TaskKind) -> MemoryTask {
        MemoryTask {
            kind,
            length: kind.default_length(),
        }
    }

    /// Which task.
    pub fn kind(&self) -> TaskKind {
        self.kind
    }

    /// The length T as given to [`MemoryTask::new`].
    pub fn length(&self) -> usize {
        self.length
    }

    /// Steps of the batches: adding T, copy T + 20, order T + 10 (the longest sequence).
    pub fn seq_len(&self) -> usize {
        match self.kind {
            TaskKind::Adding => self.length,
            TaskKind::Copy => self.length + 2 * COPY_SYMBOLS,
            TaskKind::Order => self.length + ORDER_SPREAD,
        }
    }

    /// Input features per step: adding 2 (value, marker), copy 10, order 8 (one-hot).
    pub fn input_size(&self) -> usize {
        match self.kind {
            TaskKind::Adding => 2,
            TaskKind::Copy => COPY_VOCAB,
            TaskKind::Order => ORDER_VOCAB,
        }
    }

    /// Outputs of the head: adding 1 (a real number), copy 10, order 4 (logits).
    pub fn outputs(&self) -> usize {
        match self.kind {
            TaskKind::Adding => 1,
            TaskKind::Copy => COPY_VOCAB,
            TaskKind::Order => ORDER_CLASSES,
        }
    }

    /// Readouts per sequence: copy 10 (its last 10 steps), adding and order 1 (the last step).
    pub fn readouts(&self) -> usize {
        match self.kind {
            TaskKind::Copy => COPY_SYMBOLS,
            TaskKind::Adding | TaskKind::Order => 1,
        }
    }

    /// True when the loss is a cross-entropy over classes (copy, order), false for the adding
    /// problem's squared error.
    pub fn is_classification(&self) -> bool {
        self.kind != TaskKind::Adding
    }

    /// The memoryless baseline of the held-out loss (see the module docs): adding `1/6` (MSE of
    /// always answering 1), copy `ln 8` (nats per recalled symbol), order `ln 4` (nats per
    /// sequence).
    pub fn baseline_loss(&self) -> f64 {
        match self.kind {
            TaskKind::Adding => 1.0 / 6.0,
            TaskKind::Copy => (COPY_CATEGORIES as f64).ln(),
            TaskKind::Order => (ORDER_CLASSES as f64).ln(),
        }
    }

    /// The memoryless baseline of the held-out accuracy: copy `1/8`, order `1/4`; `None` for
    /// the adding problem.
    pub fn baseline_accuracy(&self) -> Option<f64> {
        match self.kind {
            TaskKind::Adding => None,
            TaskKind::Copy => Some(1.0 / COPY_CATEGORIES as f64),
            TaskKind::Order => Some(1.0 / ORDER_CLASSES as f64),
        }
    }

    /// A stream of batches of `batch` sequences from `seed` ([`MemoryStream`]).
    pub fn batches(&self, seed: u64, batch: usize) -> MemoryStream {
        MemoryStream {
            task: *self,
            batch: batch.max(1),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The readout rule: the last step (adding, order) or the last 10 steps (copy).
    pub fn readout(&self) -> Readout {
        match self.kind {
            TaskKind::Copy => Readout::LastK(COPY_SYMBOLS),
            TaskKind::Adding | TaskKind::Order => Readout::Last,
        }
    }

    /// When a run counts as having solved its task, judged on the held-out set:
    ///
    /// - adding: mean squared error below 0.01 — the stopping rule of Hochreiter &
    ///   Schmidhuber (1997, §5 experiment 4: "average training error below 0.01"), here on
    ///   held-out sequences;
    /// - copy: cross-entropy over the recalled symbols below a tenth of the memoryless
    ///   baseline (`0.1 · ln 8 ≈ 0.208` nats per symbol; Arjovsky, Shah & Bengio 2016 report
    ///   curves, not a threshold, so the fraction is this lab's);
    /// - order: accuracy of at least 0.95 (the 1997 paper's rule — every one of the last 2000
    ///   training sequences right and a test error below 0.1 — is stricter; this lab's
    ///   threshold).
    pub fn solved_when(&self) -> Criterion {
        match self.kind {
            TaskKind::Adding => Criterion::LossBelow(0.01),
            TaskKind::Copy => Criterion::LossBelow(0.1 * self.baseline_loss()),
            TaskKind::Order => Criterion::AccuracyAtLeast(0.95),
        }
    }

    /// Whether held-out sums meet the task's criterion ([`MemoryTask::solved_when`]).
    pub fn solved(&self, heldout: &ReadoutSums) -> bool {
        self.solved_when().met(heldout)
    }

    /// The criterion of [`MemoryTask::solved_when`] in words, with its source (the native
    /// runner's output; the page words it in its language).
    pub fn criterion_text(&self) -> &'static str {
        match self.kind {
            TaskKind::Adding => "held-out MSE < 0.01 (Hochreiter & Schmidhuber 1997, exp. 4)",
            TaskKind::Copy => "held-out recall cross-entropy < 0.1 × ln 8",
            TaskKind::Order => "held-out accuracy ≥ 0.95",
        }
    }

    /// The fixed held-out set: [`HELDOUT_SEQUENCES`] sequences from [`HELDOUT_SEED`], the
    /// same for every cell and seed, as one batch.
    pub fn heldout_batch(&self) -> SeqBatch {
        self.batches(HELDOUT_SEED, HELDOUT_SEQUENCES).next_batch()
    }
}

impl Task for MemoryTask {
    fn length(&self) -> Option<usize> {
        Some(MemoryTask::length(self))
    }

    fn key(&self) -> &'static str {
        self.kind.as_str()
    }

    fn settings(&self) -> String {
        format!("{}:length={}", self.kind.as_str(), self.length)
    }

    fn shape(&self) -> TaskShape {
        TaskShape {
            input: match self.kind {
                TaskKind::Adding => Input::Dense { features: 2 },
                TaskKind::Copy | TaskKind::Order => Input::OneHot {
                    vocab: self.input_size(),
                },
            },
            outputs: self.outputs(),
            readout: self.readout(),
            loss: if self.is_classification() {
                Loss::CrossEntropy
            } else {
                Loss::Mse
            },
            head: Head::Last,
            max_seq_len: self.seq_len(),
            conditions: None,
        }
    }

    fn stream(&self, seed: u32, batch_size: usize) -> Box<dyn BatchStream> {
        Box::new(self.batches(u64::from(seed), batch_size))
    }

    /// The held-out set in slices of [`HELDOUT_SLICE`] sequences.
    fn heldout(&self, _batch_size: usize) -> Vec<SeqBatch> {
        self.heldout_batch().slices(HELDOUT_SLICE)
    }

    fn baseline(&self) -> Baseline {
        Baseline {
            loss: self.baseline_loss(),
            accuracy: self.baseline_accuracy(),
            rule: match self.kind {
                TaskKind::Adding => BaselineRule::Constant { answer: 1.0 },
                TaskKind::Copy => BaselineRule::Uniform {
                    choices: COPY_CATEGORIES,
                },
                TaskKind::Order => BaselineRule::Uniform {
                    choices: ORDER_CLASSES,
                },
            },
        }
    }

    fn criterion(&self) -> Option<Criterion> {
        Some(self.solved_when())
    }
}

/// The copy task's loss as Arjovsky, Shah & Bengio (2016) count it — averaged over all T + 20
/// positions — from the loss over the 10 recalled positions, for a model that is sure of the
/// blanks: `recalled · 10 / (T + 20)`. With `recalled = ln 8` this is their baseline
/// `10 · ln 8 / (T + 20)` (0.173 at T = 100).
pub fn paper_copy_loss(recalled: f64, blanks: usize) -> f64 {
    recalled * COPY_SYMBOLS as f64 / (blanks + 2 * COPY_SYMBOLS) as f64
}

/// An endless seeded source of batches of one task: the same seed gives the same batches.
#[derive(Clone, Debug)]
pub struct MemoryStream {
    task: MemoryTask,
    batch: usize,
    rng: ChaCha8Rng,
}

impl MemoryStream {
    /// The task.
    pub fn task(&self) -> &MemoryTask {
        &self.task
    }

    /// The next batch, drawn sequence by sequence (the order of the draws is given in each
    /// generator's comments).
    pub fn next_batch(&mut self) -> SeqBatch {
        let batch = self.batch;
        match self.task.kind {
            TaskKind::Adding => self.adding(batch),
            TaskKind::Copy => self.copy(batch),
            TaskKind::Order => self.order(batch),
        }
    }

    /// Per sequence: T values, then the first marker in `0..T/2`, then the second in `T/2..T`.
    fn adding(&mut self, batch: usize) -> SeqBatch {
        let t_len = self.task.length;
        let half = t_len / 2;
        let value = Uniform::new(0.0f32, 1.0).expect("a finite range");
        let mut x = vec![0.0f32; t_len * batch * 2];
        let mut sums = Vec::with_capacity(batch);
        for b in 0..batch {
            for t in 0..t_len {
                x[(t * batch + b) * 2] = value.sample(&mut self.rng);
            }
            let first = self.rng.random_range(0..half);
            let second = self.rng.random_range(half..t_len);
            let mut sum = 0.0f32;
            for t in [first, second] {
                x[(t * batch + b) * 2 + 1] = 1.0;
                sum += x[(t * batch + b) * 2];
            }
            sums.push(sum);
        }
        SeqBatch {
            batch,
            seq_len: t_len,
            lengths: vec![t_len as u32; batch],
            input: SeqData::Dense(x),
            targets: Targets::Values(sums),
            conditions: Vec::new(),
        }
    }

    /// Per sequence: the 10 symbols, in order.
    fn copy(&mut self, batch: usize) -> SeqBatch {
        let blanks = self.task.length;
        let t_len = self.task.seq_len();
        let symbol = Uniform::new_inclusive(1u32, COPY_CATEGORIES as u32).expect("1 ≤ 8");
        let mut tokens = vec![0u32; t_len * batch];
        let mut targets = vec![0u32; COPY_SYMBOLS * batch];
        for b in 0..batch {
            for i in 0..COPY_SYMBOLS {
                let s = symbol.sample(&mut self.rng);
                tokens[i * batch + b] = s;
                targets[i * batch + b] = s;
            }
            tokens[(COPY_SYMBOLS + blanks - 1) * batch + b] = COPY_DELIMITER;
        }
        SeqBatch {
            batch,
            seq_len: t_len,
            lengths: vec![t_len as u32; batch],
            input: SeqData::Tokens(tokens),
            targets: Targets::Classes(targets),
            conditions: Vec::new(),
        }
    }

    /// Per sequence: its length, the distractors of positions 1..length−1, t₁, t₂, then the
    /// two relevant symbols (X or Y, each with probability ½).
    fn order(&mut self, batch: usize) -> SeqBatch {
        let min = self.task.length;
        let t_max = self.task.seq_len();
        let distractor = Uniform::new(0u32, 4).expect("0 < 4");
        let mut tokens = vec![0u32; t_max * batch];
        let mut lengths = Vec::with_capacity(batch);
        let mut classes = Vec::with_capacity(batch);
        for b in 0..batch {
            let len = self.rng.random_range(min..=min + ORDER_SPREAD);
            tokens[b] = ORDER_START;
            for t in 1..len - 1 {
                tokens[t * batch + b] = distractor.sample(&mut self.rng);
            }
            tokens[(len - 1) * batch + b] = ORDER_END;
            let t1 = self.rng.random_range(ORDER_FIRST);
            let t2 = self.rng.random_range(ORDER_SECOND);
            let first_y = self.rng.random_bool(0.5);
            let second_y = self.rng.random_bool(0.5);
            tokens[t1 * batch + b] = if first_y { ORDER_Y } else { ORDER_X };
            tokens[t2 * batch + b] = if second_y { ORDER_Y } else { ORDER_X };
            lengths.push(len as u32);
            classes.push(2 * u32::from(first_y) + u32::from(second_y));
        }
        SeqBatch {
            batch,
            seq_len: t_max,
            lengths,
            input: SeqData::Tokens(tokens),
            targets: Targets::Classes(classes),
            conditions: Vec::new(),
        }
    }
}

impl BatchStream for MemoryStream {
    fn next_batch(&mut self) -> SeqBatch {
        MemoryStream::next_batch(self)
    }

    /// How far the stream has been read, in 32-bit words of its ChaCha8 generator.
    fn position(&self) -> u128 {
        self.rng.get_word_pos()
    }

    fn seek(&mut self, position: u128) {
        self.rng.set_word_pos(position);
    }
}

/// Sequences in the held-out set.
pub const HELDOUT_SEQUENCES: usize = 1024;

/// Sequences per held-out evaluation slice.
pub const HELDOUT_SLICE: usize = 256;

/// Seed of the held-out stream: above `u32::MAX`, so no training stream (seeded by a `u32`)
/// shares it.
pub const HELDOUT_SEED: u64 = 0x004d_454d_4f52_5900;

impl LabTask {
    /// The long-memory task of this choice; `None` for delay-copy and names generation.
    pub fn memory(self) -> Option<TaskKind> {
        match self {
            LabTask::Delay | LabTask::Generate => None,
            LabTask::Adding => Some(TaskKind::Adding),
            LabTask::Copy => Some(TaskKind::Copy),
            LabTask::Order => Some(TaskKind::Order),
        }
    }
}
