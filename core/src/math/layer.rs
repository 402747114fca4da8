//! One direction of one recurrent layer over a whole batch: the time loop, forward and BPTT,
//! for every cell, with packed-sequence semantics.
//!
//! Per time step the driver does the batched recurrent matmul `gh[B, G·H] = b_hh + h·W_hhᵀ`
//! and calls the cell's per-sample step ([`rnn`], [`lstm`], [`gru`]). The input projection
//! `gi[T, B, G·H] = b_ih + x·W_ihᵀ` is one matmul over all steps before the loop (for one-hot
//! tokens it is a column gather of `W_ih`). Backward runs the steps in the opposite order,
//! keeps the pre-activation gradients of all steps, and forms the weight gradients afterwards as
//! two matmuls over all `T·B` rows (`dW_hh += dGᵀ·h_prev`, `dW_ih += dGᵀ·x`).
//!
//! **Packed sequences** (`pack_padded_sequence` semantics): step `t` exists for sample `b` iff
//! `t < lengths[b]`. At a missing step the state is carried over unchanged, the output is 0
//! (written by the module), and no gradient reaches the weights or the input; the gradient of
//! the state passes through unchanged. So the reverse direction effectively starts at each
//! sample's own last step, and `h_n` is the state after each sample's own last step.
//!
//! **State slots.** `hs`/`cs` are `[T+1, B, H]`. The forward direction keeps `h0` in slot 0
//! and the state after time t in slot `t+1`; the reverse direction keeps `h0` in slot `T` and
//! the state after time t in slot `t`. Either way the states *fed into* steps `0..T` are one
//! contiguous block `[T, B, H]` in time order, which is what `dW_hh` needs.

use super::cell::{self, StepCache, StepGrads, StepIn, StepOut};
use super::linalg::{col_sum_acc, matmul_acc, matmul_tn_acc, swap_leading_axes};
use super::packed::{matmul_packed_acc, PackedMatrix};
use super::params::{CellKind, LayerOffsets, Nonlinearity};

/// The token that stands for a zero input vector (padding read by the model, e.g. the
/// classifier's `Head::Padded`): `W_ih·x = 0` there, so only the biases enter the gates, and no
/// gradient reaches `W_ih`.
pub const PAD_TOKEN: u32 = u32::MAX;

/// Pins one gate of one (layer, direction) to a constant, in every unit, at one step or all
/// steps (the inspector's "pin a gate"; see [`crate::math::recurrent::RnnModule::forward_time_major_pinned`]).
///
/// The value replaces the gate's activation after its nonlinearity and before it is used, e.g.
/// an LSTM forget gate pinned to 0 gives `c_t = i ⊙ g` (no memory of `c_{t−1}`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GatePin {
    /// Layer index l (0 = the layer reading the input).
    pub layer: usize,
    /// 0 forward, 1 reverse.
    pub direction: usize,
    /// Index in the cell's gate order: LSTM i=0 f=1 g=2 o=3; GRU r=0 z=1 n=2 (RNN has none).
    pub gate: usize,
    /// Time step (0-based, over the sequence the model reads); `None` = every step.
    pub step: Option<usize>,
    /// The activation value every unit of the gate takes.
    pub value: f32,
}

/// Which way one direction of a layer walks through time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// t = 0, 1, …, T−1 (PyTorch's direction 0).
    Forward,
    /// t = T−1, …, 0 (PyTorch's direction 1, parameters with the `_reverse` suffix).
    Reverse,
}

impl Direction {
    /// Direction 0 → `Forward`, anything else → `Reverse`.
    pub fn from_index(direction: usize) -> Direction {
        if direction == 0 {
            Direction::Forward
        } else {
            Direction::Reverse
        }
    }

    /// Time index of the `k`-th processed step.
    fn time_at(self, k: usize, seq_len: usize) -> usize {
        match self {
            Direction::Forward => k,
            Direction::Reverse => seq_len - 1 - k,
        }
    }

    /// Slot of the state fed into the step at time `t`.
    fn prev_slot(self, t: usize) -> usize {
        match self {
            Direction::Forward => t,
            Direction::Reverse => t + 1,
        }
    }

