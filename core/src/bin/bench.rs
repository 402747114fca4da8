//! `bench`: time of one training step (forward + backward) of RNN / LSTM / GRU on the CPU path
//! and on the GPU path (wgpu; natively Vulkan, lavapipe on a machine without a GPU). Not a test.
//!
//! ```text
//! cargo run --release --bin bench [-- --cells rnn,lstm,gru] [--iters 20] [--warmup 3]
//!     [--backend both|cpu|gpu] [--simd both|on|off] [--hidden-size 128] [--batch-size 64]
//!     [--seq-len 20] [--rows-per-group R] [--rows-per-lane RI] [--forward-split K]
//!     [--backward-split K]
//! ```
//!
//! `--rows-per-group R` sets how many batch rows each workgroup of the GPU's whole-sequence
//! cell kernels owns, `--rows-per-lane RI` how many of them each invocation computes (each
//! weight it loads serves RI rows), `--forward-split K` and `--backward-split K` how many parts
//! share each slot's work on otherwise idle invocations in the forward and in BPTT (1 or 2);
//! each alone keeps the others from the adapter's default layout
//! (`cell_sequence::SequenceLayout::for_hidden`), to compare workgroup layouts.
//!
//! The work measured is the name classifier's training step, identical on both paths: one-hot
//! input over 57 symbols → one recurrent layer (`hidden_size` H) → `fc` (18 classes) on the last
//! step → cross-entropy → backward → Adam. CPU: `SeqModel::loss_and_grads` then
//! `Adam::update` (one thread). GPU: `GpuModel::train_step` and a wait for its result
//! (`drain_results`), so each iteration is timed end to end. Every name in the batch has the
//! full `seq_len`. Warm-up iterations are not timed; the table gives the median and the
//! fastest of the timed iterations, and GFLOP/s from the median.
//!
//! The CPU path runs with the SIMD matrix products (`math::linalg`, e.g. AVX2 + FMA) and, for
//! reference, with the portable ones (`--simd both`, the default). The GPU path also reports the
//! host's work per training step, counted by `GpuContext::counts` (the same host code runs in
//! the browser): compute dispatches, queue submits and buffer read-backs, for one step followed
//! by a wait for its result (as timed) and for the training session's pattern (8 steps, then
//! one wait), and the dispatches of one step at the names' mean length 7 and at the delay
//! task's length 96 (one dispatch per layer and direction runs the whole time loop, so the two
//! are equal).
//!
//! FLOPs counted (2·m·n·k per matmul, G = 1 RNN, 3 GRU, 4 LSTM): per time step the forward
//! recurrent product `h_{t−1}·W_hhᵀ` `[B,H]×[H,G·H]`, and in the backward pass `dgates·W_hh` and
//! `dgatesᵀ·h_{t−1}` (same size each), so `3·T·2·B·H·G·H`; plus the head: `logits = h·fcᵀ`,
//! `d fc = dlogitsᵀ·h`, `dh = dlogits·fc` (`3·2·B·H·C`). Not counted: the one-hot input
//! projection and its weight gradient (a column gather and a scatter-add, no multiplications),
//! element-wise gate math, softmax and Adam.
//!
//! Two more modes serve `core/tests/python/test_safetensors_torch.py` (PyTorch interchange):
//! `--export-test-weights DIR` writes Unroll models as `.safetensors` with their inputs and
//! outputs as JSON; `--check-test-weights DIR` imports the `torch_*.safetensors` files PyTorch
//! wrote there and compares Unroll's outputs with PyTorch's (|err| ≤ 1e-5 + 1e-4·|ref|).

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    unroll_core::cli::main("bench", native::HELP, native::run);
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use std::time::Instant;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use unroll_core::cli::{finish, opt, Arguments};
    use unroll_core::gpu::kernels::cell_sequence::SequenceLayout;
    use unroll_core::gpu::{GpuContext, GpuCounts, GpuModel, InputKind};
    use unroll_core::math::init::init_params;
    use unroll_core::math::linalg;
    use unroll_core::math::model::{SeqBatch, SeqModel};
    use unroll_core::math::optim::{Adam, AdamConfig};
    use unroll_core::math::params::{CellKind, RnnSpec};

    const VOCAB: usize = 57;
    const CLASSES: usize = 18;

    pub const HELP: &str = "usage: bench [--cells rnn,lstm,gru] [--iters 20] [--warmup 3]\n\
        \x20   [--backend both|cpu|gpu] [--simd both|on|off] [--hidden-size 128] [--batch-size 64]\n\
        \x20   [--seq-len 20] [--rows-per-group R] [--rows-per-lane RI] [--forward-split K]\n\
        \x20   [--backward-split K]\n\
        \x20      bench --export-test-weights DIR   (for core/tests/python/test_safetensors_torch.py)\n\
        \x20      bench --check-test-weights DIR\n\n\
        Time one training step (forward + backward + Adam) of the name classifier for RNN, LSTM\n\
        and GRU on the CPU path and the GPU path, and print the GPU host's dispatches, submits and\n\
        read-backs per step (docs/bench.md).";

    struct Options {
        cells: Vec<CellKind>,
        iters: usize,
        warmup: usize,
        cpu: bool,
        gpu: bool,
        /// CPU rows to print: with the SIMD products, with the portable ones.
        simd: (bool, bool),
        hidden: usize,
        batch: usize,
        seq_len: usize,
        /// Layout of the GPU cell kernels, as far as the flags set it.
        layout: LayoutChoice,
    }

    /// The layout flags given; the adapter's default layout fills in the rest.
    #[derive(Clone, Copy)]
    struct LayoutChoice {
        rows_per_group: Option<usize>,
        rows_per_lane: Option<usize>,
        forward_split: Option<usize>,
        backward_split: Option<usize>,
    }

    impl LayoutChoice {
        fn resolve(&self, default: SequenceLayout) -> SequenceLayout {
            SequenceLayout {
                rows_per_group: self.rows_per_group.unwrap_or(default.rows_per_group),
                rows_per_lane: self.rows_per_lane.unwrap_or(default.rows_per_lane),
                forward_split: self.forward_split.unwrap_or(default.forward_split),
                backward_split: self.backward_split.unwrap_or(default.backward_split),
            }
        }
    }

    /// Runs the chosen mode; `Ok(false)` when a check failed.
    pub fn run(mut args: Arguments) -> Result<bool, String> {
        let export_dir: Option<std::path::PathBuf> = opt(&mut args, "--export-test-weights")?;
        let check_dir: Option<std::path::PathBuf> = opt(&mut args, "--check-test-weights")?;
        let cells = match opt::<String>(&mut args, "--cells")? {
            None => CellKind::ALL.to_vec(),
            Some(list) => list
                .split(',')
                .map(|s| {
                    CellKind::parse(s.trim())
                        .ok_or_else(|| format!("--cells: {s:?} is not {}", CellKind::keys_or()))
                })
                .collect::<Result<Vec<_>, _>>()?,
        };
        let mut count =
            |key: &'static str, default: usize, min: usize, max: usize| -> Result<usize, String> {
                let v: usize = opt(&mut args, key)?.unwrap_or(default);
                if v < min || v > max {
                    return Err(format!("{key} must be in {min}..={max}, got {v}"));
                }
                Ok(v)
            };
        let iters = count("--iters", 20, 1, 100_000)?;
        let warmup = count("--warmup", 3, 0, 1000)?;
        let hidden = count("--hidden-size", 128, 1, 256)?;
        let batch = count("--batch-size", 64, 1, 512)?;
        let seq_len = count("--seq-len", 20, 1, 512)?;
        let layout = LayoutChoice {
            rows_per_group: opt(&mut args, "--rows-per-group")?,
            rows_per_lane: opt(&mut args, "--rows-per-lane")?,
            forward_split: opt(&mut args, "--forward-split")?,
            backward_split: opt(&mut args, "--backward-split")?,
        };
        let (cpu, gpu) = match opt::<String>(&mut args, "--backend")?.as_deref() {
            None | Some("both") => (true, true),
            Some("cpu") => (true, false),
            Some("gpu") => (false, true),
            Some(other) => {
                return Err(format!("--backend must be both, cpu or gpu, not {other:?}"))
            }
        };
        let simd = match opt::<String>(&mut args, "--simd")?.as_deref() {
            None | Some("both") => (true, true),
            Some("on") => (true, false),
            Some("off") => (false, true),
            Some(other) => return Err(format!("--simd must be both, on or off, not {other:?}")),
        };
        finish(args)?;
        if let Some(dir) = export_dir {
            super::interop::export(&dir)?;
            return Ok(true);
        }
        if let Some(dir) = check_dir {
            return super::interop::check(&dir);
        }
        bench(&Options {
            cells,
            iters,
            warmup,
            cpu,
            gpu,
            simd,
            hidden,
            batch,
            seq_len,
            layout,
        });
        Ok(true)
    }

    /// Matmul FLOPs of one training step (see the module docs).
    fn step_flops(cell: CellKind, b: usize, t: usize, h: usize, c: usize) -> f64 {
        let (b, t, h, c, g) = (b as f64, t as f64, h as f64, c as f64, cell.gates() as f64);
        3.0 * t * 2.0 * b * h * (g * h) + 3.0 * 2.0 * b * h * c
    }

    /// A batch of full-length random names (fixed seed) with random labels.
    fn full_batch(batch: usize, seq_len: usize) -> SeqBatch {
        let mut r = ChaCha8Rng::seed_from_u64(42);
        let tokens: Vec<u32> = (0..batch * seq_len)
            .map(|_| r.random_range(0..VOCAB as u32))
            .collect();
        let labels = (0..batch)
            .map(|_| r.random_range(0..CLASSES as u32))
            .collect();
        SeqBatch::of_batch_first(batch, seq_len, &tokens, vec![seq_len as u32; batch], labels)
    }

    /// (median, fastest) of the samples in seconds.
    fn summarise(mut samples: Vec<f64>) -> (f64, f64) {
        samples.sort_by(f64::total_cmp);
        let n = samples.len();
        let median = if n % 2 == 1 {
            samples[n / 2]
        } else {
            0.5 * (samples[n / 2 - 1] + samples[n / 2])
        };
        (median, samples[0])
    }

    fn time_cpu(spec: RnnSpec, batch: &SeqBatch, warmup: usize, iters: usize) -> Vec<f64> {
        let model = SeqModel::new(spec, CLASSES);
        let mut params = init_params(&model.layout, &spec, 0);
        let mut adam = Adam::new(AdamConfig::default(), params.len());
        let mut samples = Vec::with_capacity(iters);
        for i in 0..warmup + iters {
            let start = Instant::now();
            let (sums, grads) = model.loss_and_grads(&params, batch);
            adam.update(&mut params, &grads);
            let secs = start.elapsed().as_secs_f64();
            assert!(sums.mean_loss().is_finite(), "CPU loss is not finite");
            if i >= warmup {
                samples.push(secs);
            }
        }
        samples
    }

    /// GPU host work per training step: one step then a wait for its result (as timed), and
    /// the session's pattern (`SESSION_DRAIN` steps, then one wait).
    struct StepCounts {
        timed: PerStep,
        session: PerStep,
    }

    /// Dispatches, submits and read-backs per step.
    #[derive(Clone, Copy)]
    struct PerStep([f64; 3]);

    /// Steps the training session submits before it waits for their results.
    const SESSION_DRAIN: u64 = 8;

    /// `counts` divided by `steps`.
    fn per_step(counts: GpuCounts, steps: u64) -> PerStep {
        let steps = steps.max(1) as f64;
        PerStep([counts.dispatches, counts.submits, counts.readbacks].map(|x| x as f64 / steps))
    }

    /// The names classifier of `spec` (seed-0 weights) on the GPU, for batches of at most
    /// `batch` names of at most `seq_len` characters.
    fn gpu_model(
        ctx: &GpuContext,
        spec: RnnSpec,
        batch: usize,
        seq_len: usize,
    ) -> Result<GpuModel, String> {
        let model = SeqModel::new(spec, CLASSES);
        let params = init_params(&model.layout, &spec, 0);
        GpuModel::new(ctx, &model, InputKind::OneHot, &params, batch, seq_len)
            .map_err(|e| e.to_string())
    }

    fn time_gpu(
        ctx: &GpuContext,
        spec: RnnSpec,
        batch: &SeqBatch,
        warmup: usize,
        iters: usize,
        seq_layout: SequenceLayout,
    ) -> Result<(Vec<f64>, StepCounts), String> {
        let mut gpu = gpu_model(ctx, spec, batch.batch, batch.seq_len)?;
        gpu.set_sequence_layout(ctx, seq_layout)
            .map_err(|e| e.to_string())?;
        let mut samples = Vec::with_capacity(iters);
        let mut before = ctx.counts();
        for i in 0..warmup + iters {
            if i == warmup {
                before = ctx.counts();
            }
            let start = Instant::now();
            gpu.train_step(batch, 1e-3).map_err(|e| e.to_string())?;
            let results = pollster::block_on(gpu.drain_results()).map_err(|e| e.to_string())?;
            let secs = start.elapsed().as_secs_f64();
            if results.len() != 1 || !results[0].loss.is_finite() {
                return Err(format!("GPU step returned {results:?}"));
            }
            if i >= warmup {
                samples.push(secs);
            }
        }
        let timed = per_step(ctx.counts().since(&before), iters as u64);
        let before = ctx.counts();
        for _ in 0..SESSION_DRAIN {
            gpu.train_step(batch, 1e-3).map_err(|e| e.to_string())?;
        }
        pollster::block_on(gpu.drain_results()).map_err(|e| e.to_string())?;
        let session = per_step(ctx.counts().since(&before), SESSION_DRAIN);
        Ok((samples, StepCounts { timed, session }))
    }

    fn bench(o: &Options) {
        let batch = full_batch(o.batch, o.seq_len);
        println!(
            "Training step of the name classifier (forward + backward + Adam): hidden_size {}, batch {}, seq_len {} \
             (every name full length), one-hot input over {VOCAB} symbols, 1 layer, {CLASSES} classes.",
            o.hidden, o.batch, o.seq_len
        );
        println!(
            "GFLOP counts matmuls only (2·m·n·k): per step h·W_hhᵀ forward, dgates·W_hh and dgatesᵀ·h backward, \
             plus the fc head; the one-hot input projection (a gather) and element-wise math are not counted."
        );
        println!(
            "Warm-up: {} iterations not timed; then {} timed iterations, median and fastest.",
            o.warmup, o.iters
        );
        let mut layout = SequenceLayout::for_hidden(o.hidden, false);
        let ctx = if o.gpu {
            match pollster::block_on(GpuContext::new()) {
                Ok(ctx) => {
                    let default = SequenceLayout::for_hidden(o.hidden, ctx.is_cpu_adapter());
                    layout = o.layout.resolve(default);
                    let refused = layout.check(o.hidden).err();
                    println!(
                        "GPU path: {} ({:?}, {:?}), whole-sequence cell kernels with {} batch rows per workgroup, \
                         {} per invocation, {} / {} parts per slot forward / backward{}{}; CPU path: 1 thread, matrix products {}.",
                        ctx.description(),
                        ctx.adapter_info.backend,
                        ctx.adapter_info.device_type,
                        layout.rows_per_group,
                        layout.rows_per_lane,
                        layout.forward_split,
                        layout.backward_split,
                        if layout == default { " (default)" } else { "" },
                        refused.as_ref().map(|e| format!(" refused ({e}), so no GPU rows")).unwrap_or_default(),
                        cpu_kernels(o.simd)
                    );
                    refused.is_none().then_some(ctx)
                }
                Err(e) => {
                    println!("GPU path: unavailable ({e}); CPU rows only.");
                    None
                }
            }
        } else {
            println!(
                "CPU path: 1 thread, matrix products {}.",
                cpu_kernels(o.simd)
            );
            None
        };
        let mut counts = Vec::new();
        println!();
        println!("| cell | path | sec/iteration (median) | fastest | GFLOP/iteration | GFLOP/s (median) |");
        println!("|------|------|-----------------------:|--------:|----------------:|-----------------:|");
        for &cell in &o.cells {
            let spec = RnnSpec::new(cell, VOCAB, o.hidden);
            let flops = step_flops(cell, o.batch, o.seq_len, o.hidden, CLASSES);
            let row = |path: &str, samples: Result<Vec<f64>, String>| match samples {
                Ok(s) => {
                    let (median, fastest) = summarise(s);
                    println!(
                        "| {} | {path} | {median:.5} | {fastest:.5} | {:.4} | {:.2} |",
                        cell.as_str().to_uppercase(),
                        flops / 1e9,
                        flops / median / 1e9
                    );
                }
                Err(e) => println!(
                    "| {} | {path} | failed: {e} | | | |",
                    cell.as_str().to_uppercase()
                ),
            };
            for (on, wanted) in [(true, o.simd.0), (false, o.simd.1)] {
                if o.cpu && wanted {
                    linalg::set_simd(on);
                    let path = format!("cpu ({})", linalg::kernel_name());
                    row(&path, Ok(time_cpu(spec, &batch, o.warmup, o.iters)));
                }
            }
            linalg::set_simd(true);
            if let Some(ctx) = &ctx {
                match time_gpu(ctx, spec, &batch, o.warmup, o.iters, layout) {
                    Ok((samples, c)) => {
                        row("gpu", Ok(samples));
                        counts.push((cell, c));
                    }
                    Err(e) => row("gpu", Err(e)),
                }
            }
        }
        if let (Some(ctx), true) = (&ctx, !counts.is_empty()) {
            println!();
            println!(
                "GPU compute dispatches of one training step by length (batch {}, 1 layer, 1 direction):",
                o.batch
            );
            println!();
            println!(
                "| cell | T = {} | T = {} |",
                LENGTHS_COMPARED[0], LENGTHS_COMPARED[1]
            );
            println!("|------|------:|-------:|");
            for &cell in &o.cells {
                let spec = RnnSpec::new(cell, VOCAB, o.hidden);
                match dispatches_by_length(ctx, spec, o.batch) {
                    Ok([a, b]) => println!("| {} | {a} | {b} |", cell.as_str().to_uppercase()),
                    Err(e) => println!("| {} | failed: {e} | |", cell.as_str().to_uppercase()),
                }
            }
        }
        if !counts.is_empty() {
            println!();
            println!(
                "GPU host work per training step (batch {}, seq_len {}): one step then a wait for its \
                 result (as timed above) / the training session's pattern ({SESSION_DRAIN} steps, then one wait).",
                o.batch, o.seq_len
            );
            println!();
            println!("| cell | compute dispatches | queue submits | buffer read-backs |");
            println!("|------|-------------------:|--------------:|------------------:|");
            for (cell, c) in counts {
                let (t, s) = (c.timed.0, c.session.0);
                println!(
                    "| {} | {} / {} | {} / {} | {} / {} |",
                    cell.as_str().to_uppercase(),
                    t[0],
                    s[0],
                    t[1],
                    s[1],
                    t[2],
                    s[2],
                );
            }
        }
    }

    /// The sequence lengths whose dispatch counts the bench prints side by side: the names'
    /// mean length and the delay task's length.
    const LENGTHS_COMPARED: [usize; 2] = [7, 96];

    /// Compute dispatches of one training step at each length of [`LENGTHS_COMPARED`].
    fn dispatches_by_length(
        ctx: &GpuContext,
        spec: RnnSpec,
        batch: usize,
    ) -> Result<[u64; 2], String> {
        let mut gpu = gpu_model(ctx, spec, batch, LENGTHS_COMPARED[1])?;
        let mut out = [0; 2];
        for (slot, &t) in out.iter_mut().zip(&LENGTHS_COMPARED) {
            let before = ctx.counts();
            gpu.train_step(&full_batch(batch, t), 1e-3)
                .map_err(|e| e.to_string())?;
            *slot = ctx.counts().since(&before).dispatches;
            pollster::block_on(gpu.drain_results()).map_err(|e| e.to_string())?;
        }
        Ok(out)
    }

    /// The CPU matrix products the rows use, e.g. `"avx2+fma and portable"`.
    fn cpu_kernels(simd: (bool, bool)) -> String {
        let mut names = Vec::new();
        if simd.0 {
            linalg::set_simd(true);
            names.push(linalg::kernel_name());
        }
        if simd.1 {
            names.push("portable");
        }
        names.join(" and ")
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// LSTM at hidden 128, batch 64, seq_len 20, 18 classes: 3·20·2·64·128·512 + 6·64·128·18.
        #[test]
        fn flop_count_of_the_documented_configuration() {
            assert_eq!(
                step_flops(CellKind::Lstm, 64, 20, 128, 18),
                503_316_480.0 + 884_736.0
            );
            assert_eq!(
                step_flops(CellKind::Rnn, 1, 1, 2, 3),
                3.0 * 2.0 * 2.0 * 2.0 + 6.0 * 2.0 * 3.0
            );
        }

        #[test]
        fn median_and_fastest() {
            assert_eq!(summarise(vec![3.0, 1.0, 2.0]), (2.0, 1.0));
            assert_eq!(summarise(vec![4.0, 1.0, 2.0, 3.0]), (2.5, 1.0));
        }
    }
}

