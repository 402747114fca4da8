//! Lesson 8, why Transformers replaced RNNs: serial depth.
//!
//! A recurrent forward pass over L steps is L dependent steps (step t needs h_{t−1}); the
//! all-pairs score matrix an attention layer computes, `S = Q·Kᵀ/√d` `[L, L]`, is one batched
//! product with no dependency between positions. This module provides the two workloads (the
//! recurrent one is the trainer's [`RnnModule`], the batched one the trainer's matmul), their
//! serial depths and multiply-adds counted from their shapes, the same two workloads on the GPU
//! ([`GpuWorkloads`]: the cell's whole-sequence kernel and the matmul kernel), the statistics of
//! repeated timings, and what a device's timings show between the shortest and the longest
//! length ([`Growth`]). The page times them with the browser's clock. The times are
//! measurements: they are shown with their spread and never asserted by tests.

use crate::gpu::buffers;
use crate::gpu::kernels::matmul::{Matmul, MatmulDims};
use crate::gpu::kernels::{Kernel, UniformArena};
use crate::gpu::{GpuContext, GpuError, GpuRnnModule};
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

    /// Dependent steps: L (each step of the one layer reads the state the step before wrote).
    pub fn serial_depth(&self) -> usize {
        self.len * self.module.spec().num_layers
    }

    /// Multiply-adds of the pass: per step, the gates' `G·H` rows against the input (`H`) and
    /// the state (`H`): `L·G·H·2H`.
    pub fn multiply_adds(&self) -> u64 {
        let spec = self.module.spec();
        let gh = (spec.cell.gates() * spec.hidden_size) as u64;
        self.len as u64 * gh * (spec.input_size + spec.hidden_size) as u64
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

    /// Multiply-adds of the product: `L·L·d`.
    pub fn multiply_adds(&self) -> u64 {
        (self.len * self.len * self.width) as u64
    }

    /// The unscaled score `S[i, j] = Q[i]·Kᵀ[:, j]`.
    pub fn score(&self, i: usize, j: usize) -> f32 {
        (0..self.width)
            .map(|k| self.q[i * self.width + k] * self.k_t[k * self.len + j])
            .sum()
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
    sample_spanning(0.0, batch, now, run)
}

/// One sample that spans at least `min_ms` on the clock `now`: `batch` back-to-back calls of
/// `run` between two readings of the clock, again until `min_ms` have passed; the mean time
/// per call (ms). A batch from [`calibrate`] is only a first guess: a calibration stretched by
/// the thread being descheduled (a busy machine) gives too small a batch, whose calls a
/// coarsened clock (0.1 ms or more) would read as 0 ms.
pub fn sample_spanning(
    min_ms: f64,
    batch: usize,
    now: &mut dyn FnMut() -> f64,
    run: &mut dyn FnMut() -> f32,
) -> f64 {
    let batch = batch.max(1);
    let mut sink = 0.0f32;
    let mut calls = 0usize;
    let start = now();
    let elapsed = loop {
        for _ in 0..batch {
            sink += run();
        }
        calls += batch;
        let elapsed = now() - start;
        if elapsed >= min_ms {
            break elapsed;
        }
    };
    std::hint::black_box(sink);
    elapsed / calls as f64
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

/// What one device's timings show from the shortest to the longest length: how many times
/// longer each workload took, next to how many times more it had to compute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Growth {
    /// The shortest length measured.
    pub first_len: usize,
    /// The longest length measured.
    pub last_len: usize,
    /// The recurrent pass's median time at `last_len` over its median at `first_len`.
    pub sequential: f64,
    /// The same for the all-pairs product.
    pub all_pairs: f64,
    /// How many times more multiply-adds (and dependent steps) the recurrent pass has at
    /// `last_len`: `last_len / first_len`.
    pub sequential_work: f64,
    /// How many times more multiply-adds the all-pairs product has: `(last_len / first_len)²`.
    pub all_pairs_work: f64,
}

impl Growth {
    /// The growth between the first and the last of `measurements` (ascending lengths); `None`
    /// with fewer than two lengths or a time that is not positive.
    pub fn of(measurements: &[Measurement]) -> Option<Growth> {
        let (first, last) = (measurements.first()?, measurements.last()?);
        if last.len <= first.len {
            return None;
        }
        let ratio = |a: f64, b: f64| (a > 0.0 && b.is_finite()).then(|| b / a);
        let work = last.len as f64 / first.len as f64;
        Some(Growth {
            first_len: first.len,
            last_len: last.len,
            sequential: ratio(first.sequential.median, last.sequential.median)?,
            all_pairs: ratio(first.all_pairs.median, last.all_pairs.median)?,
            sequential_work: work,
            all_pairs_work: work * work,
        })
    }

    /// Whether the all-pairs product's time grew less than the recurrent pass's here: the
    /// device ran its independent scores side by side, and the dependent steps decided.
    pub fn all_pairs_grew_less(&self) -> bool {
        self.all_pairs < self.sequential
    }
}

/// What [`GpuWorkloads::run`] times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GpuWorkload {
    /// The recurrent pass ([`GpuWorkloads::sequential`]).
    Sequential,
    /// The all-pairs product ([`GpuWorkloads::all_pairs`]).
    AllPairs,
    /// The round trip alone ([`GpuWorkloads::round_trip`]).
    RoundTrip,
}