    /// Slot of the state produced by the step at time `t`.
    fn out_slot(self, t: usize) -> usize {
        match self {
            Direction::Forward => t + 1,
            Direction::Reverse => t,
        }
    }

    /// Slot of the initial state.
    fn initial_slot(self, seq_len: usize) -> usize {
        match self {
            Direction::Forward => 0,
            Direction::Reverse => seq_len,
        }
    }

    /// Slot of the final state (`h_n`).
    fn final_slot(self, seq_len: usize) -> usize {
        match self {
            Direction::Forward => seq_len,
            Direction::Reverse => 0,
        }
    }
}

/// A time-major input sequence of one layer.
#[derive(Clone, Copy, Debug)]
pub enum SeqInput<'a> {
    /// Dense features `[T, B, I]`.
    Dense(&'a [f32]),
    /// Symbol indices `[T, B]` standing for one-hot vectors of width `I` (the vocabulary size):
    /// `W_ih·x` is then column `sym` of `W_ih`. Entries at missing steps are never read.
    Tokens(&'a [u32]),
}

/// Batch geometry shared by all layers of one forward pass.
#[derive(Clone, Copy, Debug)]
pub struct SeqDims<'a> {
    /// Time steps T (the padded length).
    pub seq_len: usize,
    /// Samples B.
    pub batch: usize,
    /// `[B]` real lengths, each in `0..=T`; step t exists for sample b iff `t < lengths[b]`.
    pub lengths: &'a [u32],
}

impl SeqDims<'_> {
    /// Whether step `t` exists for sample `b`.
    #[inline]
    pub fn present(&self, t: usize, b: usize) -> bool {
        t < self.lengths[b] as usize
    }
}

/// A read-only view of `[T, B, ·]` rows with a column offset, e.g. one direction's half of the
/// gradient of a bidirectional output `[T, B, 2H]`.
#[derive(Clone, Copy, Debug)]
pub struct StridedRows<'a> {
    /// The whole buffer `[T, B, row_stride]`.
    pub data: &'a [f32],
    /// Elements per `(t, b)` row.
    pub row_stride: usize,
    /// First column of the view inside each row.
    pub offset: usize,
}

impl StridedRows<'_> {
    fn row(&self, index: usize, width: usize) -> &[f32] {
        &self.data[index * self.row_stride + self.offset..][..width]
    }
}

/// One (layer, direction) of a recurrent module: what it computes and where its weights live
/// in the flat parameter vector.
#[derive(Clone, Copy, Debug)]
pub struct LayerDirection {
    /// The cell.
    pub cell: CellKind,
    /// RNN only: tanh or ReLU.
    pub nonlinearity: Nonlinearity,
    /// Hidden width H.
    pub hidden_size: usize,
    /// Offsets of `weight_ih [G·H, I]`, `weight_hh [G·H, H]`, `bias_ih [G·H]`, `bias_hh [G·H]`.
    pub offsets: LayerOffsets,
    /// Forward or reverse in time.
    pub direction: Direction,
}

/// What [`LayerDirection::forward`] keeps for the backward pass (and for inspection).
#[derive(Clone, Debug)]
pub struct DirectionCache {
    direction: Direction,
    seq_len: usize,
    batch: usize,
    hidden: usize,
    gate_width: usize,
    /// `[T+1, B, H]` hidden states in slot order (module docs).
    hs: Vec<f32>,
    /// LSTM: `[T+1, B, H]` cell states in slot order; empty otherwise.
    cs: Vec<f32>,
    /// `[T, B, G·H]` gate activations (LSTM i, f, g, o; GRU r, z, n); empty for RNN.
    gates: Vec<f32>,
    /// LSTM: `tanh(c_t)`; GRU: `W_hn h + b_hn`; `[T, B, H]`; empty for RNN.
    aux: Vec<f32>,
}

impl DirectionCache {
    fn slot(&self, slot: usize, b: usize) -> std::ops::Range<usize> {
        let start = (slot * self.batch + b) * self.hidden;
        start..start + self.hidden
    }

    /// `[H]` hidden state produced at time `t` for sample `b` (equal to the carried state if
    /// step t does not exist for b).
    pub fn h_at(&self, t: usize, b: usize) -> &[f32] {
        &self.hs[self.slot(self.direction.out_slot(t), b)]
    }

