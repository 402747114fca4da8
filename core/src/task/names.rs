//! Names classification as a [`Task`]: a name's letters (one-hot over the 57-symbol
//! vocabulary) → its language, read at each name's last real letter (packed lengths) or, with
//! the course's `head=padded`, at position 10 of the name padded or truncated to 10 symbols.
//!
//! The training stream is the seeded epochs of the split's training names
//! ([`Batches::train_epoch`]: length-bucketed batches, the batch order of epoch `e` from
//! `(seed, e)`), one epoch after another; its position is the number of batches drawn. The
//! held-out set is the split's validation names in batches of [`EVAL_BATCH`]; its
//! evaluations count the confusion matrix. The baseline is the majority class of the
//! validation names; the task names no "solved" point. A non-finite loss stops the run (the
//! page keeps the weights from before it).

use std::sync::Arc;

use super::{Baseline, BaselineRule, BatchStream, Criterion, Input, Task, TaskShape};
use crate::data::batches::{make_batch, Batches};
use crate::data::names::NamesDataset;
use crate::data::normalize::VOCAB_SIZE;
use crate::data::split::{Split, VAL_FRACTION};
use crate::math::model::{Head, Loss, Readout, SeqBatch};

/// Names per validation batch.
pub const EVAL_BATCH: usize = 256;

/// Validation names (the first of the split) whose gradient flow is reported.
pub const GRAD_FLOW_NAMES: usize = 32;

/// The names data set with its seeded split, read as the names page's `head` says.
#[derive(Clone, Debug)]
pub struct NamesTask {
    data: Arc<NamesDataset>,
    split: Arc<Split>,
    head: Head,
    split_seed: u64,
}

impl NamesTask {
    /// The task on `data` split with `split_seed` ([`Split::new`] at [`VAL_FRACTION`]).
    pub fn new(data: Arc<NamesDataset>, split_seed: u64, head: Head) -> NamesTask {
        let split = Arc::new(Split::new(&data, split_seed, VAL_FRACTION));
        NamesTask {
            data,
            split,
            head,
            split_seed,
        }
    }

    /// The data set.
    pub fn data(&self) -> &NamesDataset {
        &self.data
    }

    /// The split.
    pub fn split(&self) -> &Split {
        &self.split
    }

    /// Training batches per epoch for `batch_size` names per batch
    /// (`⌈training names / batch_size⌉`; 0 without training names).
    pub fn steps_per_epoch(&self, batch_size: usize) -> u64 {
        self.split.train.len().div_ceil(batch_size.max(1)) as u64
    }
}

impl Task for NamesTask {
    fn key(&self) -> &'static str {
        "names"
    }

    fn settings(&self) -> String {
        format!(
            "names:head={}:split_seed={}:samples={}:classes={}",
            self.head.as_str(),
            self.split_seed,
            self.data.samples().len(),
            self.data.num_classes()
        )
    }

    fn shape(&self) -> TaskShape {
        TaskShape {
            input: Input::OneHot { vocab: VOCAB_SIZE },
            outputs: self.data.num_classes(),
            readout: Readout::Last,
            loss: Loss::CrossEntropy,
            head: self.head,
            max_seq_len: self
                .data
                .samples()
                .iter()
                .map(|s| s.tokens.len())
                .max()
                .unwrap_or(1),
            conditions: None,
        }
    }

    fn stream(&self, seed: u32, batch_size: usize) -> Box<dyn BatchStream> {
        let data = self.data.clone();
        Box::new(EpochStream::new(
            self.data.clone(),
            self.split.clone(),
            batch_size,
            u64::from(seed),
            false,
            move |indices: &[usize]| make_batch(&data, indices),
        ))
    }

    fn heldout(&self, _batch_size: usize) -> Vec<SeqBatch> {
        Batches::eval(&self.data, &self.split.val, EVAL_BATCH).collect()
    }

    /// The largest class's share of the validation names (always answering it).
    fn baseline(&self) -> Baseline {
        let counts = self.split.val_class_counts(&self.data);
        let total = counts.iter().sum::<usize>().max(1);
        let share = *counts.iter().max().unwrap_or(&0) as f64 / total as f64;
        let classes = self.data.num_classes().max(1) as f64;
        Baseline {
            // The loss of a uniform guess over the classes (the majority rule has no finite
            // cross-entropy).
            loss: classes.ln(),
            accuracy: Some(share),
            rule: BaselineRule::Majority { share },
        }
    }

    fn criterion(&self) -> Option<Criterion> {
        None
    }

    fn grad_flow_batch(&self) -> Option<SeqBatch> {
        let names = &self.split.val[..self.split.val.len().min(GRAD_FLOW_NAMES)];
        (!names.is_empty()).then(|| make_batch(&self.data, names))
    }

    fn confusion(&self) -> bool {
        true
    }

    fn stops_on_bad_loss(&self) -> bool {
        true
    }

    fn eval_at_start(&self) -> bool {
        false
    }
}

