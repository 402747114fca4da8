//! The seeded train/validation split: about 90/10 per language, grouped by normalised name,
//! every language with at least 2 names present in validation.
//!
//! Grouping: all samples with the same normalised name go to the same side, so a name listed
//! under two languages is never in training under one and in validation under the other (a
//! plain row split leaks: PyTorch's recipe reports about 0.75 instead of 0.70–0.74 with it).
//!
//! Algorithm: the distinct names (in order of first appearance) are shuffled with
//! `ChaCha8Rng::seed_from_u64(seed)` on stream [`SPLIT_STREAM`]; each language wants
//! `round(val_fraction · n_c)` validation samples, clamped to 1 … n_c − 1 (none for a language
//! with a single name, whose name is kept for training). Walking the shuffled names, a name goes
//! to validation when every language it belongs to still wants more; otherwise to training.
//! A language left without any validation sample afterwards (possible only when all its names
//! are shared with languages that are already full) gets its first name in shuffled order moved
//! to validation. Validation accuracy is then measured over distinct pairs: a name listed under
//! two languages contributes two validation samples with different labels.

use super::names::NamesDataset;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// ChaCha stream used for the split (the epoch shuffles use [`super::batches::EPOCH_STREAM_BASE`]
/// + epoch; stream 0 is left to weight initialisation).
pub const SPLIT_STREAM: u64 = 1;

/// The validation share used by the training page (10 %).
pub const VAL_FRACTION: f64 = 0.1;

/// A split of a [`NamesDataset`]'s samples, as indices into [`NamesDataset::samples`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split {
    /// Training sample indices, ascending.
    pub train: Vec<usize>,
    /// Validation sample indices, ascending.
    pub val: Vec<usize>,
}

impl Split {
    /// Splits `dataset` with `seed` and the given validation fraction (clamped to `[0, 1]`; the
    /// training page uses [`VAL_FRACTION`]). Deterministic for a given data set and seed.
    ///
    /// Every language with at least 2 names gets at least one validation sample and keeps at
    /// least one for training; a language with a single name keeps it for training and has no
    /// validation sample (never the case in the real data).
    pub fn new(dataset: &NamesDataset, seed: u64, val_fraction: f64) -> Split {
        let val_fraction = if val_fraction.is_finite() {
            val_fraction.clamp(0.0, 1.0)
        } else {
            VAL_FRACTION
        };
        let samples = dataset.samples();
        let num_classes = dataset.num_classes();

        // Group sample indices by normalised name, in order of first appearance.
        let mut group_of: HashMap<&str, usize> = HashMap::with_capacity(samples.len());
        let mut groups: Vec<Vec<usize>> = Vec::with_capacity(samples.len());
        for (i, s) in samples.iter().enumerate() {
            let g = *group_of.entry(s.name.as_str()).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(i);
        }

        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        rng.set_stream(SPLIT_STREAM);
        let mut order: Vec<usize> = (0..groups.len()).collect();
        order.shuffle(&mut rng);

        let counts = dataset.class_counts();
        // A language with a single name keeps it for training (it has no validation row then);
        // one with n ≥ 2 names gets 1 … n − 1 validation samples.
        let wanted: Vec<usize> = counts
            .iter()
            .map(|&n| {
                if n < 2 {
                    0
                } else {
                    ((n as f64 * val_fraction).round() as usize).clamp(1, n - 1)
                }
            })
            .collect();
        let mut in_val = vec![false; groups.len()];
        let mut val_count = vec![0usize; num_classes];
        for &g in &order {
            let fits = groups[g]
                .iter()
                .all(|&i| val_count[samples[i].label as usize] < wanted[samples[i].label as usize]);
            if fits {
                in_val[g] = true;
                for &i in &groups[g] {
                    val_count[samples[i].label as usize] += 1;
                }
            }
        }
        for class in 0..num_classes {
            if val_count[class] > 0 || wanted[class] == 0 {
                continue;
            }
            let first = order.iter().copied().find(|&g| {
                groups[g]
                    .iter()
                    .any(|&i| samples[i].label as usize == class)
            });
            if let Some(g) = first {
                in_val[g] = true;
                for &i in &groups[g] {
                    val_count[samples[i].label as usize] += 1;
                }
            }
        }

        let mut train = Vec::with_capacity(samples.len());
        let mut val = Vec::new();
        for (g, members) in groups.iter().enumerate() {
            if in_val[g] {
                val.extend_from_slice(members);
            } else {
                train.extend_from_slice(members);
            }
        }
        train.sort_unstable();
        val.sort_unstable();
        Split { train, val }
    }

