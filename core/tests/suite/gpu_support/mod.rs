//! Shared helpers of the GPU tests: a context (the tests FAIL without an adapter; the adapter
//! is printed once), blocking on futures natively, random test data (tolerances: `tol`), and
//! a small names data set for the training tests.

use std::sync::{Arc, Once};

use unroll_core::data::names::NamesDataset;

use unroll_core::gpu::GpuContext;

static PRINT_ADAPTER: Once = Once::new();

/// A GPU context on this machine's Vulkan adapter (lavapipe in CI). Panics — failing the
/// test — when there is none: a GPU test never passes silently without a GPU.
pub fn context() -> GpuContext {
    let ctx = pollster::block_on(GpuContext::new()).unwrap_or_else(|e| {
        panic!("GPU tests need a Vulkan adapter (mesa-vulkan-drivers provides lavapipe): {e}")
    });
    PRINT_ADAPTER.call_once(|| {
        eprintln!(
            "GPU adapter: {} ({:?})",
            ctx.description(),
            ctx.adapter_info.backend
        )
    });
    ctx
}

/// Runs a future to completion (native tests only).
pub fn block<F: std::future::Future>(f: F) -> F::Output {
    pollster::block_on(f)
}

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use unroll_core::math::model::SeqBatch;

/// A seeded RNG for test data.
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A random one-hot batch: lengths uniform in `1..=seq_len` with one row of full length
/// (so T = max(lengths)), symbols uniform in `0..vocab` (0 at padding), labels in `0..classes`.
pub fn random_batch(
    rng: &mut ChaCha8Rng,
    batch: usize,
    seq_len: usize,
    vocab: usize,
    classes: usize,
) -> SeqBatch {
    let mut lengths: Vec<u32> = (0..batch)
        .map(|_| rng.random_range(1..=seq_len as u32))
        .collect();
    let full = rng.random_range(0..batch);
    lengths[full] = seq_len as u32;
    let mut tokens = vec![0u32; batch * seq_len];
    for b in 0..batch {
        for t in 0..lengths[b] as usize {
            tokens[b * seq_len + t] = rng.random_range(0..vocab as u32);
        }
    }
    let labels = (0..batch)
        .map(|_| rng.random_range(0..classes as u32))
        .collect();
    SeqBatch::of_batch_first(batch, seq_len, &tokens, lengths, labels)
}

/// PyTorch's default init U(−1/√H, 1/√H) for every parameter, seeded.
pub fn random_params(rng: &mut ChaCha8Rng, len: usize, hidden: usize) -> Vec<f32> {
    let k = 1.0 / (hidden as f32).sqrt();
    (0..len).map(|_| rng.random_range(-k..k)).collect()
}

use unroll_core::gpu::buffers;
use unroll_core::gpu::kernels::cell_sequence::{self, CellBuffer, CellPass, CellSequence};
use unroll_core::gpu::kernels::{Dispatch, Kernel, KernelSpec, SequenceDims, UniformArena};
use unroll_core::math::cell::CellKind;

/// Runs kernel `S` once per entry of `dims` (in order, one submission) over storage buffers
/// initialised with `storage` (binding 1.. in order, raw bytes), and returns every storage
/// buffer's contents afterwards as f32 bit patterns (use [`as_u32`] for u32 buffers).
pub fn run_kernel<S: KernelSpec>(
    ctx: &GpuContext,
    storage: &[Vec<u8>],
    dims: &[S::Dims],
) -> Vec<Vec<f32>> {
    run_built(ctx, &Kernel::<S>::new(ctx), S::NAME, storage, dims)
}

