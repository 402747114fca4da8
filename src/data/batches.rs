//! Mini-batches of names as [`ClassifierBatch`]es: a seeded shuffle per epoch for training, a
//! fixed order for evaluation.
//!
//! Each batch is padded to its own longest name: `tokens` is `[batch, seq_len]` with
//! `seq_len = max(lengths)` and 0 in the padded positions (the model never reads them, it takes
//! each name's output at `lengths[b] - 1`).

use super::names::NamesDataset;
use crate::math::classifier::ClassifierBatch;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// ChaCha stream of epoch `e`'s shuffle is `EPOCH_STREAM_BASE + e` (the split uses
/// [`super::split::SPLIT_STREAM`]; stream 0 is left to weight initialisation).
pub const EPOCH_STREAM_BASE: u64 = 1 << 32;

/// The order in which epoch `epoch` visits `train`: a permutation of `train` drawn with
/// `ChaCha8Rng::seed_from_u64(seed)` on stream `EPOCH_STREAM_BASE + epoch`. The same
/// `(seed, epoch)` always gives the same order.
pub fn epoch_order(train: &[usize], seed: u64, epoch: u64) -> Vec<usize> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(EPOCH_STREAM_BASE.wrapping_add(epoch));
    let mut order = train.to_vec();
    order.shuffle(&mut rng);
    order
}

/// Builds one batch from sample indices (in the given order).
///
/// `indices` must be non-empty and index into `dataset.samples()`; out-of-range indices are
/// skipped. Returns a batch with `batch = indices.len()` (minus skipped ones),
/// `seq_len = max(lengths)`, `tokens [batch, seq_len]` padded with 0.
pub fn make_batch(dataset: &NamesDataset, indices: &[usize]) -> ClassifierBatch {
    let samples: Vec<_> = indices
        .iter()
        .filter_map(|&i| dataset.samples().get(i))
        .collect();
    let seq_len = samples.iter().map(|s| s.tokens.len()).max().unwrap_or(0);
    let mut tokens = vec![0u32; samples.len() * seq_len];
    for (b, s) in samples.iter().enumerate() {
        tokens[b * seq_len..b * seq_len + s.tokens.len()].copy_from_slice(&s.tokens);
    }
    ClassifierBatch {
        batch: samples.len(),
        seq_len,
        tokens,
        lengths: samples.iter().map(|s| s.tokens.len() as u32).collect(),
        labels: samples.iter().map(|s| s.label).collect(),
    }
}

/// An iterator of [`ClassifierBatch`]es over a fixed list of sample indices, `batch_size` at a
/// time; the last batch keeps the remainder (it may be smaller).
#[derive(Clone, Debug)]
pub struct Batches<'a> {
    dataset: &'a NamesDataset,
    order: Vec<usize>,
    batch_size: usize,
    next: usize,
}

impl<'a> Batches<'a> {
    /// Batches over `order` as given. A `batch_size` of 0 is treated as 1.
    pub fn new(dataset: &'a NamesDataset, order: Vec<usize>, batch_size: usize) -> Self {
        Batches {
            dataset,
            order,
            batch_size: batch_size.max(1),
            next: 0,
        }
    }

    /// Training batches of epoch `epoch` (counted from 0): `train` shuffled by
    /// [`epoch_order`]`(train, seed, epoch)`. A `batch_size` of 0 is treated as 1.
    pub fn train_epoch(
        dataset: &'a NamesDataset,
        train: &[usize],
        batch_size: usize,
        seed: u64,
        epoch: u64,
    ) -> Self {
        Self::new(dataset, epoch_order(train, seed, epoch), batch_size)
    }

    /// Evaluation batches over `val` in the given (fixed) order. A `batch_size` of 0 is
    /// treated as 1.
    pub fn eval(dataset: &'a NamesDataset, val: &[usize], batch_size: usize) -> Self {
        Self::new(dataset, val.to_vec(), batch_size)
    }

    /// Total number of batches, `ceil(len / batch_size)` (including ones already yielded).
    pub fn num_batches(&self) -> usize {
        self.order.len().div_ceil(self.batch_size)
    }

    /// The sample indices in visiting order.
    pub fn order(&self) -> &[usize] {
        &self.order
    }
}

impl Iterator for Batches<'_> {
    type Item = ClassifierBatch;

    fn next(&mut self) -> Option<ClassifierBatch> {
        if self.next >= self.order.len() {
            return None;
        }
        let end = (self.next + self.batch_size).min(self.order.len());
        let batch = make_batch(self.dataset, &self.order[self.next..end]);
        self.next = end;
        Some(batch)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.order.len() - self.next).div_ceil(self.batch_size);
        (left, Some(left))
    }
}

impl ExactSizeIterator for Batches<'_> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pads_with_zero_to_longest_in_batch() {
        let ds = NamesDataset::from_class_files([("A", "ab\nCde\n"), ("B", "f\n")]).unwrap();
        let batch = make_batch(&ds, &[2, 1, 0]);
        assert_eq!(batch.batch, 3);
        assert_eq!(batch.seq_len, 3);
        assert_eq!(batch.lengths, vec![1, 3, 2]);
        assert_eq!(batch.labels, vec![1, 0, 0]);
        assert_eq!(batch.tokens, vec![5, 0, 0, 28, 3, 4, 0, 1, 0]);
    }

    #[test]
    fn last_partial_batch_is_kept() {
        let ds = NamesDataset::from_class_files([("A", "a\nb\nc\nd\ne\n")]).unwrap();
        let batches: Vec<_> = Batches::eval(&ds, &[0, 1, 2, 3, 4], 2).collect();
        assert_eq!(
            batches.iter().map(|b| b.batch).collect::<Vec<_>>(),
            vec![2, 2, 1]
        );
        assert_eq!(batches[2].tokens, vec![4]);
        assert_eq!(Batches::eval(&ds, &[0, 1, 2, 3, 4], 2).len(), 3);
        assert_eq!(Batches::eval(&ds, &[0, 1], 0).num_batches(), 2);
    }

    #[test]
    fn epoch_order_is_a_seeded_permutation() {
        let train: Vec<usize> = (0..200).collect();
        let a = epoch_order(&train, 7, 0);
        assert_eq!(a, epoch_order(&train, 7, 0));
        assert_ne!(a, epoch_order(&train, 7, 1));
        assert_ne!(a, epoch_order(&train, 8, 0));
        assert_ne!(a, train);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, train);
    }
}