    /// Number of validation samples of each class, `[num_classes]`.
    pub fn val_class_counts(&self, dataset: &NamesDataset) -> Vec<usize> {
        let mut counts = vec![0; dataset.num_classes()];
        for &i in &self.val {
            counts[dataset.samples()[i].label as usize] += 1;
        }
        counts
    }
}

/// The sizes of the seeded split of a data set: what a page shows about it (training and
/// validation counts, the validation names of each class) without the sample indices, so the
/// engine can send it instead of the split.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SplitCounts {
    /// The split's seed.
    pub seed: u64,
    /// Training samples (`Split::train.len()`).
    pub train: usize,
    /// Validation samples (`Split::val.len()`).
    pub val: usize,
    /// Validation samples of each class, `[num_classes]` ([`Split::val_class_counts`]).
    pub val_per_class: Vec<usize>,
}

impl SplitCounts {
    /// The counts of `Split::new(dataset, seed, val_fraction)`.
    pub fn new(dataset: &NamesDataset, seed: u64, val_fraction: f64) -> SplitCounts {
        let split = Split::new(dataset, seed, val_fraction);
        SplitCounts {
            seed,
            train: split.train.len(),
            val: split.val.len(),
            val_per_class: split.val_class_counts(dataset),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toy() -> NamesDataset {
        let mut a = String::new();
        let mut b = String::new();
        for i in 0..40 {
            a.push_str(&format!("Name{}\n", (b'a' + (i % 26) as u8) as char).repeat(1));
            a.push_str(&format!("A{}x\n", "z".repeat(i as usize % 7 + 1)));
            b.push_str(&format!("B{}y\n", "q".repeat(i as usize + 1)));
        }
        // Shared between the two languages.
        a.push_str("Shared\nCommon\n");
        b.push_str("Shared\nCommon\n");
        NamesDataset::from_class_files([("A", a), ("B", b), ("C", "Solo\n".to_owned())]).unwrap()
    }

    #[test]
    fn grouped_by_name_and_every_class_in_validation() {
        let ds = toy();
        for seed in 0..50 {
            let split = Split::new(&ds, seed, 0.1);
            assert_eq!(split.train.len() + split.val.len(), ds.len());
            let val_names: std::collections::HashSet<&str> = split
                .val
                .iter()
                .map(|&i| ds.samples()[i].name.as_str())
                .collect();
            for &i in &split.train {
                assert!(
                    !val_names.contains(ds.samples()[i].name.as_str()),
                    "seed {seed}"
                );
            }
            // Every language with at least 2 names is validated; "C" has a single name, which
            // stays in training.
            let counts = split.val_class_counts(&ds);
            assert!(counts[0] > 0 && counts[1] > 0, "seed {seed}");
            assert_eq!(counts[2], 0, "seed {seed}");
            assert!(split.train.iter().any(|&i| ds.samples()[i].name == "Solo"));
        }
    }

    /// The counts are the split's, seed by seed (the shared names make them depend on it).
    #[test]
    fn counts_are_the_splits() {
        let ds = toy();
        for seed in 0..20 {
            let split = Split::new(&ds, seed, VAL_FRACTION);
            let counts = SplitCounts::new(&ds, seed, VAL_FRACTION);
            assert_eq!(counts.seed, seed);
            assert_eq!(counts.train, split.train.len());
            assert_eq!(counts.val, split.val.len());
            assert_eq!(counts.val_per_class, split.val_class_counts(&ds));
            assert_eq!(counts.val_per_class.iter().sum::<usize>(), counts.val);
        }
    }

    #[test]
    fn zero_fraction_still_puts_each_class_in_validation() {
        let ds = toy();
        let split = Split::new(&ds, 3, 0.0);
        // One name each for the languages that have two or more; none for the single-name one.
        assert_eq!(split.val_class_counts(&ds), vec![1, 1, 0]);
    }
}