/// The seeded epochs of a split's training names in length-bucketed batches, one after
/// another, each batch built by `make` from its sample indices (the classifier's batches, or
/// the generator's teacher-forced ones). The position is the number of batches drawn.
pub(super) struct EpochStream<F: Fn(&[usize]) -> SeqBatch> {
    data: Arc<NamesDataset>,
    split: Arc<Split>,
    batch_size: usize,
    seed: u64,
    /// Whether every batch holds names of one length ([`Batches::train_epoch_by_length`])
    /// rather than [`Batches::train_epoch`]'s.
    by_length: bool,
    make: F,
    /// The epoch whose batches are loaded (from 0).
    epoch: u64,
    /// That epoch's batches, as sample indices.
    batches: Vec<Vec<usize>>,
    /// The next batch of the epoch.
    next: usize,
    /// Batches drawn since the start.
    drawn: u128,
}

impl<F: Fn(&[usize]) -> SeqBatch> EpochStream<F> {
    /// The stream of `seed` at its start.
    pub(super) fn new(
        data: Arc<NamesDataset>,
        split: Arc<Split>,
        batch_size: usize,
        seed: u64,
        by_length: bool,
        make: F,
    ) -> Self {
        let mut stream = EpochStream {
            data,
            split,
            batch_size: batch_size.max(1),
            seed,
            by_length,
            make,
            epoch: 0,
            batches: Vec::new(),
            next: 0,
            drawn: 0,
        };
        stream.load_epoch(0);
        stream
    }

    fn load_epoch(&mut self, epoch: u64) {
        self.epoch = epoch;
        let form = if self.by_length {
            Batches::train_epoch_by_length
        } else {
            Batches::train_epoch
        };
        self.batches = form(
            &self.data,
            &self.split.train,
            self.batch_size,
            self.seed,
            epoch,
        )
        .members();
        self.next = 0;
    }
}

impl<F: Fn(&[usize]) -> SeqBatch> BatchStream for EpochStream<F> {
    fn next_batch(&mut self) -> SeqBatch {
        if self.next >= self.batches.len() {
            self.load_epoch(self.epoch + 1);
        }
        let batch = (self.make)(&self.batches[self.next]);
        self.next += 1;
        self.drawn += 1;
        batch
    }

    /// Batches drawn since the start.
    fn position(&self) -> u128 {
        self.drawn
    }

    fn seek(&mut self, position: u128) {
        let per_epoch = self.batches.len().max(1) as u128;
        let epoch = (position / per_epoch) as u64;
        if epoch != self.epoch || self.batches.is_empty() {
            self.load_epoch(epoch);
        }
        self.next = (position % per_epoch) as usize;
        self.drawn = position;
    }
}

/// Metrics of one finished epoch.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct EpochReport {
    /// 1-based epoch number.
    pub epoch: u32,
    /// Mean training loss over the epoch's steps.
    pub train_loss: f32,
    /// Fraction of the epoch's training names classified correctly, each counted in its step
    /// before that step's update (the accuracy a training loop counts while it learns, not a
    /// validation figure); an epoch resumed part-way goes on from its checkpoint's counts. NaN
    /// for an epoch without a step.
    pub train_acc: f32,
    /// Mean cross-entropy over the validation split.
    pub val_loss: f32,
    /// Fraction of validation names classified correctly (0–1).
    pub val_acc: f32,
    /// Seconds of training (not validation) in this epoch.
    pub sec: f64,
}

/// The validation confusion matrix of one epoch.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ValReport {
    /// 1-based epoch number (the `Epoch` event it follows).
    pub epoch: u32,
    /// Number of classes C.
    pub num_classes: usize,
    /// `[C, C]` row-major counts, row = true class, column = predicted class (arg-max, first
    /// maximum on ties); sums to the validation size.
    pub confusion: Vec<u32>,
}

impl ValReport {
    /// An all-zero `[C, C]` matrix.
    pub fn new(epoch: u32, num_classes: usize) -> Self {
        ValReport {
            epoch,
            num_classes,
            confusion: vec![0; num_classes * num_classes],
        }
    }

    /// Counts one name of class `label` predicted as `predicted` (ignored when either is ≥ C).
    pub fn add(&mut self, label: usize, predicted: usize) {
        if label < self.num_classes && predicted < self.num_classes {
            self.confusion[label * self.num_classes + predicted] += 1;
        }
    }

    /// Validation names counted (sum of the matrix).
    pub fn total(&self) -> usize {
        self.confusion.iter().map(|&n| n as usize).sum()
    }

    /// Fraction of names on the diagonal (0–1; 0 for an empty matrix).
    pub fn accuracy(&self) -> f32 {
        let c = self.num_classes;
        let correct: usize = (0..c).map(|i| self.confusion[i * c + i] as usize).sum();
        correct as f32 / self.total().max(1) as f32
    }

    /// `[C]` names of each true class (row sums).
    pub fn class_counts(&self) -> Vec<usize> {
        self.confusion
            .chunks(self.num_classes.max(1))
            .map(|row| row.iter().map(|&n| n as usize).sum())
            .collect()
    }

    /// Per class: correct / validation names of that class (None when the class has none).
    pub fn per_class_accuracy(&self) -> Vec<Option<f32>> {
        let c = self.num_classes;
        self.class_counts()
            .iter()
            .enumerate()
            .map(|(i, &n)| (n > 0).then(|| self.confusion[i * c + i] as f32 / n as f32))
            .collect()
    }

    /// Fraction of validation names in the largest class (the majority-class baseline, 0–1).
    pub fn majority_baseline(&self) -> f32 {
        let max = self.class_counts().into_iter().max().unwrap_or(0);
        max as f32 / self.total().max(1) as f32
    }
}