    /// `[H]` LSTM cell state produced at time `t` for sample `b`; `None` for RNN/GRU.
    pub fn c_at(&self, t: usize, b: usize) -> Option<&[f32]> {
        (!self.cs.is_empty()).then(|| &self.cs[self.slot(self.direction.out_slot(t), b)])
    }

    /// `[G·H]` gate activations at time `t` for sample `b` (LSTM i, f, g, o; GRU r, z, n);
    /// `None` for RNN. Meaningless at a step that does not exist for b.
    pub fn gates_at(&self, t: usize, b: usize) -> Option<&[f32]> {
        let width = self.gate_width;
        (!self.gates.is_empty()).then(|| &self.gates[(t * self.batch + b) * width..][..width])
    }

    /// `[B, H]` final hidden state (this direction's block of `h_n`).
    pub fn h_final(&self) -> &[f32] {
        let bh = self.batch * self.hidden;
        &self.hs[self.direction.final_slot(self.seq_len) * bh..][..bh]
    }

    /// `[B, H]` final LSTM cell state (this direction's block of `c_n`); `None` for RNN/GRU.
    pub fn c_final(&self) -> Option<&[f32]> {
        let bh = self.batch * self.hidden;
        (!self.cs.is_empty())
            .then(|| &self.cs[self.direction.final_slot(self.seq_len) * bh..][..bh])
    }
}

/// What a recording backward pass ([`LayerDirection::backward_recording`]) keeps of one
/// (layer, direction), one row per `(t, b)` in time order: inspection (gradient flow) and the
/// slow-motion training step, which rebuilds each weight gradient step by step from it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BackwardRecord {
    /// `[T, B, H]` total `∂L/∂h_t` of the hidden state produced at each existing step (the
    /// output's own gradient plus what flows back from later steps); 0 at missing steps.
    pub dh: Vec<f32>,
    /// `[T, B, G·H]` gradient of the input-side pre-activations `gi = b_ih + W_ih·x_t`
    /// (empty unless asked for); 0 at missing steps.
    pub d_gi: Vec<f32>,
    /// `[T, B, G·H]` gradient of the hidden-side pre-activations `gh = b_hh + W_hh·h_{t−1}`:
    /// equal to `d_gi` except in a GRU's n block (empty unless asked for).
    pub d_gh: Vec<f32>,
}

/// Whether every element is ±0 (a NaN is not zero).
fn all_zero(xs: &[f32]) -> bool {
    xs.iter().all(|&x| x == 0.0)
}

/// Splits `[slots, slot_len]` storage into the read slot and the (different) write slot.
fn read_write_slots(
    data: &mut [f32],
    slot_len: usize,
    read: usize,
    write: usize,
) -> (&[f32], &mut [f32]) {
    if read < write {
        let (lo, hi) = data.split_at_mut(write * slot_len);
        (&lo[read * slot_len..][..slot_len], &mut hi[..slot_len])
    } else {
        let (lo, hi) = data.split_at_mut(read * slot_len);
        (&hi[..slot_len], &mut lo[write * slot_len..][..slot_len])
    }
}

impl LayerDirection {
    fn gate_width(&self) -> usize {
        self.cell.gates() * self.hidden_size
    }

    /// The input projection of all steps at once: `gi[T, B, G·H] = b_ih + W_ih·x_t`.
    /// For tokens, `W_ih·x_t` is column `tokens[t, b]` of `W_ih` (exact: no arithmetic but the
    /// bias add) and rows of missing steps stay 0; dense rows are all computed, and the time
    /// loop ignores those of missing steps.
    pub fn input_projection(
        &self,
        params: &[f32],
        input: SeqInput<'_>,
        dims: SeqDims<'_>,
    ) -> Vec<f32> {
        let gw = self.gate_width();
        let in_size = self.offsets.input_size;
        let rows = dims.seq_len * dims.batch;
        let b_ih = &params[self.offsets.b_ih..][..gw];
        let w_ih = &params[self.offsets.w_ih..][..gw * in_size];
        let w_ih_t = swap_leading_axes(w_ih, gw, in_size, 1); // [I, G·H]
        let mut gi = vec![0.0f32; rows * gw];
        match input {
            SeqInput::Dense(x) => {
                for row in gi.chunks_exact_mut(gw) {
                    row.copy_from_slice(b_ih);
                }
                matmul_acc(rows, gw, in_size, x, &w_ih_t, &mut gi);
            }
            SeqInput::Tokens(tokens) => {
                for (r, row) in gi.chunks_exact_mut(gw).enumerate() {
                    if dims.present(r / dims.batch, r % dims.batch) {
                        if tokens[r] == PAD_TOKEN {
                            row.copy_from_slice(b_ih);
                            continue;
                        }
                        let column = &w_ih_t[tokens[r] as usize * gw..][..gw];
                        for ((y, &w), &bias) in row.iter_mut().zip(column).zip(b_ih) {
                            *y = w + bias;
                        }
                    }
                }
            }
        }
        gi
    }

