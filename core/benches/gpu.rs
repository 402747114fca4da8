//! Timings of the GPU path's pieces on this machine's adapter (lavapipe without a GPU): the
//! classifier's training step, single kernels, and a bare module's forward + backward. Nothing
//! is asserted; the `bench` binary gives the step's timings beside the CPU path's.
//!
//! `cargo bench -p unroll-core --bench gpu`

// The test suite's GPU helpers (an adapter or a clear failure, random data).
#[allow(dead_code, reason = "the benchmarks use a few of the suite's helpers")]
#[path = "../tests/suite/gpu_support/mod.rs"]
mod gpu_support;

use std::time::Instant;

use gpu_support::{block, context, random_batch, random_params, rng};
use unroll_core::gpu::GpuClassifier;
use unroll_core::math::params::{CellKind, ParamLayout, RnnSpec};

fn bench(cell: CellKind, hidden: usize, batch: usize, seq_len: usize, steps: usize) {
    let ctx = context();
    let spec = RnnSpec::new(cell, 57, hidden);
    let layout = ParamLayout::classifier(&spec, 18);
    let mut r = rng(1);
    let params = random_params(&mut r, layout.total_len(), hidden);
    let batches: Vec<_> = (0..8)
        .map(|_| random_batch(&mut r, batch, seq_len, 57, 18))
        .collect();
    let mut gpu = GpuClassifier::new(&ctx, spec, 18, &params, batch, seq_len).unwrap();
    // Warm-up: pipeline compilation and the Mesa shader cache.
    for b in batches.iter().take(3) {
        gpu.train_step(b, 1e-3).unwrap();
    }
    block(gpu.drain_results()).unwrap();
    let start = Instant::now();
    for i in 0..steps {
        gpu.train_step(&batches[i % batches.len()], 1e-3).unwrap();
    }
    let results = block(gpu.drain_results()).unwrap();
    let secs = start.elapsed().as_secs_f64();
    assert_eq!(results.len(), steps);
    println!(
        "{:<5} hidden {hidden} batch {batch} seq_len {seq_len}: {:.2} ms/step over {steps} steps ({})",
        cell.as_str(),
        secs * 1e3 / steps as f64,
        ctx.description()
    );
}

fn main() {
    train_step_time_hidden128_batch64();
    kernel_times_hidden128_batch64();
    module_forward_backward_time_hidden128_batch64_seq20();
}

fn train_step_time_hidden128_batch64() {
    for cell in CellKind::ALL {
        bench(cell, 128, 64, 19, 50);
    }
    bench(CellKind::Lstm, 128, 64, 10, 50);
}

use unroll_core::gpu::buffers;
use unroll_core::gpu::kernels::col_sum::{ColSum, ColSumDims};
use unroll_core::gpu::kernels::matmul::{Matmul, MatmulDims};
use unroll_core::gpu::kernels::onehot_weight_grad::{OnehotGradDims, OnehotWeightGrad};
use unroll_core::gpu::kernels::{Kernel, KernelSpec, UniformArena};
use unroll_core::gpu::GpuContext;

/// Times `reps` dispatches of one kernel in one submission.
fn time_kernel<S: KernelSpec>(
    ctx: &GpuContext,
    label: &str,
    storage: &[&wgpu::Buffer],
    dims: S::Dims,
    reps: usize,
) {
    let k: Kernel<S> = Kernel::new(ctx);
    let mut arena = UniformArena::new(ctx, "bench", reps);
    let group = k.bind(ctx, label, &arena, storage);
    for round in 0..2 {
        arena.clear();
        let mut enc = ctx.device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            for _ in 0..reps {
                k.encode(&mut pass, &group, &mut arena, dims).unwrap();
            }
        }
        arena.upload(&ctx.queue);
        let start = Instant::now();
        ctx.queue.submit([enc.finish()]);
        ctx.device
            .poll(wgpu::PollType::wait_indefinitely())
            .unwrap();
        if round == 1 {
            println!(
                "{label:<40} {:.3} ms/dispatch",
                start.elapsed().as_secs_f64() * 1e3 / reps as f64
            );
        }
    }
}

