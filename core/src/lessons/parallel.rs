//! Lesson 8, why Transformers replaced RNNs: serial depth.
//!
//! A recurrent forward pass over L steps is L dependent steps (step t needs h_{t−1}); the
//! all-pairs score matrix an attention layer computes, `S = Q·Kᵀ/√d` `[L, L]`, is one batched
//! product with no dependency between positions. This module provides the two workloads (the
//! recurrent one is the trainer's [`RnnModule`], the batched one the trainer's matmul) and the
//! statistics of repeated timings; the page times them with the browser's clock. The figures are
//! measurements: they are shown with their spread and never asserted by tests.

use crate::math::init::init_params;
use crate::math::linalg::matmul_acc;
use crate::math::params::{CellKind, ParamLayout, RnnSpec};
use crate::math::recurrent::{RnnModule, SeqData};

use rand::distr::{Distribution, Uniform};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Sequence lengths measured: 8, 16, 32, … (powers of two) up to `max_len`, plus `max_len`
/// itself when it is not a power of two. `max_len` is clamped to 8–512.
pub fn lengths(max_len: usize) -> Vec<usize> {
    let max_len = max_len.clamp(8, 512);
    let mut out: Vec<usize> = std::iter::successors(Some(8usize), |l| Some(l * 2))
        .take_while(|&l| l <= max_len)
        .collect();
    if out.last() != Some(&max_len) {
        out.push(max_len);
    }
    out
}

fn random(len: usize, seed: u64) -> Vec<f32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dist = Uniform::new(-1.0f32, 1.0).expect("a finite non-empty range");
    (0..len).map(|_| dist.sample(&mut rng)).collect()
}

/// The sequential workload: an `nn.RNN/LSTM/GRU(H, H)` forward pass over L steps of a batch of
/// one (L dependent steps), with seeded weights and inputs.
#[derive(Clone, Debug)]
pub struct Sequential {
    module: RnnModule,
    params: Vec<f32>,
    input: Vec<f32>,
    len: usize,
}

impl Sequential {
    /// A workload for `cell` with hidden size `hidden` (also the input width) over `len` steps.
    pub fn new(cell: CellKind, hidden: usize, len: usize) -> Self {
        let spec = RnnSpec::new(cell, hidden, hidden);
        let layout = ParamLayout::rnn(&spec, "");
        let params = init_params(&layout, &spec, 0);
        Sequential {
            module: RnnModule::new(spec, &layout, ""),
            params,
            input: random(len * hidden, 1),
            len,
        }
    }

    /// Runs the forward pass; returns the sum of h_n (so the work cannot be optimised away).
    pub fn run(&self) -> f32 {
        let cache = self.module.forward_time_major(
            &self.params,
            SeqData::Dense(self.input.clone()),
            self.len,
            vec![self.len as u32],
            None,
            None,
        );
        cache.h_n().iter().sum()
    }

    /// Dependent steps: L.
    pub fn serial_depth(&self) -> usize {
        self.len
    }
}

/// The batched workload: attention's all-pairs scores `S = Q·Kᵀ/√d` for L positions of width
/// d, one matrix product over all positions at once.
#[derive(Clone, Debug)]
pub struct AllPairs {
    q: Vec<f32>,
    k_t: Vec<f32>,
    len: usize,
    width: usize,
}

impl AllPairs {
    /// `len` positions of width `width`, seeded.
    pub fn new(len: usize, width: usize) -> Self {
        AllPairs {
            q: random(len * width, 2),
            k_t: random(width * len, 3),
            len,
            width,
        }
    }

    /// Computes `S [L, L]`; returns its trace (so the work cannot be optimised away).
    pub fn run(&self) -> f32 {
        let mut s = vec![0.0f32; self.len * self.len];
        matmul_acc(self.len, self.len, self.width, &self.q, &self.k_t, &mut s);
        let scale = 1.0 / (self.width as f32).sqrt();
        (0..self.len).map(|i| s[i * self.len + i] * scale).sum()
    }

    /// Dependent steps: 1 (every score is independent of the others).
    pub fn serial_depth(&self) -> usize {
        1
    }
}

/// Median and spread of repeated timings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Median, ms.
    pub median: f64,
    /// Fastest, ms.
    pub min: f64,
    /// Slowest, ms.
    pub max: f64,
    /// Number of timings.
    pub runs: usize,
}

impl Stats {
    /// Statistics of `samples` (ms); `None` for no finite sample.
    pub fn from_samples(samples: &[f64]) -> Option<Stats> {
        let mut s: Vec<f64> = samples.iter().copied().filter(|v| v.is_finite()).collect();
        if s.is_empty() {
            return None;
        }
        s.sort_by(f64::total_cmp);
        let n = s.len();
        let median = if n % 2 == 1 {
            s[n / 2]
        } else {
            (s[n / 2 - 1] + s[n / 2]) / 2.0
        };
        Some(Stats {
            median,
            min: s[0],
            max: s[n - 1],
            runs: n,
        })
    }
}

/// One measured length.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measurement {
    /// L.
    pub len: usize,
    /// The recurrent forward pass.
    pub sequential: Stats,
    /// The all-pairs product.
    pub all_pairs: Stats,
}

/// Times `run` `repeats` times with the clock `now` (ms), one call per sample.
pub fn time(
    repeats: usize,
    now: &mut dyn FnMut() -> f64,
    run: &mut dyn FnMut() -> f32,
) -> Vec<f64> {
    (0..repeats).map(|_| sample(1, now, run)).collect()
}

/// One sample: the mean time per call (ms) over `batch` back-to-back calls of `run`.
pub fn sample(batch: usize, now: &mut dyn FnMut() -> f64, run: &mut dyn FnMut() -> f32) -> f64 {
    let batch = batch.max(1);
    let mut sink = 0.0f32;
    let start = now();
    for _ in 0..batch {
        sink += run();
    }
    let elapsed = now() - start;
    std::hint::black_box(sink);
    elapsed / batch as f64
}

/// The number of calls per sample so that one sample takes at least `min_ms` on the clock
/// `now` (browsers coarsen `performance.now()` to 0.1 ms or more, so a fast call must be timed
/// in batches): doubles from 1 until a batch lasts `min_ms`, at most `max_batch`.
pub fn calibrate(
    min_ms: f64,
    max_batch: usize,
    now: &mut dyn FnMut() -> f64,
    run: &mut dyn FnMut() -> f32,
) -> usize {
    let mut batch = 1usize;
    loop {
        let per_call = sample(batch, now, run);
        if per_call * batch as f64 >= min_ms || batch >= max_batch {
            return batch;
        }
        batch = (batch * 2).min(max_batch.max(1));
    }
}