/// Files for the PyTorch interchange test (`core/tests/python/test_safetensors_torch.py`).
///
/// Each case is `NAME.safetensors` plus `NAME.json` with the architecture and tensors as
/// `{"shape": [...], "data": [...]}` (row-major): `input`, optional `h0`/`c0`, `output`, `h_n`,
/// optional `c_n` for a module; `tokens` `[B][T]`, `lengths` `[B]` and `logits` `[B, C]` for the
/// classifier (one-hot over `input_size` symbols, `logits[b] = fc(output[b, lengths[b]−1])`).
#[cfg(not(target_arch = "wasm32"))]
mod interop {
    use std::path::Path;

    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use serde::{Deserialize, Serialize};
    use unroll_core::math::init::init_params;
    use unroll_core::math::model::{SeqBatch, SeqModel};
    use unroll_core::math::params::{CellKind, Nonlinearity, ParamLayout, RnnSpec};
    use unroll_core::math::recurrent::{RnnModule, TensorRef};
    use unroll_core::weights::{
        export_classifier, export_module, import_classifier, import_module, ClassifierInfo,
        ClassifierLimits,
    };

    #[derive(Serialize, Deserialize, Clone, Debug)]
    struct Tensor {
        shape: Vec<usize>,
        data: Vec<f64>,
    }

