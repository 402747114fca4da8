//! A bare recurrent module (`nn.RNN` / `nn.LSTM` / `nn.GRU`, any `num_layers`,
//! `bidirectional`) run forward and backward in the WGSL kernels: the GPU counterpart of
//! `math::recurrent::RnnModule`, used to check the kernels against every PyTorch module fixture.
//!
//! Sequences are time-major `[T, B, ·]`; `batch_first` is a host-side transpose at the caller.
//! Packed-sequence semantics with `lengths` (PyTorch's `pack_padded_sequence`): steps at or past
//! `lengths[b]` do not exist for sample b, its `h_n`/`c_n` come from its own last step, the
//! reverse direction starts there, and `output` is 0 at padded positions.

use super::buffers::{self, PendingMap};
use super::context::GpuContext;
use super::error::GpuError;
use super::kernels::UniformArena;
use super::recurrent::{self, GpuRecurrent, InputKind, StateSources};
use crate::math::params::{ParamLayout, RnnSpec};

/// One forward + backward call. Shapes use `T = seq_len`, `B = batch`, `L·D` layer-directions.
#[derive(Clone, Copy, Debug)]
pub struct ModuleInputs<'a> {
    /// T.
    pub seq_len: usize,
    /// B.
    pub batch: usize,
    /// `[T, B, I]` input (time-major).
    pub input: &'a [f32],
    /// `[B]` lengths in `1..=T`; `None` = every sample has T steps.
    pub lengths: Option<&'a [u32]>,
    /// `[L·D, B, H]` initial hidden state; `None` = zeros.
    pub h0: Option<&'a [f32]>,
    /// `[L·D, B, H]` initial cell state (LSTM); `None` = zeros.
    pub c0: Option<&'a [f32]>,
    /// `[T, B, D·H]` ∂L/∂output.
    pub d_output: &'a [f32],
    /// `[L·D, B, H]` ∂L/∂h_n; `None` = zeros.
    pub d_h_n: Option<&'a [f32]>,
    /// `[L·D, B, H]` ∂L/∂c_n (LSTM); `None` = zeros.
    pub d_c_n: Option<&'a [f32]>,
}

/// What one call computed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModuleOutputs {
    /// `[T, B, D·H]` (0 at padded positions).
    pub output: Vec<f32>,
    /// `[L·D, B, H]`.
    pub h_n: Vec<f32>,
    /// `[L·D, B, H]` (LSTM only).
    pub c_n: Option<Vec<f32>>,
    /// `[P]` ∂L/∂params in [`ParamLayout::rnn`]`(spec, "")` order.
    pub param_grads: Vec<f32>,
    /// `[T, B, I]` ∂L/∂input.
    pub d_input: Vec<f32>,
    /// `[L·D, B, H]` ∂L/∂h0.
    pub d_h0: Vec<f32>,
    /// `[L·D, B, H]` ∂L/∂c0 (LSTM only).
    pub d_c0: Option<Vec<f32>>,
}

/// A recurrent module's parameters and buffers on the GPU.
#[derive(Debug)]
pub struct GpuRnnModule {
    ctx: GpuContext,
    spec: RnnSpec,
    layout: ParamLayout,
    rnn: GpuRecurrent,
    grads: wgpu::Buffer,
    h0: wgpu::Buffer,
    c0: wgpu::Buffer,
    d_h_n: wgpu::Buffer,
    d_c_n: wgpu::Buffer,
    d_output: wgpu::Buffer,
    arena: UniformArena,
}

/// Copies gathered into one staging buffer: (source, byte offset, bytes) in order.
struct ReadPlan<'a> {
    parts: Vec<(&'a wgpu::Buffer, u64, u64)>,
}

impl<'a> ReadPlan<'a> {
    fn push(&mut self, src: &'a wgpu::Buffer, offset: u64, bytes: u64) {
        self.parts.push((src, offset, bytes));
    }
}