/// [`run_kernel`] for `cell`'s sequence kernel of `pass`: each binding of
/// `cell_sequence::bindings` starts with `init(buffer)`; returns every buffer's contents
/// afterwards, by buffer.
pub fn run_cell_kernel(
    ctx: &GpuContext,
    cell: CellKind,
    pass: CellPass,
    init: impl Fn(CellBuffer) -> Vec<u8>,
    dims: &[SequenceDims],
) -> CellOutputs {
    let spec = cell.spec();
    // Workgroup memory for the most rows a workgroup of these dispatches owns.
    let rows = dims
        .iter()
        .map(|d| d.rows_per_group as usize)
        .max()
        .unwrap_or(1);
    let hidden = dims.iter().map(|d| d.hidden as usize).max().unwrap_or(1);
    let kernel = Kernel::<CellSequence>::for_cell(ctx, spec, pass, hidden, rows);
    let names: Vec<CellBuffer> = cell_sequence::bindings(spec, pass)
        .into_iter()
        .map(|(b, _)| b)
        .collect();
    let storage: Vec<Vec<u8>> = names.iter().map(|&b| init(b)).collect();
    let name = cell_sequence::kernel_name(spec, pass);
    CellOutputs(
        names
            .into_iter()
            .zip(run_built(ctx, &kernel, name, &storage, dims))
            .collect(),
    )
}

/// The buffers of one [`run_cell_kernel`], by name.
pub struct CellOutputs(Vec<(CellBuffer, Vec<f32>)>);

impl CellOutputs {
    /// The contents of `buffer`, if the kernel binds it.
    pub fn get(&self, buffer: CellBuffer) -> Option<&[f32]> {
        self.0
            .iter()
            .find(|(b, _)| *b == buffer)
            .map(|(_, v)| v.as_slice())
    }
    /// The contents of `buffer`, which the kernel binds.
    pub fn of(&self, buffer: CellBuffer) -> &[f32] {
        self.get(buffer)
            .unwrap_or_else(|| panic!("the kernel does not bind {buffer:?}"))
    }
}

fn run_built<S: Dispatch>(
    ctx: &GpuContext,
    kernel: &Kernel<S>,
    name: &str,
    storage: &[Vec<u8>],
    dims: &[S::Dims],
) -> Vec<Vec<f32>> {
    let bufs: Vec<wgpu::Buffer> = storage
        .iter()
        .enumerate()
        .map(|(i, d)| buffers::storage_with(ctx, &format!("{name}.{i}"), d))
        .collect();
    let refs: Vec<&wgpu::Buffer> = bufs.iter().collect();
    let mut arena = UniformArena::new(ctx, "test.uniforms", dims.len());
    let group = kernel.bind(ctx, name, &arena, &refs);
    let mut encoder = ctx.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        for d in dims {
            kernel.encode(&mut pass, &group, &mut arena, *d).unwrap();
        }
    }
    arena.upload(&ctx.queue);
    ctx.queue.submit([encoder.finish()]);
    let out = storage
        .iter()
        .zip(&bufs)
        .map(|(d, b)| block(buffers::read_f32(ctx, b, 0, d.len() / 4)).unwrap())
        .collect();
    ctx.check().unwrap();
    out
}

/// Bytes of an f32 slice.
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    bytemuck::cast_slice(v).to_vec()
}

/// Bytes of a u32 slice.
pub fn u32_bytes(v: &[u32]) -> Vec<u8> {
    bytemuck::cast_slice(v).to_vec()
}

/// Reinterprets f32 bit patterns read back from a u32 buffer.
pub fn as_u32(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// `len` values uniform in `[-scale, scale)`.
pub fn random_vec(rng: &mut ChaCha8Rng, len: usize, scale: f32) -> Vec<f32> {
    (0..len).map(|_| rng.random_range(-scale..scale)).collect()
}

/// A small names data set: three languages of 60 different names each, built from their own
/// letters.
pub fn small_names() -> Arc<NamesDataset> {
    let class = |letters: &str, salt: u64| -> String {
        let l: Vec<char> = letters.chars().collect();
        let mut x = salt;
        let mut next = move || {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) as usize
        };
        (0..60)
            .map(|_| {
                let len = 3 + next() % 6;
                (0..len).map(|_| l[next() % l.len()]).collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    Arc::new(
        NamesDataset::from_class_files([
            ("Aa", class("aeiouy", 1).as_str()),
            ("Bb", class("bcdfgh", 2).as_str()),
            ("Cc", class("klmnpr", 3).as_str()),
        ])
        .unwrap(),
    )
}