fn kernel_times_hidden128_batch64() {
    let ctx = context();
    let (b, h, t) = (64u32, 128u32, 19u32);
    let gh = 4 * h;
    let big = buffers::storage(&ctx, "big", (t * b * gh) as u64 * 4);
    let big2 = buffers::storage(&ctx, "big2", (t * b * gh) as u64 * 4);
    let out = buffers::storage(&ctx, "out", (t * b * gh) as u64 * 4);
    let tokens = buffers::storage(&ctx, "tokens", (b * t) as u64 * 4);
    let lengths =
        buffers::storage_with(&ctx, "lengths", bytemuck::cast_slice(&vec![t; b as usize]));
    time_kernel::<Matmul>(
        &ctx,
        "matmul recurrent [64,128]x[128,512]^T",
        &[&big, &big2, &out],
        MatmulDims::packed(b, gh, h, false, true),
        19,
    );
    time_kernel::<Matmul>(
        &ctx,
        "matmul dh [64,512]x[512,128]",
        &[&big, &big2, &out],
        MatmulDims::packed(b, h, gh, false, false),
        19,
    );
    time_kernel::<Matmul>(
        &ctx,
        "matmul dW_hh [512,1216]x[1216,128]",
        &[&big, &big2, &out],
        MatmulDims::packed(gh, h, t * b, true, false),
        3,
    );
    let cs = ColSumDims {
        rows: t * b,
        cols: gh,
        in_offset: 0,
        ld: gh,
        out_offset: 0,
        accumulate: 0,
        _pad: [0; 2],
    };
    time_kernel::<ColSum>(&ctx, "col_sum [1216,512]", &[&big, &out], cs, 3);
    let og = OnehotGradDims {
        batch: b,
        seq_len: t,
        gate_rows: gh,
        input_size: 57,
        w_ih_offset: 0,
        b_ih_offset: 0,
        _pad: [0; 2],
    };
    time_kernel::<OnehotWeightGrad>(
        &ctx,
        "onehot_weight_grad",
        &[&tokens, &lengths, &big, &out],
        og,
        3,
    );
}

use unroll_core::gpu::{GpuRnnModule, ModuleInputs};

/// Forward + backward of a bare module (dense input 57, hidden 128, batch 64, seq_len 20), the
/// GPU column of the benchmark table: seconds per iteration and achieved GFLOP/s, with
/// FLOPs = 6·T·B·G·H·(I + H) (forward projections and recurrent products, then the gradients
/// of h, W_hh, W_ih and x).
fn module_forward_backward_time_hidden128_batch64_seq20() {
    let ctx = context();
    let (i, h, b, t) = (57usize, 128usize, 64usize, 20usize);
    for cell in CellKind::ALL {
        let spec = RnnSpec::new(cell, i, h);
        let layout = ParamLayout::rnn(&spec, "");
        let mut r = rng(3);
        let params = random_params(&mut r, layout.total_len(), h);
        let x = random_params(&mut r, t * b * i, 1);
        let d_output = random_params(&mut r, t * b * h, 1);
        let mut m = GpuRnnModule::new(&ctx, spec, &params, b, t).unwrap();
        let inputs = ModuleInputs {
            seq_len: t,
            batch: b,
            input: &x,
            lengths: None,
            h0: None,
            c0: None,
            d_output: &d_output,
            d_h_n: None,
            d_c_n: None,
        };
        block(m.forward_backward(&inputs)).unwrap();
        let iters = 5;
        let start = Instant::now();
        for _ in 0..iters {
            block(m.forward_backward(&inputs)).unwrap();
        }
        let secs = start.elapsed().as_secs_f64() / iters as f64;
        let flops = 6.0 * (t * b * cell.gates() * h * (i + h)) as f64;
        println!(
            "{:<5} GPU {:.4} s/iteration  {:.2} GFLOP/s  ({})",
            cell.as_str(),
            secs,
            flops / secs / 1e9,
            ctx.description()
        );
    }
}