fn check_len(what: &str, data: &[f32], shape: &[usize]) -> Result<(), GpuError> {
    let expected: usize = shape.iter().product();
    if data.len() != expected {
        return Err(GpuError::InvalidInput(format!(
            "{what}: expected shape {shape:?} ({expected} values), got {} values",
            data.len()
        )));
    }
    Ok(())
}

impl GpuRnnModule {
    /// Uploads `params` (`[P]` in [`ParamLayout::rnn`]`(spec, "")` order) and allocates for
    /// up to `max_batch` sequences of up to `max_seq_len` steps of dense input.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] for a wrong parameter count or a zero size;
    /// [`GpuError::TooLarge`] beyond the device's buffer limits; device errors.
    pub fn new(
        ctx: &GpuContext,
        spec: RnnSpec,
        params: &[f32],
        max_batch: usize,
        max_seq_len: usize,
    ) -> Result<GpuRnnModule, GpuError> {
        ctx.check()?;
        let layout = ParamLayout::rnn(&spec, "");
        if params.len() != layout.total_len() {
            return Err(GpuError::InvalidInput(format!(
                "expected {} parameters, got {}",
                layout.total_len(),
                params.len()
            )));
        }
        let p = layout.total_len() as u64 * 4;
        let params_buf = buffers::storage_with(ctx, "module.params", bytemuck::cast_slice(params));
        let grads = buffers::storage(ctx, "module.grads", p);
        let state =
            (spec.num_layers * spec.num_directions() * max_batch * spec.hidden_size * 4) as u64;
        let seq_out =
            (max_seq_len * max_batch * spec.num_directions() * spec.hidden_size * 4) as u64;
        let arena = UniformArena::new(
            ctx,
            "module.uniforms",
            recurrent::records_per_pass(&spec) + 8,
        );
        let rnn = GpuRecurrent::new(
            ctx,
            spec,
            &layout,
            "",
            InputKind::Dense,
            &params_buf,
            &grads,
            &arena,
            max_batch,
            max_seq_len,
        )?;
        let module = GpuRnnModule {
            ctx: ctx.clone(),
            spec,
            layout,
            rnn,
            grads,
            h0: buffers::storage(ctx, "module.h0", state),
            c0: buffers::storage(ctx, "module.c0", state),
            d_h_n: buffers::storage(ctx, "module.d_h_n", state),
            d_c_n: buffers::storage(ctx, "module.d_c_n", state),
            d_output: buffers::storage(ctx, "module.d_output", seq_out),
            arena,
        };
        ctx.check()?;
        Ok(module)
    }

    /// The parameter layout (PyTorch names, no prefix).
    pub fn layout(&self) -> &ParamLayout {
        &self.layout
    }

    /// `batch × seq_len` within the sizes given to [`new`](Self::new).
    fn fits(&self, batch: usize, seq_len: usize) -> Result<(), GpuError> {
        let (max_b, max_t) = self.rnn.capacity();
        if batch == 0 || seq_len == 0 || batch > max_b || seq_len > max_t {
            return Err(GpuError::InvalidInput(format!(
                "batch {batch} × seq_len {seq_len} is outside 1..={max_b} × 1..={max_t}"
            )));
        }
        Ok(())
    }

