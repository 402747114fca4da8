//! One module per WGSL kernel in `shaders/` (same name), each describing its uniform struct
//! (a `#[repr(C)]` twin of the WGSL struct), its storage bindings in binding order, and its
//! dispatch size.
//!
//! Binding convention (every kernel): `@group(0) @binding(0)` is the kernel's uniform struct,
//! bound with a dynamic offset into a [`UniformArena`] (all dispatches of one submission get
//! their own 256-byte record, written once before the submit); bindings 1.. are storage
//! buffers, read-only inputs first, then read-write outputs. Labels are the kernel names.

use std::marker::PhantomData;
use std::num::NonZeroU64;
use std::sync::Arc;

use bytemuck::{Pod, Zeroable};

use super::context::{Counters, GpuContext, PipelineKey};
use super::error::GpuError;
use super::shader_source;
use crate::math::cell::CellKind;
use cell_sequence::CellPass;

/// Declares a kernel: the unit struct `$name` (with its doc, which lists the bindings) and its
/// [`KernelSpec`]: the WGSL file and entry point `$file`, the storage bindings' access in order,
/// the uniform type and the workgroup grid (`|dims, max_per_dim| grid`).
macro_rules! kernel {
    (
        $(#[$doc:meta])*
        $name:ident = $file:literal, [$($access:ident),* $(,)?], $dims:ty,
        |$d:tt, $max:tt| $grid:expr $(,)?
    ) => {
        $(#[$doc])*
        #[derive(Debug)]
        pub struct $name;

        impl $crate::gpu::kernels::KernelSpec for $name {
            const NAME: &'static str = $file;
            const STORAGE: &'static [$crate::gpu::kernels::Access] =
                &[$($crate::gpu::kernels::Access::$access),*];
            type Dims = $dims;
            fn workgroups(
                $d: &$dims,
                $max: u32,
            ) -> Result<[u32; 3], $crate::gpu::error::GpuError> {
                $grid
            }
        }
    };
}

pub mod activation;
pub mod adam_update;
pub mod cell_sequence;
pub mod classifier_head;
pub mod clip_grad_norm;
pub mod col_sum;
pub mod input_projection;
pub mod last_step;
pub mod matmul;
pub mod onehot_weight_grad;
pub mod pack_w_hh;

/// Invocations per workgroup of the 1-D kernels (`WG_1D` in `common.wgsl`).
pub const WG_1D: u32 = 256;

/// Byte stride between uniform records in a [`UniformArena`]: WebGPU's default
/// `minUniformBufferOffsetAlignment` (the largest value an implementation may require).
pub const UNIFORM_STRIDE: u64 = 256;

/// How a kernel accesses one storage binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// `var<storage, read>`.
    Read,
    /// `var<storage, read_write>`.
    ReadWrite,
}

/// How a kernel is dispatched: its uniform struct and its grid.
pub trait Dispatch {
    /// The uniform struct bound at binding 0 (`#[repr(C)]` twin of the WGSL struct).
    type Dims: Pod;
    /// Workgroups to dispatch for `dims`.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] when even a 2-D grid exceeds `max_per_dim` workgroups per dimension.
    fn workgroups(dims: &Self::Dims, max_per_dim: u32) -> Result<[u32; 3], GpuError>;
}

/// Static description of one kernel: name, uniform struct, storage bindings, dispatch size.
/// (The cells' sequence kernels take their names and bindings from the cell's descriptor
/// instead: [`cell_sequence`].)
pub trait KernelSpec {
    /// Kernel name = `shaders/{NAME}.wgsl` = entry point = label.
    const NAME: &'static str;
    /// Storage bindings 1.. in order.
    const STORAGE: &'static [Access];
    /// The uniform struct bound at binding 0 (`#[repr(C)]` twin of the WGSL struct).
    type Dims: Pod;
    /// Workgroups to dispatch for `dims`.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] when even a 2-D grid exceeds `max_per_dim` workgroups per dimension.
    fn workgroups(dims: &Self::Dims, max_per_dim: u32) -> Result<[u32; 3], GpuError>;
}

impl<S: KernelSpec> Dispatch for S {
    type Dims = S::Dims;
    fn workgroups(dims: &S::Dims, max_per_dim: u32) -> Result<[u32; 3], GpuError> {
        S::workgroups(dims, max_per_dim)
    }
}

/// Invocations per workgroup of the whole-sequence cell kernels (`WG_SEQ` in `common.wgsl`):
/// also the largest hidden size they take (one slot of invocations holds every hidden unit).
pub const WG_SEQ: u32 = 256;

/// Most batch rows one invocation of a whole-sequence kernel computes (`ROWS_PER_LANE_MAX` in
/// `common.wgsl`: the size of its register arrays).
pub const ROWS_PER_LANE_MAX: u32 = 8;

/// Most (batch row, hidden unit) slots one workgroup of a whole-sequence kernel holds, `R·⌈H/4⌉·4`
/// (`SEQ_ROWS_UNITS` in `common.wgsl`): the LSTM backward keeps `[R, 4H]` gate gradients in
/// workgroup memory, 16 KiB at this bound (WebGPU's guaranteed workgroup storage).
pub const SEQ_ROWS_UNITS: u32 = 1024;

/// Most floats of the whole-sequence kernels' workgroup memory, `4·`[`SEQ_ROWS_UNITS`]
/// (`SEQ_SHARED_FLOATS_MAX` in `common.wgsl`); each pipeline sizes it to its rows
/// ([`cell_sequence::shared_floats`]).
pub const SEQ_SHARED_FLOATS_MAX: u32 = 4 * SEQ_ROWS_UNITS;

/// Most parts sharing one slot's product in the whole-sequence kernels (`SPLIT_MAX` in
/// `common.wgsl`): BPTT's second part writes its partial sums where part 0's gradients are.
pub const SPLIT_MAX: u32 = 2;

/// The uniform of the whole-sequence cell kernels (`SequenceDims` in `common.wgsl`): one
/// dispatch runs one (layer, direction) over all `seq_len` steps. Caches are indexed by step
/// `s`, inputs/outputs by time `t`: the forward direction processes `t = s`, the reverse
/// direction `t = lengths[b] − 1 − s` (packed-sequence semantics). A workgroup owns
/// `rows_per_group` batch rows R; invocation `(part·slots + slot)·H + j` (slots = ⌈R/RI⌉) owns
/// hidden unit `j` of the `rows_per_lane` rows RI from `slot·RI` on, so each weight it loads
/// serves RI rows; `split` parts share a slot's product (BPTT sums its `G·H` gate rows in
/// `split` shares).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct SequenceDims {
    /// B.
    pub batch: u32,
    /// H (at most [`WG_SEQ`]).
    pub hidden: u32,
    /// T: steps of the loop.
    pub seq_len: u32,
    /// Batch rows per workgroup R (`R·⌈H/4⌉·4 ≤` [`SEQ_ROWS_UNITS`]).
    pub rows_per_group: u32,
    /// Batch rows per invocation RI (1..=[`ROWS_PER_LANE_MAX`]).
    pub rows_per_lane: u32,
    /// Parts sharing a slot's product (1..=[`SPLIT_MAX`]; `split·⌈R/RI⌉·H ≤` [`WG_SEQ`]).
    pub split: u32,
    /// RNN: 0 tanh, 1 relu; otherwise unused.
    pub nonlinearity: u32,
    /// 1 for the reverse direction.
    pub reverse: u32,
    /// Row width of `output` / `d_output`: D·H.
    pub out_stride: u32,
    /// This direction's first column in those rows: direction·H.
    pub out_offset: u32,
    /// Padding to the WGSL struct's size.
    pub _pad: [u32; 2],
}

