//! Mini-batches of names as [`SeqBatch`]es: length-bucketed seeded batches for training, a
//! fixed order for evaluation.
//!
//! Each batch is padded to its own longest name: the tokens are `[seq_len, batch]` (time-major)
//! with `seq_len = max(lengths)` and 0 in the padded positions (the model never reads them, it
//! takes each name's output at `lengths[b] - 1`, and the recurrence skips missing steps). A training
//! step costs in proportion to `batch · seq_len` step-rows, so training batches are formed from
//! names of equal length ([`Batches::train_epoch`]): on the names data, random batches of 64
//! leave about 42 % of the step-rows padding, length-bucketed ones under 1 %
//! ([`Batches::padded_share`]).

use std::collections::BTreeMap;

use super::names::NamesDataset;
use crate::math::model::SeqBatch;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// ChaCha stream of epoch `e`'s shuffle is `EPOCH_STREAM_BASE + e` (the split uses
/// [`super::split::SPLIT_STREAM`]; stream 0 is left to weight initialisation).
pub const EPOCH_STREAM_BASE: u64 = 1 << 32;

/// The generator of epoch `epoch`'s shuffles: `ChaCha8Rng::seed_from_u64(seed)` on stream
/// `EPOCH_STREAM_BASE + epoch`.
fn epoch_rng(seed: u64, epoch: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(EPOCH_STREAM_BASE.wrapping_add(epoch));
    rng
}

/// A random permutation of `train` drawn from epoch `epoch`'s generator (unbucketed: the
/// reference for [`Batches::padded_share`]). The same `(seed, epoch)` always gives the same order.
pub fn epoch_order(train: &[usize], seed: u64, epoch: u64) -> Vec<usize> {
    let mut order = train.to_vec();
    order.shuffle(&mut epoch_rng(seed, epoch));
    order
}

/// Builds one batch from sample indices (in the given order).
///
/// `indices` must be non-empty and index into `dataset.samples()`; out-of-range indices are
/// skipped. Returns a batch with `batch = indices.len()` (minus skipped ones),
/// `seq_len = max(lengths)`, tokens `[seq_len, batch]` padded with 0, one class per name.
pub fn make_batch(dataset: &NamesDataset, indices: &[usize]) -> SeqBatch {
    let samples: Vec<_> = indices
        .iter()
        .filter_map(|&i| dataset.samples().get(i))
        .collect();
    let (batch, seq_len) = (
        samples.len(),
        samples.iter().map(|s| s.tokens.len()).max().unwrap_or(0),
    );
    let mut tokens = vec![0u32; batch * seq_len];
    for (b, s) in samples.iter().enumerate() {
        for (t, &tok) in s.tokens.iter().enumerate() {
            tokens[t * batch + b] = tok;
        }
    }
    let mut out = SeqBatch::of_tokens(
        batch,
        seq_len,
        tokens,
        samples.iter().map(|s| s.label).collect(),
    );
    out.lengths = samples.iter().map(|s| s.tokens.len() as u32).collect();
    out
}

/// An iterator of [`SeqBatch`]es over a list of sample indices cut into consecutive batches
/// (see the constructors for how).
#[derive(Clone, Debug)]
pub struct Batches<'a> {
    dataset: &'a NamesDataset,
    order: Vec<usize>,
    /// End (exclusive) in `order` of each batch, increasing; the last is `order.len()`.
    ends: Vec<usize>,
    next: usize,
}

impl<'a> Batches<'a> {
    /// Batches over `order` as given, `batch_size` at a time; the last batch keeps the
    /// remainder (it may be smaller). A `batch_size` of 0 is treated as 1.
    pub fn new(dataset: &'a NamesDataset, order: Vec<usize>, batch_size: usize) -> Self {
        let bs = batch_size.max(1);
        let ends = (1..=order.len().div_ceil(bs))
            .map(|i| (i * bs).min(order.len()))
            .collect();
        Batches {
            dataset,
            order,
            ends,
            next: 0,
        }
    }

    /// Training batches of epoch `epoch` (counted from 0), formed from names of equal length:
    ///
    /// 1. `train` is grouped into buckets by name length; each bucket is shuffled with epoch
    ///    `epoch`'s generator (`ChaCha8Rng::seed_from_u64(seed)` on stream
    ///    `EPOCH_STREAM_BASE + epoch`), shortest bucket first;
    /// 2. each bucket gives `⌊len / batch_size⌋` full batches; the remainders of all buckets,
    ///    joined from short to long, are cut into batches of `batch_size` (so these span
    ///    neighbouring lengths, and only the very last one may be smaller);
    /// 3. the order of the batches is shuffled with the same generator (no short-to-long
    ///    curriculum).
    ///
    /// Every index of `train` is visited exactly once, in `ceil(len / batch_size)` batches,
    /// the same as random batches of that size. The same `(train, seed, epoch)` always gives
    /// the same batches. A `batch_size` of 0 is treated as 1; indices outside the dataset go
    /// to the bucket of length 0 (and are skipped by [`make_batch`]).
    pub fn train_epoch(
        dataset: &'a NamesDataset,
        train: &[usize],
        batch_size: usize,
        seed: u64,
        epoch: u64,
    ) -> Self {
        Self::bucketed(dataset, train, batch_size, seed, epoch, true)
    }