    /// Uploads a dense input `[T, B, I]` for [`forward_sum`](Self::forward_sum) (every sample
    /// `seq_len` steps long).
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] for a shape beyond the sizes given to [`new`](Self::new) or
    /// an input of another length; device errors.
    pub fn load_input(&self, seq_len: usize, batch: usize, input: &[f32]) -> Result<(), GpuError> {
        self.ctx.check()?;
        self.fits(batch, seq_len)?;
        check_len("input", input, &[seq_len, batch, self.spec.input_size])?;
        let q = &self.ctx.queue;
        q.write_buffer(
            &self.rnn.lengths,
            0,
            bytemuck::cast_slice(&vec![seq_len as u32; batch]),
        );
        q.write_buffer(
            self.rnn.x.as_ref().expect("dense module has x"),
            0,
            bytemuck::cast_slice(input),
        );
        Ok(())
    }

    /// The forward pass alone over the input last loaded ([`load_input`](Self::load_input)),
    /// from zero initial states: one submission (per layer and direction the input projection
    /// and one dispatch of the whole-sequence kernel, whose `seq_len` steps run one after
    /// another inside it), then the read-back of `h_n` `[L·D, B, H]`, returned summed.
    ///
    /// # Errors
    /// As [`load_input`](Self::load_input); device errors.
    pub async fn forward_sum(&mut self, seq_len: usize, batch: usize) -> Result<f32, GpuError> {
        self.ctx.check()?;
        self.fits(batch, seq_len)?;
        self.arena.clear();
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("module.forward"),
            });
        let none = StateSources {
            h0: None,
            c0: None,
            d_h_n: None,
            d_c_n: None,
        };
        self.rnn
            .encode_init(&mut encoder, batch, seq_len, none, None, false);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("module.forward"),
                timestamp_writes: None,
            });
            self.rnn
                .encode_forward(&mut pass, &mut self.arena, batch, seq_len)?;
        }
        let bh = (batch * self.spec.hidden_size * 4) as u64;
        let total = bh * self.rnn.dirs.len() as u64;
        let staging = buffers::staging(&self.ctx, "module.h_n", total);
        for (k, d) in self.rnn.dirs.iter().enumerate() {
            encoder.copy_buffer_to_buffer(
                &d.h_cache,
                seq_len as u64 * bh,
                &staging,
                k as u64 * bh,
                bh,
            );
        }
        self.arena.upload(&self.ctx.queue);
        self.ctx.submit(encoder);
        let (bytes, _) = PendingMap::start(&self.ctx, staging, total)
            .finish(&self.ctx)
            .await?;
        self.ctx.check()?;
        let h_n: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes);
        Ok(h_n.iter().sum())
    }

    /// Runs the module forward over `inputs` and back-propagates `d_output`, `d_h_n`,
    /// `d_c_n`: one submission, one readback.
    ///
    /// # Errors
    /// [`GpuError::InvalidInput`] for a shape that does not match (the message gives the
    /// expected shape and the received length), a length outside `1..=T`, or sizes beyond
    /// those given to [`new`](Self::new); device errors.
    pub async fn forward_backward(
        &mut self,
        x: &ModuleInputs<'_>,
    ) -> Result<ModuleOutputs, GpuError> {
        self.ctx.check()?;
        let (t, b) = (x.seq_len, x.batch);
        let (l_d, h, i) = (
            self.spec.num_layers * self.spec.num_directions(),
            self.spec.hidden_size,
            self.spec.input_size,
        );
        let dh = self.spec.num_directions() * h;
        self.fits(b, t)?;
        check_len("input", x.input, &[t, b, i])?;
        check_len("grad of output", x.d_output, &[t, b, dh])?;
        let lstm = self.spec.cell.spec().has_cell_state;
        for (what, data, cell_state) in [
            ("h0", x.h0, false),
            ("grad of h_n", x.d_h_n, false),
            ("c0", x.c0, true),
            ("grad of c_n", x.d_c_n, true),
        ] {
            if let Some(d) = data {
                if cell_state && !lstm {
                    return Err(GpuError::InvalidInput(format!("{what} is only for LSTM")));
                }
                check_len(what, d, &[l_d, b, h])?;
            }
        }
        let all = vec![t as u32; b];
        let lengths = x.lengths.unwrap_or(&all);
        if lengths.len() != b {
            return Err(GpuError::InvalidInput(format!(
                "lengths: expected {b} values, got {}",
                lengths.len()
            )));
        }
        if let Some((k, l)) = lengths
            .iter()
            .enumerate()
            .find(|(_, &l)| l == 0 || l as usize > t)
        {
            return Err(GpuError::InvalidInput(format!(
                "lengths[{k}] = {l} is outside 1..={t}"
            )));
        }
        let q = &self.ctx.queue;
        q.write_buffer(&self.rnn.lengths, 0, bytemuck::cast_slice(lengths));
        q.write_buffer(
            self.rnn.x.as_ref().expect("dense module has x"),
            0,
            bytemuck::cast_slice(x.input),
        );
        q.write_buffer(&self.d_output, 0, bytemuck::cast_slice(x.d_output));
        let write = |buf: &wgpu::Buffer, data: Option<&[f32]>| {
            data.map(|d| {
                q.write_buffer(buf, 0, bytemuck::cast_slice(d));
            })
            .is_some()
        };
        let states_given = [
            write(&self.h0, x.h0),
            write(&self.c0, x.c0),
            write(&self.d_h_n, x.d_h_n),
            write(&self.d_c_n, x.d_c_n),
        ];
        let states = StateSources {
            h0: states_given[0].then_some(&self.h0),
            c0: states_given[1].then_some(&self.c0),
            d_h_n: states_given[2].then_some(&self.d_h_n),
            d_c_n: states_given[3].then_some(&self.d_c_n),
        };

        self.arena.clear();
        let mut encoder = self
            .ctx
            .device
            .create_command_encoder(&wgpu::CommandEncoderDescriptor {
                label: Some("module.forward_backward"),
            });
        self.rnn
            .encode_init(&mut encoder, b, t, states, Some(&self.d_output), true);
        {
            let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
                label: Some("module.forward_backward"),
                timestamp_writes: None,
            });
            self.rnn.encode_forward(&mut pass, &mut self.arena, b, t)?;
            self.rnn.encode_backward(&mut pass, &mut self.arena, b, t)?;
        }
        // One staging buffer for everything read back, in this order.
        let (bh, seq) = ((b * h * 4) as u64, (t * b * 4) as u64);
        let mut plan = ReadPlan { parts: Vec::new() };
        let top = self.rnn.outputs.len() - 1;
        plan.push(&self.rnn.outputs[top], 0, seq * dh as u64);
        for d in &self.rnn.dirs {
            plan.push(&d.h_cache, t as u64 * bh, bh);
        }
        for d in &self.rnn.dirs {
            if let Some(c) = &d.c_cache {
                plan.push(c, t as u64 * bh, bh);
            }
        }
        plan.push(&self.grads, 0, self.layout.total_len() as u64 * 4);
        plan.push(
            self.rnn.d_x.as_ref().expect("dense module has d_x"),
            0,
            seq * i as u64,
        );
        for d in &self.rnn.dirs {
            plan.push(&d.d_state, 0, bh);
        }
        if lstm {
            for d in &self.rnn.dirs {
                plan.push(&d.d_state, bh, bh);
            }
        }
        let total: u64 = plan.parts.iter().map(|p| p.2).sum();
        let staging = buffers::staging(&self.ctx, "module.readback", total);
        let mut at = 0;
        for (src, offset, bytes) in &plan.parts {
            encoder.copy_buffer_to_buffer(src, *offset, &staging, at, *bytes);
            at += bytes;
        }
        self.arena.upload(q);
        self.ctx.submit(encoder);
        let (bytes, _) = PendingMap::start(&self.ctx, staging, total)
            .finish(&self.ctx)
            .await?;
        self.ctx.check()?;
        let all: Vec<f32> = bytemuck::pod_collect_to_vec(&bytes);
        let mut rest = all.as_slice();
        let mut take = |n: usize| {
            let (head, tail) = rest.split_at(n);
            rest = tail;
            head.to_vec()
        };
        let state_len = l_d * b * h;
        Ok(ModuleOutputs {
            output: take(t * b * dh),
            h_n: take(state_len),
            c_n: lstm.then(|| take(state_len)),
            param_grads: take(self.layout.total_len()),
            d_input: take(t * b * i),
            d_h0: take(state_len),
            d_c0: lstm.then(|| take(state_len)),
        })
    }
}
