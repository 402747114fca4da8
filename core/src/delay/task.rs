//! Seeded random token sequences and their delayed targets.
//!
//! A sequence is T tokens drawn uniformly from `0..V` (ChaCha8 seeded from a `u64`, so a seed
//! gives the same sequences on every platform, wasm included). The target at position t
//! (0-based) is the token at t − delay, defined for t ≥ delay:
//!
//! ```text
//! tokens   3 8 2 5 1        (delay 2)
//! targets  · · 3 8 2        positions 2, 3, 4 are supervised
//! ```

use super::DelayRangeError;
use crate::config::delay::check_delay;
use rand::distr::{Distribution, Uniform};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

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

/// A batch of sequences, time-major (the layout of the recurrent module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DelayBatch {
    /// Sequences B.
    pub batch: usize,
    /// Tokens per sequence T.
    pub seq_len: usize,
    /// The delay d.
    pub delay: usize,
    /// `[T, B]` tokens in `0..V`: `tokens[t * B + b]` is token t of sequence b.
    pub tokens: Vec<u32>,
}

impl DelayBatch {
    /// Supervised positions per sequence, `T − d`.
    pub fn supervised_len(&self) -> usize {
        self.seq_len - self.delay
    }

    /// `[T − d, B]` targets, time-major: row i is position `d + i`. In time-major layout they
    /// are exactly the first `(T − d)·B` tokens.
    pub fn targets(&self) -> &[u32] {
        &self.tokens[..self.supervised_len() * self.batch]
    }

    /// Sequence `b` as `[T]` tokens.
    ///
    /// # Panics
    /// If `b ≥ B`.
    pub fn sequence(&self, b: usize) -> Vec<u32> {
        assert!(b < self.batch, "sequence {b} of a batch of {}", self.batch);
        (0..self.seq_len)
            .map(|t| self.tokens[t * self.batch + b])
            .collect()
    }

    /// Sequences `range` as a batch of their own (micro-batches).
    pub fn rows(&self, range: std::ops::Range<usize>) -> DelayBatch {
        let mut tokens = Vec::with_capacity(range.len() * self.seq_len);
        for t in 0..self.seq_len {
            tokens.extend_from_slice(&self.tokens[t * self.batch..][range.clone()]);
        }
        DelayBatch {
            batch: range.len(),
            seq_len: self.seq_len,
            delay: self.delay,
            tokens,
        }
    }

    /// A batch of the given `[B, T]` sequences (row-major, as people write them).
    ///
    /// # Errors
    /// [`DelayRangeError`] unless `0 < delay < T`.
    ///
    /// # Panics
    /// If the sequences differ in length or there are none.
    pub fn from_sequences(sequences: &[Vec<u32>], delay: usize) -> Result<Self, DelayRangeError> {
        assert!(!sequences.is_empty(), "from_sequences: no sequence");
        let seq_len = sequences[0].len();
        assert!(
            sequences.iter().all(|s| s.len() == seq_len),
            "from_sequences: sequences differ in length"
        );
        check_delay(delay, seq_len)?;
        let batch = sequences.len();
        let mut tokens = Vec::with_capacity(batch * seq_len);
        for t in 0..seq_len {
            tokens.extend(sequences.iter().map(|s| s[t]));
        }
        Ok(DelayBatch {
            batch,
            seq_len,
            delay,
            tokens,
        })
    }
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

    /// A stream of batches from `seed` ([`TokenStream`]).
    pub fn stream(&self, seed: u64) -> TokenStream {
        TokenStream {
            task: *self,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

/// An endless seeded source of [`DelayBatch`]es: the same seed gives the same batches.
#[derive(Clone, Debug)]
pub struct TokenStream {
    task: DelayTask,
    rng: ChaCha8Rng,
}

impl TokenStream {
    /// The next `batch` sequences. Tokens are drawn sequence by sequence, position by position.
    pub fn next_batch(&mut self, batch: usize) -> DelayBatch {
        let (t_len, v) = (self.task.length, self.task.vocab as u32);
        let dist = Uniform::new(0, v).expect("vocab ≥ 2");
        let mut tokens = vec![0u32; t_len * batch];
        for b in 0..batch {
            for t in 0..t_len {
                tokens[t * batch + b] = dist.sample(&mut self.rng);
            }
        }
        DelayBatch {
            batch,
            seq_len: t_len,
            delay: self.task.delay,
            tokens,
        }
    }

    /// The task.
    pub fn task(&self) -> &DelayTask {
        &self.task
    }

    /// How far the stream has been read, in 32-bit words of its ChaCha8 generator (a
    /// checkpoint's position; [`TokenStream::seek`] goes back to it).
    pub fn position(&self) -> u128 {
        self.rng.get_word_pos()
    }

    /// Moves the stream to `position` ([`TokenStream::position`] of a stream with the same
    /// seed): the batches that follow are the ones that followed there.
    pub fn seek(&mut self, position: u128) {
        self.rng.set_word_pos(position);
    }
}