    /// Training batches of epoch `epoch` as [`Batches::train_epoch`] forms them, except that
    /// each bucket's remainder is a batch of its own: every batch holds names of one length
    /// (the names generator's teacher-forced batches, which must hold no padding). The batches
    /// per epoch are `Σ ⌈bucket / batch_size⌉` over the length buckets, the same every epoch.
    pub fn train_epoch_by_length(
        dataset: &'a NamesDataset,
        train: &[usize],
        batch_size: usize,
        seed: u64,
        epoch: u64,
    ) -> Self {
        Self::bucketed(dataset, train, batch_size, seed, epoch, false)
    }

    /// Length buckets shuffled with epoch `epoch`'s generator, cut into batches; the buckets'
    /// remainders joined into batches across lengths (`join_rest`) or kept apart.
    fn bucketed(
        dataset: &'a NamesDataset,
        train: &[usize],
        batch_size: usize,
        seed: u64,
        epoch: u64,
        join_rest: bool,
    ) -> Self {
        let bs = batch_size.max(1);
        let mut rng = epoch_rng(seed, epoch);
        let mut buckets: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for &i in train {
            let len = dataset.samples().get(i).map_or(0, |s| s.tokens.len());
            buckets.entry(len).or_default().push(i);
        }
        let mut batches: Vec<&[usize]> = Vec::with_capacity(train.len().div_ceil(bs));
        let mut rest = Vec::new();
        for bucket in buckets.values_mut() {
            bucket.shuffle(&mut rng);
        }
        for bucket in buckets.values() {
            let full = if join_rest {
                bucket.len() - bucket.len() % bs
            } else {
                bucket.len()
            };
            batches.extend(bucket[..full].chunks(bs));
            rest.extend_from_slice(&bucket[full..]);
        }
        batches.extend(rest.chunks(bs));
        batches.shuffle(&mut rng);
        let mut order = Vec::with_capacity(train.len());
        let mut ends = Vec::with_capacity(batches.len());
        for batch in batches {
            order.extend_from_slice(batch);
            ends.push(order.len());
        }
        Batches {
            dataset,
            order,
            ends,
            next: 0,
        }
    }

    /// Evaluation batches over `val` in the given (fixed) order, `batch_size` at a time (the
    /// last may be smaller). A `batch_size` of 0 is treated as 1.
    pub fn eval(dataset: &'a NamesDataset, val: &[usize], batch_size: usize) -> Self {
        Self::new(dataset, val.to_vec(), batch_size)
    }

    /// Total number of batches (including ones already yielded).
    pub fn num_batches(&self) -> usize {
        self.ends.len()
    }

    /// The sample indices in visiting order (the batches' members, batch after batch).
    pub fn order(&self) -> &[usize] {
        &self.order
    }

    /// The sample indices of every batch, in order.
    pub fn members(&self) -> Vec<Vec<usize>> {
        let mut start = 0;
        self.ends
            .iter()
            .map(|&end| {
                let m = self.order[start..end].to_vec();
                start = end;
                m
            })
            .collect()
    }

    /// The share of step-rows that are padding, over all batches: `Σ (max_len − len)` over
    /// every name of every batch, divided by `Σ batch · max_len` (`max_len`: the longest name
    /// of the name's batch). In `[0, 1)`; 0 when there is nothing to batch.
    pub fn padded_share(&self) -> f64 {
        let (mut padded, mut total) = (0usize, 0usize);
        let mut start = 0;
        for &end in &self.ends {
            let lens: Vec<usize> = self.order[start..end]
                .iter()
                .filter_map(|&i| self.dataset.samples().get(i))
                .map(|s| s.tokens.len())
                .collect();
            let max = lens.iter().copied().max().unwrap_or(0);
            total += max * lens.len();
            padded += lens.iter().map(|&l| max - l).sum::<usize>();
            start = end;
        }
        if total == 0 {
            0.0
        } else {
            padded as f64 / total as f64
        }
    }
}

