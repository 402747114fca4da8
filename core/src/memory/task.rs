//! The generators of the three classic long-memory tasks, seeded with ChaCha8 (a seed gives
//! the same sequences on every platform, wasm included), and their memoryless baselines.
//!
//! Positions are counted from 0; every batch is time-major, as the recurrent module reads it.
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

use crate::math::recurrent::SeqData;
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

/// A length T the task cannot take (below [`TaskKind::min_length`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

/// The targets of a batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Targets {
    /// `[B]` real targets (adding: the sum of the two marked values).
    Values(Vec<f32>),
    /// `[R·B]` class indices, readout-major: entry `r·B + b` is readout r of sequence b (copy:
    /// R = 10 recalled symbols; order: R = 1).
    Classes(Vec<u32>),
}

/// A batch of sequences, time-major.
#[derive(Clone, Debug)]
pub struct MemoryBatch {
    /// Sequences B.
    pub batch: usize,
    /// Steps T_max of the batch (the longest sequence; every sequence for adding and copy).
    pub seq_len: usize,
    /// `[B]` steps of each sequence, in `1..=seq_len`.
    pub lengths: Vec<u32>,
    /// Adding: `SeqData::Dense` `[T, B, 2]` (value, marker); copy and order:
    /// `SeqData::Tokens` `[T, B]` (one-hot over the task's vocabulary; 0 after a sequence's end).
    pub input: SeqData,
    /// What the model must output.
    pub targets: Targets,
    /// Readouts per sequence R: copy 10, adding and order 1.
    pub readouts: usize,
}

impl MemoryBatch {
    /// The step read by readout `r` of sequence `b`: `length_b − R + r` (the last step for
    /// R = 1, the last 10 steps for copy).
    pub fn readout_step(&self, r: usize, b: usize) -> usize {
        self.lengths[b] as usize - self.readouts + r
    }

    /// Sequences `range` as a batch of their own (held-out evaluation in slices).
    pub fn rows(&self, range: std::ops::Range<usize>) -> MemoryBatch {
        let (b, t_len) = (self.batch, self.seq_len);
        let input = match &self.input {
            SeqData::Dense(x) => {
                let mut out = Vec::with_capacity(t_len * range.len() * 2);
                for t in 0..t_len {
                    out.extend_from_slice(&x[(t * b + range.start) * 2..(t * b + range.end) * 2]);
                }
                SeqData::Dense(out)
            }
            SeqData::Tokens(x) => {
                let mut out = Vec::with_capacity(t_len * range.len());
                for t in 0..t_len {
                    out.extend_from_slice(&x[t * b..][range.clone()]);
                }
                SeqData::Tokens(out)
            }
        };
        let targets = match &self.targets {
            Targets::Values(v) => Targets::Values(v[range.clone()].to_vec()),
            Targets::Classes(c) => Targets::Classes(
                (0..self.readouts)
                    .flat_map(|r| c[r * b..][range.clone()].iter().copied())
                    .collect(),
            ),
        };
        MemoryBatch {
            batch: range.len(),
            seq_len: t_len,
            lengths: self.lengths[range].to_vec(),
            input,
            targets,
            readouts: self.readouts,
        }
    }
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

    /// A stream of batches from `seed` ([`MemoryStream`]).
    pub fn stream(&self, seed: u64) -> MemoryStream {
        MemoryStream {
            task: *self,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

/// The copy task's loss as Arjovsky, Shah & Bengio (2016) count it — averaged over all T + 20
/// positions — from the loss over the 10 recalled positions, for a model that is sure of the
/// blanks: `recalled · 10 / (T + 20)`. With `recalled = ln 8` this is their baseline
/// `10 · ln 8 / (T + 20)` (0.173 at T = 100).
pub fn paper_copy_loss(recalled: f64, blanks: usize) -> f64 {
    recalled * COPY_SYMBOLS as f64 / (blanks + 2 * COPY_SYMBOLS) as f64
}

/// An endless seeded source of [`MemoryBatch`]es: the same seed gives the same batches.
#[derive(Clone, Debug)]
pub struct MemoryStream {
    task: MemoryTask,
    rng: ChaCha8Rng,
}

impl MemoryStream {
    /// The task.
    pub fn task(&self) -> &MemoryTask {
        &self.task
    }

    /// The next `batch` sequences, drawn sequence by sequence (the order of the draws is given
    /// in each generator's comments).
    ///
    /// # Panics
    /// If `batch` is 0.
    pub fn next_batch(&mut self, batch: usize) -> MemoryBatch {
        assert!(batch > 0, "next_batch: a batch of no sequence");
        match self.task.kind {
            TaskKind::Adding => self.adding(batch),
            TaskKind::Copy => self.copy(batch),
            TaskKind::Order => self.order(batch),
        }
    }

    /// Per sequence: T values, then the first marker in `0..T/2`, then the second in `T/2..T`.
    fn adding(&mut self, batch: usize) -> MemoryBatch {
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
        MemoryBatch {
            batch,
            seq_len: t_len,
            lengths: vec![t_len as u32; batch],
            input: SeqData::Dense(x),
            targets: Targets::Values(sums),
            readouts: 1,
        }
    }

    /// Per sequence: the 10 symbols, in order.
    fn copy(&mut self, batch: usize) -> MemoryBatch {
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
        MemoryBatch {
            batch,
            seq_len: t_len,
            lengths: vec![t_len as u32; batch],
            input: SeqData::Tokens(tokens),
            targets: Targets::Classes(targets),
            readouts: COPY_SYMBOLS,
        }
    }

    /// Per sequence: its length, the distractors of positions 1..length−1, t₁, t₂, then the
    /// two relevant symbols (X or Y, each with probability ½).
    fn order(&mut self, batch: usize) -> MemoryBatch {
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
        MemoryBatch {
            batch,
            seq_len: t_max,
            lengths,
            input: SeqData::Tokens(tokens),
            targets: Targets::Classes(classes),
            readouts: 1,
        }
    }
}

/// Sequences in the held-out set.
pub const HELDOUT_SEQUENCES: usize = 1024;

/// Seed of the held-out stream: above `u32::MAX`, so no training stream (seeded by a `u32`)
/// shares it.
pub const HELDOUT_SEED: u64 = 0x004d_454d_4f52_5900;

/// The fixed held-out set of a task: [`HELDOUT_SEQUENCES`] sequences from [`HELDOUT_SEED`], the
/// same for every cell and seed.
pub fn heldout_set(task: &MemoryTask) -> MemoryBatch {
    task.stream(HELDOUT_SEED).next_batch(HELDOUT_SEQUENCES)
}