    /// Runs this direction over the whole sequence.
    ///
    /// - `params`: the flat parameter vector (offsets in `self.offsets`).
    /// - `input`: `[T, B, I]` dense or `[T, B]` tokens.
    /// - `h0`: `[B, H]`; `c0`: `[B, H]` (LSTM only; `None` = zeros).
    ///
    /// Returns the cache; outputs are read from it with [`DirectionCache::h_at`].
    pub fn forward(
        &self,
        params: &[f32],
        input: SeqInput<'_>,
        dims: SeqDims<'_>,
        h0: &[f32],
        c0: Option<&[f32]>,
    ) -> DirectionCache {
        self.forward_pinned(params, input, dims, h0, c0, &[])
    }

    /// [`LayerDirection::forward`] with gates pinned (inspector): each pin of `pins` (their
    /// `layer`/`direction` fields are not looked at: the caller passes this direction's pins)
    /// replaces gate `gate`'s activation by `value` in every unit at time `step` (`None`: every
    /// step), after the nonlinearity and before it is used. Pins of a later entry win. The cache
    /// holds the pinned values. Gates out of range and pins on an RNN cell are ignored (the
    /// caller validates them).
    pub fn forward_pinned(
        &self,
        params: &[f32],
        input: SeqInput<'_>,
        dims: SeqDims<'_>,
        h0: &[f32],
        c0: Option<&[f32]>,
        pins: &[GatePin],
    ) -> DirectionCache {
        let n_gates = self.cell.gates();
        let mut step_pins: Vec<(usize, f32)> = Vec::new();
        let (t_len, batch, hid) = (dims.seq_len, dims.batch, self.hidden_size);
        let gw = self.gate_width();
        let bh = batch * hid;
        let gi = self.input_projection(params, input, dims);
        // W_hhᵀ [H, G·H], prepared once for every step's product.
        let w_hh_t = PackedMatrix::transposed(gw, hid, &params[self.offsets.w_hh..][..gw * hid]);
        let b_hh = &params[self.offsets.b_hh..][..gw];
        let spec = self.cell.spec();
        let lstm = spec.has_cell_state;
        let has_gates = !spec.gates.is_empty();
        let init = self.direction.initial_slot(t_len);

        let mut hs = vec![0.0f32; (t_len + 1) * bh];
        hs[init * bh..][..bh].copy_from_slice(h0);
        let mut cs = Vec::new();
        if lstm {
            cs = vec![0.0f32; (t_len + 1) * bh];
            if let Some(c0) = c0 {
                cs[init * bh..][..bh].copy_from_slice(c0);
            }
        }
        let (mut gates, mut aux) = if has_gates {
            (vec![0.0f32; t_len * batch * gw], vec![0.0f32; t_len * bh])
        } else {
            (Vec::new(), Vec::new())
        };
        let mut gh = vec![0.0f32; batch * gw];

        for k in 0..t_len {
            let t = self.direction.time_at(k, t_len);
            step_pins.clear();
            step_pins.extend(
                pins.iter()
                    .filter(|p| p.gate < n_gates && p.step.is_none_or(|s| s == t))
                    .map(|p| (p.gate, p.value)),
            );
            let (ps, os) = (self.direction.prev_slot(t), self.direction.out_slot(t));
            let (h_prev, h_out) = read_write_slots(&mut hs, bh, ps, os);
            // gh = b_hh + h_prev · W_hhᵀ for the whole batch. The product is skipped where
            // h_prev is the initial state and all zeros (the usual h0): it would add only zeros.
            for row in gh.chunks_exact_mut(gw) {
                row.copy_from_slice(b_hh);
            }
            if k > 0 || !all_zero(h_prev) {
                matmul_packed_acc(batch, h_prev, &w_hh_t, &mut gh);
            }
            let mut c_slots = lstm.then(|| read_write_slots(&mut cs, bh, ps, os));
            for b in 0..batch {
                let hr = b * hid..(b + 1) * hid;
                if !dims.present(t, b) {
                    h_out[hr.clone()].copy_from_slice(&h_prev[hr.clone()]);
                    if let Some((c_prev, c_out)) = c_slots.as_mut() {
                        c_out[hr.clone()].copy_from_slice(&c_prev[hr]);
                    }
                    continue;
                }
                let row = t * batch + b;
                let gi_row = &gi[row * gw..][..gw];
                let gh_row = &gh[b * gw..][..gw];
                let hr_gates = if has_gates {
                    row * gw..(row + 1) * gw
                } else {
                    0..0
                };
                let hr_aux = if has_gates {
                    row * hid..(row + 1) * hid
                } else {
                    0..0
                };
                let (c_prev, c_out): (&[f32], &mut [f32]) = match c_slots.as_mut() {
                    Some((c_prev, c_out)) => (&c_prev[hr.clone()], &mut c_out[hr.clone()]),
                    None => (&[], &mut []),
                };
                cell::forward_step(
                    self.cell,
                    StepIn {
                        nonlinearity: self.nonlinearity,
                        gi: gi_row,
                        gh: gh_row,
                        h_prev: &h_prev[hr.clone()],
                        c_prev,
                        pins: &step_pins,
                    },
                    StepOut {
                        gates: &mut gates[hr_gates],
                        c: c_out,
                        aux: &mut aux[hr_aux],
                        h: &mut h_out[hr],
                    },
                );
            }
        }
        DirectionCache {
            direction: self.direction,
            seq_len: t_len,
            batch,
            hidden: hid,
            gate_width: gw,
            hs,
            cs,
            gates,
            aux,
        }
    }