    impl Tensor {
        fn new(shape: &[usize], data: &[f32]) -> Tensor {
            Tensor {
                shape: shape.to_vec(),
                data: data.iter().map(|&v| v as f64).collect(),
            }
        }
        fn f32(&self) -> Vec<f32> {
            self.data.iter().map(|&v| v as f32).collect()
        }
    }

    #[derive(Serialize, Deserialize, Clone, Debug)]
    struct Case {
        /// `module` or `classifier`.
        kind: String,
        /// The `.safetensors` file beside this JSON.
        weights: String,
        cell: String,
        #[serde(default = "tanh")]
        nonlinearity: String,
        input_size: usize,
        hidden_size: usize,
        num_layers: usize,
        bidirectional: bool,
        batch_first: bool,
        #[serde(default)]
        input: Option<Tensor>,
        #[serde(default)]
        h0: Option<Tensor>,
        #[serde(default)]
        c0: Option<Tensor>,
        #[serde(default)]
        output: Option<Tensor>,
        #[serde(default)]
        h_n: Option<Tensor>,
        #[serde(default)]
        c_n: Option<Tensor>,
        #[serde(default)]
        num_classes: Option<usize>,
        #[serde(default)]
        tokens: Option<Vec<Vec<u32>>>,
        #[serde(default)]
        lengths: Option<Vec<u32>>,
        #[serde(default)]
        logits: Option<Tensor>,
    }

