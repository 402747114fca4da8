//! The delay-copy task: seeded random token sequences and their delayed targets, as a
//! [`Task`].
//!
//! A sequence is T tokens drawn uniformly from `0..V` (ChaCha8 seeded from a `u64`, so a seed
//! gives the same sequences on every platform, wasm included). The target at position t
//! (0-based) is the token at t − delay, defined for t ≥ delay:
//!
//! ```text
//! tokens   3 8 2 5 1        (delay 2)
//! targets  · · 3 8 2        positions 2, 3, 4 are supervised
//! ```
//!
//! The model reads one-hot tokens (input_size V) and its head every position from the delay on
//! ([`Readout::From`]), V logits each, cross-entropy over the supervised tokens. The held-out
//! set is [`HELDOUT_SEQUENCES`] sequences from [`HELDOUT_SEED`], a seed no training stream
//! uses (training seeds are `u32`): every cell and seed is measured on the same sequences.
//! Its baseline is a uniform guess (`ln V`, accuracy `1/V`); "solved" is a held-out token
//! accuracy of at least [`SOLVED`] (the verdicts of [`crate::delay::outcome`] use it too).

use crate::config::delay::check_delay;
use crate::config::delay::DelayRangeError;
use crate::math::model::{Head, Loss, Readout, SeqBatch};
use crate::task::{Baseline, BaselineRule, BatchStream, Criterion, Input, Task, TaskShape};
use rand::distr::{Distribution, Uniform};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Held-out token accuracy from which a run counts as having solved the task.
pub const SOLVED: f64 = 0.95;

/// Sequences in the held-out set.
pub const HELDOUT_SEQUENCES: usize = 256;

/// Seed of the held-out set's token stream: above `u32::MAX`, so no training stream (seeded by
/// a `u32`) and no example sequence shares it.
pub const HELDOUT_SEED: u64 = 0x0048_454c_444f_5554;

/// Steps between two held-out evaluations (the page's and the native runner's default).
pub const EVAL_EVERY: u64 = 100;

/// Steps between two held-out evaluations for a budget of `steps`: [`EVAL_EVERY`], or a tenth
/// of the budget when that is smaller (at least 1), so a short run still draws a curve.
pub fn eval_every_for(steps: u64) -> u64 {
    (steps / 10).clamp(1, EVAL_EVERY)
}

/// The targets of one sequence: `[T − delay]`, `targets[i]` = the target at position
/// `delay + i`, i.e. `tokens[i]`.
///
/// # Errors
/// [`DelayRangeError`] unless `0 < delay < tokens.len()`.
pub fn targets(tokens: &[u32], delay: usize) -> Result<Vec<u32>, DelayRangeError> {
    check_delay(delay, tokens.len())?;
    Ok(tokens[..tokens.len() - delay].to_vec())
}

/// The shape of the task: vocabulary V, sequence length T, delay d with `0 < d < T`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DelayTask {
    vocab: usize,
    length: usize,
    delay: usize,
}

/// A batch of `[B][T]` sequences (row-major, as people write them) with their delayed
/// targets: time-major tokens, targets `[(T − d)·B]` (row i is position `d + i`; in time-major
/// layout they are exactly the first `(T − d)·B` tokens).
///
/// # Errors
/// [`DelayRangeError`] unless `0 < delay < T`.
///
/// # Panics
/// If the sequences differ in length or there are none.
pub fn batch_of(sequences: &[Vec<u32>], delay: usize) -> Result<SeqBatch, DelayRangeError> {
    assert!(!sequences.is_empty(), "batch_of: no sequence");
    let seq_len = sequences[0].len();
    assert!(
        sequences.iter().all(|s| s.len() == seq_len),
        "batch_of: sequences differ in length"
    );
    check_delay(delay, seq_len)?;
    let batch = sequences.len();
    let mut tokens = Vec::with_capacity(batch * seq_len);
    for t in 0..seq_len {
        tokens.extend(sequences.iter().map(|s| s[t]));
    }
    Ok(with_targets(batch, seq_len, delay, tokens))
}

/// A batch of `[T, B]` time-major tokens with the targets of `delay`.
fn with_targets(batch: usize, seq_len: usize, delay: usize, tokens: Vec<u32>) -> SeqBatch {
    let targets = tokens[..(seq_len - delay) * batch].to_vec();
    SeqBatch::of_tokens(batch, seq_len, tokens, targets)
}

impl DelayTask {
    /// The task with vocabulary `vocab`, sequences of `length` tokens and `delay`.
    ///
    /// # Errors
    /// [`DelayRangeError`] unless `0 < delay < length`.
    ///
    /// # Panics
    /// If `vocab < 2` (the URL codec never gives one).
    pub fn new(vocab: usize, length: usize, delay: usize) -> Result<Self, DelayRangeError> {
        assert!(vocab >= 2, "DelayTask: vocab must be at least 2");
        check_delay(delay, length)?;
        Ok(DelayTask {
            vocab,
            length,
            delay,
        })
    }