/// The two workloads on the GPU, from the same seeded weights and inputs as [`Sequential`] and
/// [`AllPairs`]: the recurrent pass in the cell's whole-sequence kernel (one dispatch, whose L
/// steps run one after another inside it), and `S = Q·Kᵀ` as one dispatch of the matmul
/// kernel over all L² scores. Each call is one submission and a small read-back, so its time
/// includes that round trip ([`GpuWorkloads::round_trip`] times it alone).
pub struct GpuWorkloads {
    ctx: GpuContext,
    hidden: usize,
    len: usize,
    module: GpuRnnModule,
    matmul: Kernel<Matmul>,
    arena: UniformArena,
    group: wgpu::BindGroup,
    q: wgpu::Buffer,
    k_t: wgpu::Buffer,
    s: wgpu::Buffer,
}

impl GpuWorkloads {
    /// The workloads of `cell` at hidden size (and width) `hidden`, for lengths up to
    /// `max_len`.
    ///
    /// # Errors
    /// The device's errors; [`GpuError::TooLarge`] beyond its buffer limits.
    pub fn new(
        ctx: &GpuContext,
        cell: CellKind,
        hidden: usize,
        max_len: usize,
    ) -> Result<GpuWorkloads, GpuError> {
        let spec = RnnSpec::new(cell, hidden, hidden);
        let layout = ParamLayout::rnn(&spec, "");
        let params = init_params(&layout, &spec, 0);
        let module = GpuRnnModule::new(ctx, spec, &params, 1, max_len)?;
        let bytes = |n: usize| (n * 4) as u64;
        let q = buffers::storage(ctx, "parallel.q", bytes(max_len * hidden));
        let k_t = buffers::storage(ctx, "parallel.k_t", bytes(hidden * max_len));
        let s = buffers::storage(ctx, "parallel.s", bytes(max_len * max_len));
        let matmul = Kernel::<Matmul>::new(ctx);
        let arena = UniformArena::new(ctx, "parallel.uniforms", 1);
        let group = matmul.bind(ctx, "parallel.scores", &arena, &[&q, &k_t, &s]);
        ctx.check()?;
        Ok(GpuWorkloads {
            ctx: ctx.clone(),
            hidden,
            len: 0,
            module,
            matmul,
            arena,
            group,
            q,
            k_t,
            s,
        })
    }

    /// Uploads the inputs of length `len` (the same values [`Sequential::new`] and
    /// [`AllPairs::new`] make).
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] beyond `max_len`; device errors.
    pub fn set_len(&mut self, len: usize) -> Result<(), GpuError> {
        let h = self.hidden;
        self.module.load_input(len, 1, &random(len * h, 1))?;
        let queue = &self.ctx.queue;
        queue.write_buffer(&self.q, 0, bytemuck::cast_slice(&random(len * h, 2)));
        queue.write_buffer(&self.k_t, 0, bytemuck::cast_slice(&random(h * len, 3)));
        self.len = len;
        Ok(())
    }

    /// The recurrent pass over the length set last; returns the sum of h_n.
    ///
    /// # Errors
    /// The device's errors.
    pub async fn sequential(&mut self) -> Result<f32, GpuError> {
        self.module.forward_sum(self.len, 1).await
    }

    /// `S = Q·Kᵀ` over the length set last, one dispatch; returns the unscaled `S[0, 0]`.
    ///
    /// # Errors
    /// The device's errors.
    pub async fn all_pairs(&mut self) -> Result<f32, GpuError> {
        let (l, d) = (self.len as u32, self.hidden as u32);
        self.arena.clear();
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("parallel.scores"),
            });
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("parallel.scores"),
                timestamp_writes: None,
            });
            let dims = MatmulDims::packed(l, l, d, false, false);
            self.matmul
                .encode(&mut pass, &self.group, &mut self.arena, dims)?;
        }
        self.arena.upload(&self.ctx.queue);
        self.ctx.submit(encoder);
        let first = buffers::read_bytes(&self.ctx, &self.s, 0, 4).await?;
        Ok(f32::from_le_bytes([first[0], first[1], first[2], first[3]]))
    }

    /// One call of `workload`; returns its read-back value.
    ///
    /// # Errors
    /// The device's errors.
    pub async fn run(&mut self, workload: GpuWorkload) -> Result<f32, GpuError> {
        match workload {
            GpuWorkload::Sequential => self.sequential().await,
            GpuWorkload::AllPairs => self.all_pairs().await,
            GpuWorkload::RoundTrip => self.round_trip().await,
        }
    }

    /// One sample: the mean time per call (ms, on the clock `now`) over `batch` calls of
    /// `workload`, one after another.
    ///
    /// # Errors
    /// The device's errors.
    pub async fn sample(
        &mut self,
        workload: GpuWorkload,
        batch: usize,
        now: &mut dyn FnMut() -> f64,
    ) -> Result<f64, GpuError> {
        let batch = batch.max(1);
        let mut sink = 0.0f32;
        let start = now();
        for _ in 0..batch {
            sink += self.run(workload).await?;
        }
        let elapsed = now() - start;
        std::hint::black_box(sink);
        Ok(elapsed / batch as f64)
    }

    /// One submission that only copies 4 bytes, and their read-back: the round trip every
    /// timed call includes.
    ///
    /// # Errors
    /// The device's errors.
    pub async fn round_trip(&self) -> Result<f32, GpuError> {
        let first = buffers::read_bytes(&self.ctx, &self.s, 0, 4).await?;
        Ok(f32::from_le_bytes([first[0], first[1], first[2], first[3]]))
    }
}