impl Iterator for Batches<'_> {
    type Item = SeqBatch;

    fn next(&mut self) -> Option<SeqBatch> {
        let end = *self.ends.get(self.next)?;
        let start = if self.next == 0 {
            0
        } else {
            self.ends[self.next - 1]
        };
        self.next += 1;
        Some(make_batch(self.dataset, &self.order[start..end]))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.ends.len() - self.next;
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
        assert_eq!(batch.labels(), [1, 0, 0]);
        // Time-major: step 0 of the three names, then step 1, then step 2.
        assert_eq!(batch.tokens().unwrap(), [5, 28, 0, 0, 3, 1, 0, 4, 0]);
        assert_eq!(
            batch.tokens_batch_first().unwrap(),
            [5, 0, 0, 28, 3, 4, 0, 1, 0]
        );
    }

    #[test]
    fn last_partial_batch_is_kept() {
        let ds = NamesDataset::from_class_files([("A", "a\nb\nc\nd\ne\n")]).unwrap();
        let batches: Vec<_> = Batches::eval(&ds, &[0, 1, 2, 3, 4], 2).collect();
        assert_eq!(
            batches.iter().map(|b| b.batch).collect::<Vec<_>>(),
            vec![2, 2, 1]
        );
        assert_eq!(batches[2].tokens().unwrap(), [4]);
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

    /// 130 names of lengths 1..=6 (21 or 22 of each), two classes.
    fn ragged() -> NamesDataset {
        let (mut a, mut b) = (String::new(), String::new());
        for i in 0..130u8 {
            let (len, q) = (1 + i % 6, i / 6);
            let mut name = String::from(char::from(b'A' + q));
            name.extend((1..len).map(|j| char::from(b'a' + (q + j) % 26)));
            let class = if i % 3 == 0 { &mut b } else { &mut a };
            class.push_str(&name);
            class.push('\n');
        }
        NamesDataset::from_class_files([("A", a.as_str()), ("B", b.as_str())]).unwrap()
    }

    #[test]
    fn bucketed_epoch_visits_every_pair_once_in_ceil_n_over_b_batches() {
        let ds = ragged();
        let train: Vec<usize> = (0..ds.len()).filter(|i| i % 5 != 0).collect();
        for bs in [1, 7, 16, 64, 1000] {
            let batches = Batches::train_epoch(&ds, &train, bs, 3, 0);
            assert_eq!(
                batches.num_batches(),
                train.len().div_ceil(bs),
                "batch size {bs}"
            );
            let order = batches.order().to_vec();
            let mut seen = Vec::new();
            let mut smaller = 0;
            for batch in batches {
                assert!(batch.batch >= 1 && batch.batch <= bs);
                smaller += usize::from(batch.batch < bs);
                let members = &order[seen.len()..][..batch.batch];
                let want: Vec<u32> = members
                    .iter()
                    .map(|&i| ds.samples()[i].tokens.len() as u32)
                    .collect();
                assert_eq!(batch.lengths, want, "a batch holds its slice of order()");
                seen.extend_from_slice(members);
            }
            assert!(smaller <= 1, "at most one batch smaller than {bs}");
            assert_eq!(seen, order);
            seen.sort_unstable();
            assert_eq!(seen, train, "every training pair exactly once");
        }
    }

    #[test]
    fn bucketed_epoch_is_deterministic_per_seed_and_epoch() {
        let ds = ragged();
        let train: Vec<usize> = (0..ds.len()).collect();
        let a = Batches::train_epoch(&ds, &train, 8, 7, 0);
        let b = Batches::train_epoch(&ds, &train, 8, 7, 0);
        assert_eq!((a.order(), &a.ends), (b.order(), &b.ends));
        assert_ne!(
            a.order(),
            Batches::train_epoch(&ds, &train, 8, 7, 1).order()
        );
        assert_ne!(
            a.order(),
            Batches::train_epoch(&ds, &train, 8, 8, 0).order()
        );
    }

    #[test]
    fn bucketed_batches_are_of_one_length_except_merged_remainders() {
        let ds = ragged();
        let train: Vec<usize> = (0..ds.len()).collect();
        let batches = Batches::train_epoch(&ds, &train, 8, 1, 0);
        let random = Batches::new(&ds, epoch_order(&train, 1, 0), 8);
        assert!(batches.padded_share() < random.padded_share() / 2.0);
        // Full batches from one bucket have one length; only the merged remainders (at most
        // one per distinct length) may mix lengths.
        let lengths = 6;
        let mixed = batches
            .clone()
            .filter(|b| b.lengths.iter().any(|&l| l != b.lengths[0]))
            .count();
        assert!(mixed <= lengths, "{mixed} mixed batches");
        assert!(
            mixed >= 1,
            "130 names in 6 lengths leave remainders to merge"
        );
        // Not sorted by length (no curriculum): some longer batch precedes a shorter one.
        let firsts: Vec<u32> = batches.map(|b| b.lengths[0]).collect();
        assert!(firsts.windows(2).any(|w| w[0] > w[1]), "{firsts:?}");
    }

    #[test]
    fn padded_share_counts_padding_step_rows() {
        let ds = NamesDataset::from_class_files([("A", "ab\nCde\n"), ("B", "f\n")]).unwrap();
        // One batch of lengths 1, 3, 2 padded to 3: 2 + 0 + 1 of 9 step-rows.
        let b = Batches::eval(&ds, &[2, 1, 0], 3);
        assert!((b.padded_share() - 3.0 / 9.0).abs() < 1e-12);
        assert_eq!(Batches::eval(&ds, &[2, 1, 0], 1).padded_share(), 0.0);
        assert_eq!(Batches::eval(&ds, &[], 4).padded_share(), 0.0);
    }
}