    fn tanh() -> String {
        "tanh".into()
    }

    impl Case {
        fn spec(&self) -> Result<RnnSpec, String> {
            Ok(RnnSpec {
                cell: CellKind::parse(&self.cell)
                    .ok_or_else(|| format!("unknown cell {:?}", self.cell))?,
                nonlinearity: match self.nonlinearity.as_str() {
                    "tanh" => Nonlinearity::Tanh,
                    "relu" => Nonlinearity::Relu,
                    other => return Err(format!("unknown nonlinearity {other:?}")),
                },
                input_size: self.input_size,
                hidden_size: self.hidden_size,
                num_layers: self.num_layers,
                bidirectional: self.bidirectional,
            })
        }
    }

    fn uniform(r: &mut ChaCha8Rng, n: usize) -> Vec<f32> {
        (0..n).map(|_| r.random_range(-1.0f32..1.0)).collect()
    }

    fn write(dir: &Path, name: &str, bytes: &[u8], case: &Case) -> Result<(), String> {
        let w = |file: String, data: &[u8]| {
            std::fs::write(dir.join(&file), data)
                .map_err(|e| format!("{}: {e}", dir.join(file).display()))
        };
        w(format!("{name}.safetensors"), bytes)?;
        w(
            format!("{name}.json"),
            serde_json::to_string(case)
                .map_err(|e| e.to_string())?
                .as_bytes(),
        )
    }