/// Grid for a 1-D kernel over `n` invocations of `WG_1D`-wide workgroups: one row while it
/// fits in `max_per_dim` workgroups, otherwise rows of `max_per_dim` (the kernel's
/// `linear_index` folds them back; surplus invocations return at their bounds check).
///
/// # Errors
/// [`GpuError::TooLarge`] above `max_per_dim²` workgroups.
pub fn grid_1d(n: u64, max_per_dim: u32) -> Result<[u32; 3], GpuError> {
    let groups = n.div_ceil(WG_1D as u64);
    let max = max_per_dim as u64;
    if groups <= max {
        return Ok([groups as u32, 1, 1]);
    }
    let rows = groups.div_ceil(max);
    if rows > max {
        return Err(GpuError::TooLarge(format!(
            "{n} invocations need more than {max}×{max} workgroups"
        )));
    }
    Ok([max as u32, rows as u32, 1])
}

/// Workgroups along one axis of a tiled kernel, checked against the limit.
pub(crate) fn tiles(n: u32, tile: u32, max_per_dim: u32, what: &str) -> Result<u32, GpuError> {
    let t = n.div_ceil(tile);
    if t > max_per_dim {
        return Err(GpuError::TooLarge(format!(
            "{what}: {t} workgroups > {max_per_dim} per dimension"
        )));
    }
    Ok(t)
}