    /// Vocabulary size V.
    pub fn vocab(&self) -> usize {
        self.vocab
    }

    /// Tokens per sequence T.
    pub fn length(&self) -> usize {
        self.length
    }

    /// The delay d.
    pub fn delay(&self) -> usize {
        self.delay
    }

    /// Loss of a uniform guess over the vocabulary, `ln V` nats.
    pub fn chance_loss(&self) -> f64 {
        (self.vocab as f64).ln()
    }

    /// Accuracy of a uniform guess, `1/V`.
    pub fn chance_accuracy(&self) -> f64 {
        1.0 / self.vocab as f64
    }

    /// A stream of batches of `batch` sequences from `seed` ([`TokenStream`]).
    pub fn tokens(&self, seed: u64, batch: usize) -> TokenStream {
        TokenStream {
            task: *self,
            batch: batch.max(1),
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }

    /// The held-out set: [`HELDOUT_SEQUENCES`] sequences from [`HELDOUT_SEED`], one batch.
    pub fn heldout_batch(&self) -> SeqBatch {
        self.tokens(HELDOUT_SEED, HELDOUT_SEQUENCES).next_batch()
    }

    /// The example sequence the page shows for `seed`: a batch of one sequence from a stream
    /// of its own (seeded from `seed`, but not the training stream).
    pub fn example_batch(&self, seed: u64) -> SeqBatch {
        self.tokens(seed ^ 0x5eed_e8a3_91c0_77d1, 1).next_batch()
    }
}

impl Task for DelayTask {
    fn length(&self) -> Option<usize> {
        Some(DelayTask::length(self))
    }

    fn key(&self) -> &'static str {
        "delay"
    }

    fn settings(&self) -> String {
        format!(
            "delay:vocab={}:length={}:delay={}",
            self.vocab, self.length, self.delay
        )
    }

    fn shape(&self) -> TaskShape {
        TaskShape {
            input: Input::OneHot { vocab: self.vocab },
            outputs: self.vocab,
            readout: Readout::From(self.delay),
            loss: Loss::CrossEntropy,
            head: Head::Last,
            max_seq_len: self.length,
            conditions: None,
        }
    }

    fn stream(&self, seed: u32, batch_size: usize) -> Box<dyn BatchStream> {
        Box::new(self.tokens(u64::from(seed), batch_size))
    }

    /// The held-out set in slices of `max(batch_size, 32)` sequences.
    fn heldout(&self, batch_size: usize) -> Vec<SeqBatch> {
        self.heldout_batch().slices(batch_size.max(32))
    }

    fn baseline(&self) -> Baseline {
        Baseline {
            loss: self.chance_loss(),
            accuracy: Some(self.chance_accuracy()),
            rule: BaselineRule::Uniform {
                choices: self.vocab,
            },
        }
    }

    fn criterion(&self) -> Option<Criterion> {
        Some(Criterion::AccuracyAtLeast(SOLVED))
    }

    fn example(&self, seed: u32) -> Option<SeqBatch> {
        Some(self.example_batch(u64::from(seed)))
    }
}

/// An endless seeded source of delay-copy batches: the same seed gives the same batches.
#[derive(Clone, Debug)]
pub struct TokenStream {
    task: DelayTask,
    batch: usize,
    rng: ChaCha8Rng,
}

impl TokenStream {
    /// The next batch. Tokens are drawn sequence by sequence, position by position.
    pub fn next_batch(&mut self) -> SeqBatch {
        let (t_len, v, batch) = (self.task.length, self.task.vocab as u32, self.batch);
        let dist = Uniform::new(0, v).expect("vocab ≥ 2");
        let mut tokens = vec![0u32; t_len * batch];
        for b in 0..batch {
            for t in 0..t_len {
                tokens[t * batch + b] = dist.sample(&mut self.rng);
            }
        }
        with_targets(batch, t_len, self.task.delay, tokens)
    }
}

impl BatchStream for TokenStream {
    fn next_batch(&mut self) -> SeqBatch {
        TokenStream::next_batch(self)
    }

    /// How far the stream has been read, in 32-bit words of its ChaCha8 generator.
    fn position(&self) -> u128 {
        self.rng.get_word_pos()
    }

    fn seek(&mut self, position: u128) {
        self.rng.set_word_pos(position);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_interval_follows_the_budget() {
        assert_eq!(eval_every_for(1), 1);
        assert_eq!(eval_every_for(100), 10);
        assert_eq!(eval_every_for(1000), EVAL_EVERY);
        assert_eq!(eval_every_for(3000), EVAL_EVERY);
    }
}