    /// `(output, h_n, c_n)` of a module's forward pass.
    type ModuleOutputs = (Vec<f32>, Vec<f32>, Option<Vec<f32>>);

    /// Runs a module case's forward pass with `params`.
    fn module_forward(case: &Case, spec: RnnSpec, params: &[f32]) -> Result<ModuleOutputs, String> {
        let layout = ParamLayout::rnn(&spec, "");
        let module = RnnModule::new(spec, &layout, "");
        let input = case.input.as_ref().ok_or("module case without input")?;
        let x = input.f32();
        let h0 = case.h0.as_ref().map(|t| (t.f32(), t.shape.clone()));
        let c0 = case.c0.as_ref().map(|t| (t.f32(), t.shape.clone()));
        let out = module
            .forward(
                params,
                TensorRef::new(&input.shape, &x),
                case.batch_first,
                None,
                h0.as_ref().map(|(d, s)| TensorRef::new(s, d)),
                c0.as_ref().map(|(d, s)| TensorRef::new(s, d)),
            )
            .map_err(|e| e.to_string())?;
        Ok((out.output, out.h_n, out.c_n))
    }

    /// Writes `unroll_{lstm,gru,rnn,classifier}.{safetensors,json}` into `dir`.
    pub fn export(dir: &Path) -> Result<(), String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let mut r = ChaCha8Rng::seed_from_u64(2024);
        // (name, cell, nonlinearity, I, H, L, bidirectional, batch_first, with h0/c0)
        let modules = [
            (
                "unroll_lstm",
                CellKind::Lstm,
                Nonlinearity::Tanh,
                3,
                5,
                2,
                true,
                true,
                true,
            ),
            (
                "unroll_gru",
                CellKind::Gru,
                Nonlinearity::Tanh,
                4,
                3,
                1,
                false,
                false,
                true,
            ),
            (
                "unroll_gru_bi",
                CellKind::Gru,
                Nonlinearity::Tanh,
                2,
                4,
                2,
                true,
                true,
                false,
            ),
            (
                "unroll_rnn_relu",
                CellKind::Rnn,
                Nonlinearity::Relu,
                3,
                4,
                2,
                false,
                false,
                false,
            ),
        ];
        let (batch, seq_len) = (2usize, 5usize);
        for (
            name,
            cell,
            nonlinearity,
            input_size,
            hidden_size,
            num_layers,
            bidirectional,
            batch_first,
            with_state,
        ) in modules
        {
            let spec = RnnSpec {
                cell,
                nonlinearity,
                input_size,
                hidden_size,
                num_layers,
                bidirectional,
            };
            let layout = ParamLayout::rnn(&spec, "");
            let params = init_params(&layout, &spec, r.random());
            let input_shape = if batch_first {
                [batch, seq_len, input_size]
            } else {
                [seq_len, batch, input_size]
            };
            let state_shape = [num_layers * spec.num_directions(), batch, hidden_size];
            let state_len = state_shape.iter().product();
            let mut case = Case {
                kind: "module".into(),
                weights: format!("{name}.safetensors"),
                cell: cell.as_str().into(),
                nonlinearity: if nonlinearity == Nonlinearity::Relu {
                    "relu"
                } else {
                    "tanh"
                }
                .into(),
                input_size,
                hidden_size,
                num_layers,
                bidirectional,
                batch_first,
                input: Some(Tensor::new(
                    &input_shape,
                    &uniform(&mut r, input_shape.iter().product()),
                )),
                h0: with_state.then(|| Tensor::new(&state_shape, &uniform(&mut r, state_len))),
                c0: (with_state && cell.spec().has_cell_state)
                    .then(|| Tensor::new(&state_shape, &uniform(&mut r, state_len))),
                output: None,
                h_n: None,
                c_n: None,
                num_classes: None,
                tokens: None,
                lengths: None,
                logits: None,
            };
            let (output, h_n, c_n) = module_forward(&case, spec, &params)?;
            let out_width = spec.num_directions() * hidden_size;
            let out_shape = if batch_first {
                [batch, seq_len, out_width]
            } else {
                [seq_len, batch, out_width]
            };
            case.output = Some(Tensor::new(&out_shape, &output));
            case.h_n = Some(Tensor::new(&state_shape, &h_n));
            case.c_n = c_n.map(|c| Tensor::new(&state_shape, &c));
            let bytes = export_module(&spec, &params).map_err(|e| e.to_string())?;
            write(dir, name, &bytes, &case)?;
        }