/// A compiled kernel: pipeline and explicit bind group layout.
#[derive(Debug)]
pub struct Kernel<S: Dispatch> {
    name: &'static str,
    storage_len: usize,
    pipeline: wgpu::ComputePipeline,
    layout: wgpu::BindGroupLayout,
    max_per_dim: u32,
    counters: Arc<Counters>,
    _spec: PhantomData<S>,
}

impl<S: KernelSpec> Kernel<S> {
    /// Compiles `shaders/{S::NAME}.wgsl` (with the prelude) and builds its layout.
    ///
    /// # Panics
    /// If the kernel is missing from the registry (a programming error caught by the tests).
    pub fn new(ctx: &GpuContext) -> Self {
        Self::build(ctx, S::NAME, S::STORAGE)
    }
}

impl<S: Dispatch> Kernel<S> {
    /// Compiles the registry's kernel `name` (`shader_source::kernel`) with the storage
    /// bindings `storage` (1.. in order).
    ///
    /// # Panics
    /// If the kernel is missing from the registry (a programming error caught by the tests).
    pub fn build(ctx: &GpuContext, name: &'static str, storage: &[Access]) -> Self {
        Self::build_with(ctx, name, storage, &[])
    }

    /// [`Kernel::build`] with values for the kernel's pipeline-overridable constants
    /// (`override` declarations in its WGSL), by name. A pipeline of the same kernel, storage
    /// bindings and values built on this device before is reused, not compiled again
    /// ([`GpuContext::pipelines_built`]).
    ///
    /// # Panics
    /// If the kernel is missing from the registry (a programming error caught by the tests).
    pub fn build_with(
        ctx: &GpuContext,
        name: &'static str,
        storage: &[Access],
        constants: &[(&str, f64)],
    ) -> Self {
        let (pipeline, layout) = pipeline_for(
            ctx,
            name,
            std::mem::size_of::<S::Dims>(),
            storage,
            constants,
        );
        Kernel {
            name,
            storage_len: storage.len(),
            pipeline,
            layout,
            max_per_dim: ctx.device.limits().max_compute_workgroups_per_dimension,
            counters: ctx.counters(),
            _spec: PhantomData,
        }
    }

    /// A bind group over `arena`'s uniform records and the storage buffers in binding order.
    ///
    /// # Panics
    /// If `storage.len()` differs from the kernel's storage binding count (a programming error).
    pub fn bind(
        &self,
        ctx: &GpuContext,
        label: &str,
        arena: &UniformArena,
        storage: &[&wgpu::Buffer],
    ) -> wgpu::BindGroup {
        assert_eq!(
            storage.len(),
            self.storage_len,
            "{}: wrong number of storage buffers",
            self.name
        );
        let mut entries = vec![wgpu::BindGroupEntry {
            binding: 0,
            resource: wgpu::BindingResource::Buffer(wgpu::BufferBinding {
                buffer: &arena.buffer,
                offset: 0,
                size: NonZeroU64::new(std::mem::size_of::<S::Dims>() as u64),
            }),
        }];
        for (i, b) in storage.iter().enumerate() {
            entries.push(wgpu::BindGroupEntry {
                binding: i as u32 + 1,
                resource: b.as_entire_binding(),
            });
        }
        ctx.device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some(label),
            layout: &self.layout,
            entries: &entries,
        })
    }

    /// Records `dims` in the arena and dispatches the kernel with it.
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] when the grid exceeds the device's limit, or the arena is full.
    pub fn encode(
        &self,
        pass: &mut wgpu::ComputePass<'_>,
        group: &wgpu::BindGroup,
        arena: &mut UniformArena,
        dims: S::Dims,
    ) -> Result<(), GpuError> {
        let [x, y, z] = S::workgroups(&dims, self.max_per_dim)?;
        let offset = arena.push(&dims)?;
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, group, &[offset]);
        pass.dispatch_workgroups(x, y, z);
        self.counters.dispatch();
        Ok(())
    }
}