    /// Backpropagation through time for this direction.
    ///
    /// - `params`, `input`, `dims`: as given to [`LayerDirection::forward`], which made `cache`.
    /// - `d_y`: rows `[T, B, ·]` holding the gradient of this direction's output `[H]` at each
    ///   step (ignored at missing steps, where the output is the constant 0).
    /// - `dh_n`: `[B, H]` gradient of the final hidden state; `dc_n`: `[B, H]` of the final
    ///   cell state (LSTM; `None` = zeros).
    /// - `grads`: flat gradient vector (same layout as `params`); this direction's four tensors
    ///   are **accumulated** (`+=`).
    /// - `d_x`: `[T, B, I]` input gradient, accumulated (`+=`) when given; dense input only.
    ///
    /// Returns `(dh0 [B, H], dc0 [B, H])`, `dc0` empty for RNN/GRU.
    #[expect(
        clippy::too_many_arguments,
        reason = "mirrors forward's inputs plus the upstream gradients"
    )]
    pub fn backward(
        &self,
        params: &[f32],
        input: SeqInput<'_>,
        dims: SeqDims<'_>,
        cache: &DirectionCache,
        d_y: StridedRows<'_>,
        dh_n: &[f32],
        dc_n: Option<&[f32]>,
        grads: &mut [f32],
        d_x: Option<&mut [f32]>,
    ) -> (Vec<f32>, Vec<f32>) {
        self.backward_recording(
            params, input, dims, cache, d_y, dh_n, dc_n, grads, d_x, None, true,
        )
    }

    /// [`LayerDirection::backward`] that also records, when `record` is given, the total
    /// gradient `∂L/∂h_t` of the hidden state produced at each existing step (the output's own
    /// gradient plus what flows back from later steps) and, with `pre_activations`, the
    /// gradients of the pre-activations of every step ([`BackwardRecord`]).
    ///
    /// With `initial_state_grads` false the caller has no use for `(dh0, dc0)`: the last
    /// step's `dh0 += d_gh · W_hh` product is skipped and both come back empty.
    #[expect(
        clippy::too_many_arguments,
        reason = "backward's arguments plus the recording buffer"
    )]
    pub fn backward_recording(
        &self,
        params: &[f32],
        input: SeqInput<'_>,
        dims: SeqDims<'_>,
        cache: &DirectionCache,
        d_y: StridedRows<'_>,
        dh_n: &[f32],
        dc_n: Option<&[f32]>,
        grads: &mut [f32],
        d_x: Option<&mut [f32]>,
        mut record: Option<(&mut BackwardRecord, bool)>,
        initial_state_grads: bool,
    ) -> (Vec<f32>, Vec<f32>) {
        let (t_len, batch, hid) = (dims.seq_len, dims.batch, self.hidden_size);
        let gw = self.gate_width();
        let bh = batch * hid;
        let rows = t_len * batch;
        // W_hh [G·H, H], prepared once for every step's dh_prev product.
        let w_hh = PackedMatrix::new(gw, hid, &params[self.offsets.w_hh..][..gw * hid]);
        let spec = self.cell.spec();
        let lstm = spec.has_cell_state;
        let has_gates = !spec.gates.is_empty();
        let gru = spec.separate_hidden_grad;
        if let Some((rec, _)) = record.as_mut() {
            rec.dh.clear();
            rec.dh.resize(rows * hid, 0.0);
        }

        // Pre-activation gradients of all steps, time order; zero rows at missing steps.
        let mut d_gi = vec![0.0f32; rows * gw];
        // GRU only: the gradient of gh differs from that of gi in the n block.
        let mut d_gh_gru = if gru {
            vec![0.0f32; rows * gw]
        } else {
            Vec::new()
        };

        let mut dh = dh_n.to_vec();
        let mut dh_prev = vec![0.0f32; bh];
        let (mut dc, mut dc_prev) = if lstm {
            (
                dc_n.map_or_else(|| vec![0.0f32; bh], <[f32]>::to_vec),
                vec![0.0f32; bh],
            )
        } else {
            (Vec::new(), Vec::new())
        };

        for k in (0..t_len).rev() {
            let t = self.direction.time_at(k, t_len);
            let prev_slot = self.direction.prev_slot(t);
            let out_slot = self.direction.out_slot(t);
            for b in 0..batch {
                let hr = b * hid..(b + 1) * hid;
                if !dims.present(t, b) {
                    // The step does not exist: the state's gradient passes through unchanged.
                    dh_prev[hr.clone()].copy_from_slice(&dh[hr.clone()]);
                    if lstm {
                        dc_prev[hr.clone()].copy_from_slice(&dc[hr]);
                    }
                    continue;
                }
                let row = t * batch + b;
                for (d, &g) in dh[hr.clone()].iter_mut().zip(d_y.row(row, hid)) {
                    *d += g;
                }
                if let Some((rec, _)) = record.as_mut() {
                    rec.dh[row * hid..][..hid].copy_from_slice(&dh[hr.clone()]);
                }
                let d_gi_row = &mut d_gi[row * gw..][..gw];
                let hr_gates = if has_gates {
                    row * gw..(row + 1) * gw
                } else {
                    0..0
                };
                let hr_aux = if has_gates {
                    row * hid..(row + 1) * hid
                } else {
                    0..0
                };
                let hr_prev = (prev_slot * batch + b) * hid..(prev_slot * batch + b + 1) * hid;
                let hr_out = (out_slot * batch + b) * hid..(out_slot * batch + b + 1) * hid;
                let (c_prev, dc_b, dc_prev_b): (&[f32], &[f32], &mut [f32]) = if lstm {
                    (
                        &cache.cs[hr_prev.clone()],
                        &dc[hr.clone()],
                        &mut dc_prev[hr.clone()],
                    )
                } else {
                    (&[], &[], &mut [])
                };
                let d_gh_row: &mut [f32] = if gru {
                    &mut d_gh_gru[row * gw..][..gw]
                } else {
                    &mut []
                };
                cell::backward_step(
                    self.cell,
                    StepCache {
                        nonlinearity: self.nonlinearity,
                        gates: &cache.gates[hr_gates],
                        aux: &cache.aux[hr_aux],
                        h_prev: &cache.hs[hr_prev],
                        h: &cache.hs[hr_out],
                        c_prev,
                        dh: &dh[hr.clone()],
                        dc: dc_b,
                    },
                    StepGrads {
                        d_gi: d_gi_row,
                        d_gh: d_gh_row,
                        dh_prev_direct: &mut dh_prev[hr],
                        dc_prev: dc_prev_b,
                    },
                );
            }
            // dh_prev += d_gh · W_hh for the whole batch (zero rows at missing steps); after the
            // first step that is dh0, computed only when the caller wants it.
            let d_gh = if gru { &d_gh_gru } else { &d_gi };
            if k > 0 || initial_state_grads {
                matmul_packed_acc(
                    batch,
                    &d_gh[t * batch * gw..][..batch * gw],
                    &w_hh,
                    &mut dh_prev,
                );
            }
            std::mem::swap(&mut dh, &mut dh_prev);
            std::mem::swap(&mut dc, &mut dc_prev);
        }

        // Weight and bias gradients over all T·B rows at once.
        let d_gh = if gru { &d_gh_gru } else { &d_gi };
        if let Some((rec, true)) = record {
            rec.d_gi.clone_from(&d_gi);
            rec.d_gh.clone_from(d_gh);
        }
        // States fed into steps 0..T, in time order: slots 0..T (forward) or 1..=T (reverse).
        let first_prev = self
            .direction
            .prev_slot(0)
            .min(self.direction.prev_slot(t_len - 1));
        let h_prev_all = &cache.hs[first_prev * bh..][..rows * hid];
        // Where h0 is all zeros, the rows of the first step (time 0 forward, T−1 reverse) add
        // nothing to dW_hh and are left out of the product.
        let h0 = &cache.hs[self.direction.initial_slot(t_len) * bh..][..bh];
        let (d_gh_rows, h_rows) = if t_len > 0 && all_zero(h0) {
            let first_t = self.direction.time_at(0, t_len);
            let keep = if first_t == 0 {
                batch..rows
            } else {
                0..rows - batch
            };
            (
                &d_gh[keep.start * gw..keep.end * gw],
                &h_prev_all[keep.start * hid..keep.end * hid],
            )
        } else {
            (&d_gh[..], h_prev_all)
        };
        let off = self.offsets;
        matmul_tn_acc(
            gw,
            hid,
            d_gh_rows.len() / gw,
            d_gh_rows,
            h_rows,
            &mut grads[off.w_hh..][..gw * hid],
        );
        col_sum_acc(d_gh, &mut grads[off.b_hh..][..gw]);
        col_sum_acc(&d_gi, &mut grads[off.b_ih..][..gw]);
        let in_size = off.input_size;
        match input {
            SeqInput::Dense(x) => {
                matmul_tn_acc(
                    gw,
                    in_size,
                    rows,
                    &d_gi,
                    x,
                    &mut grads[off.w_ih..][..gw * in_size],
                );
                if let Some(d_x) = d_x {
                    matmul_acc(
                        rows,
                        in_size,
                        gw,
                        &d_gi,
                        &params[off.w_ih..][..gw * in_size],
                        d_x,
                    );
                }
            }
            SeqInput::Tokens(tokens) => {
                // dW_ih[:, sym] += d_gi[t, b] for each existing step: gather rows, then scatter once.
                let mut d_w_t = vec![0.0f32; in_size * gw]; // [V, G·H]
                for (r, d_row) in d_gi.chunks_exact(gw).enumerate() {
                    if dims.present(r / batch, r % batch) && tokens[r] != PAD_TOKEN {
                        for (acc, &d) in
                            d_w_t[tokens[r] as usize * gw..][..gw].iter_mut().zip(d_row)
                        {
                            *acc += d;
                        }
                    }
                }
                let d_w = &mut grads[off.w_ih..][..gw * in_size];
                for (g, d_row) in d_w.chunks_exact_mut(in_size).enumerate() {
                    for (s, d) in d_row.iter_mut().enumerate() {
                        *d += d_w_t[s * gw + g];
                    }
                }
            }
        }
        if !initial_state_grads {
            return (Vec::new(), Vec::new());
        }
        (dh, dc)
    }
}