        // The classifier: one-hot over 57 symbols → LSTM (batch_first) → fc, 5 classes.
        let spec = RnnSpec::new(CellKind::Lstm, 57, 8);
        let model = SeqModel::new(spec, 5);
        let params = init_params(&model.layout, &spec, 11);
        let lengths = vec![4u32, 1, 6];
        let t = 6;
        let tokens: Vec<Vec<u32>> = lengths
            .iter()
            .map(|&l| {
                (0..t)
                    .map(|i| {
                        if i < l as usize {
                            r.random_range(0..57)
                        } else {
                            0
                        }
                    })
                    .collect()
            })
            .collect();
        let batch = SeqBatch::of_batch_first(3, t, &tokens.concat(), lengths.clone(), vec![0; 3]);
        let logits = model.forward(&params, &batch).outputs;
        let info = ClassifierInfo {
            classes: Some((0..5).map(|i| format!("class{i}")).collect()),
            vocabulary: None,
        };
        let bytes = export_classifier(&model, &params, &info).map_err(|e| e.to_string())?;
        let case = Case {
            kind: "classifier".into(),
            weights: "unroll_classifier.safetensors".into(),
            cell: "lstm".into(),
            nonlinearity: "tanh".into(),
            input_size: 57,
            hidden_size: 8,
            num_layers: 1,
            bidirectional: false,
            batch_first: true,
            input: None,
            h0: None,
            c0: None,
            output: None,
            h_n: None,
            c_n: None,
            num_classes: Some(5),
            tokens: Some(tokens),
            lengths: Some(lengths),
            logits: Some(Tensor::new(&[3, 5], &logits)),
        };
        write(dir, "unroll_classifier", &bytes, &case)?;
        println!(
            "wrote 5 Unroll models (.safetensors + .json) to {}",
            dir.display()
        );
        Ok(())
    }

    /// |err| ≤ 1e-5 + 1e-4·|ref|, NaN fails; the error names the tensor.
    fn close(what: &str, got: &[f32], want: &Tensor) -> Result<(), String> {
        if got.len() != want.data.len() {
            return Err(format!(
                "{what}: {} values, expected {}",
                got.len(),
                want.data.len()
            ));
        }
        #[expect(
            clippy::neg_cmp_op_on_partial_ord,
            reason = "`!(err <= tol)` counts a NaN error as a failure"
        )]
        let bad = got
            .iter()
            .zip(&want.data)
            .filter(|(&g, &w)| !((g as f64 - w).abs() <= 1e-5 + 1e-4 * w.abs()))
            .count();
        if bad > 0 {
            return Err(format!(
                "{what}: {bad} of {} values outside 1e-5 + 1e-4·|ref|",
                got.len()
            ));
        }
        Ok(())
    }

    fn check_case(dir: &Path, case: &Case) -> Result<Vec<String>, String> {
        let bytes =
            std::fs::read(dir.join(&case.weights)).map_err(|e| format!("{}: {e}", case.weights))?;
        let spec = case.spec()?;
        let mut notes = Vec::new();
        match case.kind.as_str() {
            "module" => {
                let imported = import_module(&bytes, &spec).map_err(|e| e.to_string())?;
                notes.extend(imported.notes.iter().take(1).cloned());
                let (output, h_n, c_n) = module_forward(case, spec, &imported.params)?;
                close("output", &output, case.output.as_ref().ok_or("no output")?)?;
                close("h_n", &h_n, case.h_n.as_ref().ok_or("no h_n")?)?;
                match (&c_n, &case.c_n) {
                    (Some(c), Some(want)) => close("c_n", c, want)?,
                    (None, None) => {}
                    _ => return Err("c_n on one side only".into()),
                }
            }
            "classifier" => {
                let loaded =
                    import_classifier(&bytes, &ClassifierLimits::UI).map_err(|e| e.to_string())?;
                notes.extend(loaded.notes.iter().cloned());
                if loaded.model.spec != spec || Some(loaded.model.outputs) != case.num_classes {
                    return Err(format!(
                        "architecture read from the file: {:?} with {} classes",
                        loaded.model.spec, loaded.model.outputs
                    ));
                }
                let tokens = case.tokens.as_ref().ok_or("no tokens")?;
                let lengths = case.lengths.clone().ok_or("no lengths")?;
                let seq_len = tokens.first().map_or(0, Vec::len);
                let batch = SeqBatch::of_batch_first(
                    tokens.len(),
                    seq_len,
                    &tokens.concat(),
                    lengths,
                    vec![0; tokens.len()],
                );
                let logits = loaded.model.forward(&loaded.params, &batch).outputs;
                close("logits", &logits, case.logits.as_ref().ok_or("no logits")?)?;
            }
            other => return Err(format!("unknown kind {other:?}")),
        }
        Ok(notes)
    }

    /// Imports every `torch_*.json` case of `dir`; prints PASS/FAIL per case. `Ok(false)` when
    /// one failed or there were none.
    pub fn check(dir: &Path) -> Result<bool, String> {
        let mut files: Vec<_> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                let name = p
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                name.starts_with("torch_") && name.ends_with(".json")
            })
            .collect();
        files.sort();
        if files.is_empty() {
            println!("FAIL no torch_*.json cases in {}", dir.display());
            return Ok(false);
        }
        let mut ok = true;
        for path in files {
            let label = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let result = std::fs::read_to_string(&path)
                .map_err(|e| e.to_string())
                .and_then(|text| {
                    serde_json::from_str::<Case>(&text).map_err(|e| format!("bad JSON: {e}"))
                })
                .and_then(|case| check_case(dir, &case));
            match result {
                Ok(notes) if notes.is_empty() => println!("PASS {label}"),
                Ok(notes) => println!("PASS {label} ({})", notes.join("; ")),
                Err(e) => {
                    println!("FAIL {label}: {e}");
                    ok = false;
                }
            }
        }
        Ok(ok)
    }
}