/// One uniform buffer holding a 256-byte record per dispatch of a submission. Records are
/// appended while encoding and written with one `queue.write_buffer` before the submit, so
/// every dispatch reads its own parameters (rewriting one uniform between dispatches of one
/// submission would not work: queue writes land before the whole submission runs).
#[derive(Debug)]
pub struct UniformArena {
    buffer: wgpu::Buffer,
    data: Vec<u8>,
    capacity: usize,
}

impl UniformArena {
    /// An arena for at most `records` dispatches per submission.
    pub fn new(ctx: &GpuContext, label: &str, records: usize) -> Self {
        let size = (records.max(1) as u64) * UNIFORM_STRIDE;
        let buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        UniformArena {
            buffer,
            data: Vec::with_capacity(size as usize),
            capacity: records.max(1),
        }
    }

    /// Forgets all records (start of a new submission).
    pub fn clear(&mut self) {
        self.data.clear();
    }

    /// Appends one record and returns its byte offset (the dynamic offset to bind).
    ///
    /// # Errors
    /// [`GpuError::TooLarge`] when the arena is full.
    pub fn push<T: Pod>(&mut self, value: &T) -> Result<u32, GpuError> {
        let bytes = bytemuck::bytes_of(value);
        debug_assert!(bytes.len() as u64 <= UNIFORM_STRIDE);
        if self.data.len() / UNIFORM_STRIDE as usize >= self.capacity {
            return Err(GpuError::TooLarge(format!(
                "more than {} dispatches in one submission",
                self.capacity
            )));
        }
        let offset = self.data.len();
        self.data.extend_from_slice(bytes);
        self.data.resize(offset + UNIFORM_STRIDE as usize, 0);
        Ok(offset as u32)
    }

    /// Writes the records to the GPU (before the submit that uses them).
    pub fn upload(&self, queue: &wgpu::Queue) {
        if !self.data.is_empty() {
            queue.write_buffer(&self.buffer, 0, &self.data);
        }
    }

    /// Number of records pushed since the last [`clear`](Self::clear).
    pub fn len(&self) -> usize {
        self.data.len() / UNIFORM_STRIDE as usize
    }

    /// True when no record was pushed.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }
}

/// A kernel's reflection data for the validation test: name, uniform struct size, storage
/// bindings in order.
#[derive(Clone, Debug)]
pub struct KernelInfo {
    /// Kernel name.
    pub name: &'static str,
    /// `size_of` the Rust uniform twin, bytes.
    pub uniform_size: usize,
    /// Storage bindings 1.. in order.
    pub storage: Vec<Access>,
}

/// The pipeline and bind group layout of the registry's kernel `name` with a uniform of
/// `uniform_size` bytes, the storage bindings `storage` and the override values `constants`:
/// from the device's cache, or compiled and kept there. Not generic, so one copy serves every
/// kernel type.
///
/// # Panics
/// If the kernel is missing from the registry (a programming error caught by the tests).
fn pipeline_for(
    ctx: &GpuContext,
    name: &'static str,
    uniform_size: usize,
    storage: &[Access],
    constants: &[(&str, f64)],
) -> (wgpu::ComputePipeline, wgpu::BindGroupLayout) {
    let src = shader_source::kernel(name)
        .unwrap_or_else(|| panic!("kernel {name} is not in shader_source::KERNELS"));
    let key = PipelineKey {
        name,
        uniform_size,
        read_only: storage.iter().map(|a| *a == Access::Read).collect(),
        constants: constants
            .iter()
            .map(|(c, v)| (c.to_string(), v.to_bits()))
            .collect(),
    };
    ctx.pipeline(key, || {
        compile(ctx, name, src, uniform_size, storage, constants)
    })
}

/// Compiles `src` and builds its bind group layout: a uniform of `uniform_size` bytes at
/// binding 0, `storage` at 1.. in order.
fn compile(
    ctx: &GpuContext,
    name: &'static str,
    src: &shader_source::KernelSource,
    uniform_size: usize,
    storage: &[Access],
    constants: &[(&str, f64)],
) -> (wgpu::ComputePipeline, wgpu::BindGroupLayout) {
    let device = &ctx.device;
    let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some(name),
        source: wgpu::ShaderSource::Wgsl(src.source.into()),
    });
    let mut entries = vec![wgpu::BindGroupLayoutEntry {
        binding: 0,
        visibility: wgpu::ShaderStages::COMPUTE,
        ty: wgpu::BindingType::Buffer {
            ty: wgpu::BufferBindingType::Uniform,
            has_dynamic_offset: true,
            min_binding_size: NonZeroU64::new(uniform_size as u64),
        },
        count: None,
    }];
    for (i, access) in storage.iter().enumerate() {
        entries.push(wgpu::BindGroupLayoutEntry {
            binding: i as u32 + 1,
            visibility: wgpu::ShaderStages::COMPUTE,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage {
                    read_only: *access == Access::Read,
                },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        });
    }
    let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
        label: Some(name),
        entries: &entries,
    });
    let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
        label: Some(name),
        bind_group_layouts: &[Some(&layout)],
        immediate_size: 0,
    });
    let pipeline = device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
        label: Some(name),
        layout: Some(&pipeline_layout),
        module: &module,
        entry_point: Some(src.entry),
        compilation_options: wgpu::PipelineCompilationOptions {
            constants,
            ..Default::default()
        },
        cache: None,
    });
    (pipeline, layout)
}

fn info<S: KernelSpec>() -> KernelInfo {
    KernelInfo {
        name: S::NAME,
        uniform_size: std::mem::size_of::<S::Dims>(),
        storage: S::STORAGE.to_vec(),
    }
}

/// Reflection data of every kernel, in the order of [`shader_source::KERNELS`] (the cells'
/// sequence kernels in the order of [`CellKind::ALL`], forward before backward).
pub fn kernel_infos() -> Vec<KernelInfo> {
    let mut infos = vec![
        info::<activation::Activation>(),
        info::<matmul::Matmul>(),
        info::<input_projection::InputProjection>(),
        info::<pack_w_hh::PackWHh>(),
    ];
    for cell in CellKind::ALL {
        for pass in CellPass::BOTH {
            infos.push(KernelInfo {
                name: cell_sequence::kernel_name(cell.spec(), pass),
                uniform_size: std::mem::size_of::<SequenceDims>(),
                storage: cell_sequence::accesses(cell.spec(), pass),
            });
        }
    }
    infos.extend([
        info::<classifier_head::ClassifierHead>(),
        info::<last_step::LastStep>(),
        info::<onehot_weight_grad::OnehotWeightGrad>(),
        info::<col_sum::ColSum>(),
        info::<clip_grad_norm::ClipGradNorm>(),
        info::<adam_update::AdamUpdate>(),
    ]);
    infos
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One row while it fits, rows of 65535 workgroups beyond, an error past 65535².
    #[test]
    fn grid_1d_splits_large_dispatches_into_rows() {
        assert_eq!(grid_1d(0, 65535).unwrap(), [0, 1, 1]);
        assert_eq!(grid_1d(1, 65535).unwrap(), [1, 1, 1]);
        assert_eq!(grid_1d(256 * 65535, 65535).unwrap(), [65535, 1, 1]);
        assert_eq!(grid_1d(256 * 65535 + 1, 65535).unwrap(), [65535, 2, 1]);
        // Hidden 256 LSTM × batch 512 × seq_len 512 input projection: 268 M invocations.
        assert_eq!(grid_1d(512 * 512 * 1024, 65535).unwrap(), [65535, 17, 1]);
        assert!(matches!(
            grid_1d(256 * 65535 * 65536, 65535),
            Err(GpuError::TooLarge(_))
        ));
    }
}
