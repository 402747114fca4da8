//! A whole recurrent module as `nn.RNN` / `nn.LSTM` / `nn.GRU` computes it: `num_layers`
//! stacked layers, one or two directions, `batch_first`, optional `h0`/`c0`, per-sample
//! lengths with packed-sequence semantics; forward and backward (BPTT).
//!
//! Layer l > 0 takes the concatenated `[forward, backward]` output `[T, B, D·H]` of layer
//! l − 1. `h_n`/`c_n` are `[L·D, B, H]`, layer-major then direction (PyTorch docs). Each
//! (layer, direction) runs in [`crate::math::layer`].
//!
//! Two levels of API:
//! - [`RnnModule::forward`] / [`RnnModule::backward`]: PyTorch-shaped tensors, validated, for
//!   lessons and fixtures;
//! - [`RnnModule::forward_time_major`] / [`RnnModule::backward_time_major`]: time-major buffers
//!   (dense or one-hot tokens), no validation, for the classifier and the trainers.

pub use super::layer::BackwardRecord;
pub use super::layer::GatePin;
use super::layer::{Direction, DirectionCache, LayerDirection, SeqDims, SeqInput, StridedRows};
use super::linalg::swap_leading_axes;
use super::params::{ParamLayout, RnnSpec};
use super::shapes::{check_state_shape, validate_spec, RnnError, StateKind};

/// A borrowed tensor: a row-major shape and its data.
#[derive(Clone, Copy, Debug)]
pub struct TensorRef<'a> {
    /// Row-major shape.
    pub shape: &'a [usize],
    /// `shape.iter().product()` values.
    pub data: &'a [f32],
}

impl<'a> TensorRef<'a> {
    /// A view of `data` with `shape`.
    pub fn new(shape: &'a [usize], data: &'a [f32]) -> Self {
        TensorRef { shape, data }
    }

    fn check_len(&self, tensor: &'static str) -> Result<(), RnnError> {
        if self.data.len() != self.shape.iter().product::<usize>() {
            return Err(RnnError::DataLength {
                tensor,
                shape: self.shape.to_vec(),
                got: self.data.len(),
            });
        }
        Ok(())
    }
}

/// An owned time-major input sequence, kept in the cache for the backward pass.
#[derive(Clone, Debug, PartialEq)]
pub enum SeqData {
    /// Dense features `[T, B, I]`.
    Dense(Vec<f32>),
    /// One-hot symbol indices `[T, B]` over a vocabulary of `input_size` symbols.
    Tokens(Vec<u32>),
}

impl SeqData {
    fn as_input(&self) -> SeqInput<'_> {
        match self {
            SeqData::Dense(x) => SeqInput::Dense(x),
            SeqData::Tokens(t) => SeqInput::Tokens(t),
        }
    }
}

/// The cache of one layer: its directions and its output.
#[derive(Clone, Debug)]
struct LayerCache {
    /// `[D]` per-direction caches.
    directions: Vec<DirectionCache>,
    /// `[T, B, D·H]` output (0 at missing steps); the next layer's input.
    output: Vec<f32>,
}

/// Everything [`RnnModule::forward_time_major`] computed, kept for the backward pass and for
/// inspection.
#[derive(Clone, Debug)]
pub struct RnnCache {
    seq_len: usize,
    batch: usize,
    batch_first: bool,
    lengths: Vec<u32>,
    input: SeqData,
    layers: Vec<LayerCache>,
}

impl RnnCache {
    /// Padded length T.
    pub fn seq_len(&self) -> usize {
        self.seq_len
    }

    /// Batch size B.
    pub fn batch(&self) -> usize {
        self.batch
    }

    /// `[B]` real lengths.
    pub fn lengths(&self) -> &[u32] {
        &self.lengths
    }

    /// `[T, B, D·H]` output of the last layer, time-major, 0 at missing steps.
    pub fn output(&self) -> &[f32] {
        &self.layers.last().expect("at least one layer").output
    }

    /// The cache of `(layer, direction)` (direction 1 = reverse), for per-step internals.
    ///
    /// # Panics
    /// If the module has no such layer or direction.
    pub fn direction(&self, layer: usize, direction: usize) -> &DirectionCache {
        &self.layers[layer].directions[direction]
    }

    /// Per-step internals of sample `b` for every (layer, direction), layer-major.
    ///
    /// # Panics
    /// If `b ≥ B`.
    pub fn trace(&self, b: usize) -> Vec<DirectionTrace> {
        let len = self.lengths[b] as usize;
        let mut out = Vec::new();
        for (layer, l) in self.layers.iter().enumerate() {
            for (direction, cache) in l.directions.iter().enumerate() {
                out.push(DirectionTrace {
                    layer,
                    direction,
                    h: (0..len)
                        .flat_map(|t| cache.h_at(t, b).iter().copied())
                        .collect(),
                    c: (0..len)
                        .map(|t| cache.c_at(t, b))
                        .collect::<Option<Vec<_>>>()
                        .map(|v| v.concat()),
                    gates: (0..len)
                        .map(|t| cache.gates_at(t, b))
                        .collect::<Option<Vec<_>>>()
                        .map(|v| v.concat()),
                });
            }
        }
        out
    }

    /// `[L·D, B, H]` final hidden states.
    pub fn h_n(&self) -> Vec<f32> {
        self.layers
            .iter()
            .flat_map(|l| &l.directions)
            .flat_map(|d| d.h_final().iter().copied())
            .collect()
    }

    /// `[L·D, B, H]` final LSTM cell states; `None` for RNN/GRU.
    pub fn c_n(&self) -> Option<Vec<f32>> {
        let mut out = Vec::new();
        for d in self.layers.iter().flat_map(|l| &l.directions) {
            out.extend_from_slice(d.c_final()?);
        }
        Some(out)
    }
}

/// Per-time-step internals of one (layer, direction) for one sample, for the inspector.
#[derive(Clone, Debug, PartialEq)]
pub struct DirectionTrace {
    /// Layer index l.
    pub layer: usize,
    /// 0 forward, 1 reverse.
    pub direction: usize,
    /// `[len, H]`: `h_t` produced at each time t of the sample, in time order.
    pub h: Vec<f32>,
    /// `[len, H]`: LSTM `c_t`; `None` for RNN/GRU.
    pub c: Option<Vec<f32>>,
    /// `[len, G·H]`: gate activations (LSTM i, f, g, o; GRU r, z, n); `None` for RNN.
    pub gates: Option<Vec<f32>>,
}

/// The result of [`RnnModule::forward`], in PyTorch's shapes.
#[derive(Clone, Debug)]
pub struct RnnOutput {
    /// `[T, B, D·H]`, or `[B, T, D·H]` with batch_first; 0 at missing steps.
    pub output: Vec<f32>,
    /// The shape of `output`.
    pub output_shape: [usize; 3],
    /// `[L·D, B, H]`.
    pub h_n: Vec<f32>,
    /// `[L·D, B, H]` for LSTM; `None` for RNN/GRU.
    pub c_n: Option<Vec<f32>>,
    /// What the backward pass needs.
    pub cache: RnnCache,
}

/// Gradients of the module's inputs from a backward pass (the parameter gradients go into
/// the caller's flat `grads`).
#[derive(Clone, Debug, PartialEq)]
pub struct RnnInputGrads {
    /// Same layout as the input given to the forward pass (dense input); empty for tokens.
    /// 0 at missing steps.
    pub input: Vec<f32>,
    /// `[L·D, B, H]`.
    pub h0: Vec<f32>,
    /// `[L·D, B, H]` for LSTM; `None` for RNN/GRU.
    pub c0: Option<Vec<f32>>,
}

/// What a recording backward pass of the whole module keeps
/// ([`RnnModule::backward_time_major_recording`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModuleRecord {
    /// Whether to keep every direction's pre-activation gradients too (not only `∂L/∂h_t`).
    pub pre_activations: bool,
    /// `[T, B, D·H]` total gradient `∂L/∂output_t` of the top layer's output at each existing
    /// step (each direction's `∂L/∂h_t`, through the recurrence, concatenated); 0 at missing
    /// steps.
    pub d_top: Vec<f32>,
    /// `[L·D]` what each (layer, direction) kept, layer-major then direction.
    pub directions: Vec<BackwardRecord>,
}

/// A recurrent module bound to where its parameters live in a flat vector.
#[derive(Clone, Debug)]
pub struct RnnModule {
    spec: RnnSpec,
    /// `[L·D]` layer-major, then direction.
    directions: Vec<LayerDirection>,
}

impl RnnModule {
    /// A module for `spec` whose tensors are named `{prefix}weight_ih_l0`, … in `layout`
    /// (`prefix` `""` for a bare module, `"rnn."` inside the classifier).
    ///
    /// # Panics
    /// If `layout` lacks a tensor of `spec` (a programming error).
    pub fn new(spec: RnnSpec, layout: &ParamLayout, prefix: &str) -> Self {
        let mut directions = Vec::with_capacity(spec.num_layers * spec.num_directions());
        for layer in 0..spec.num_layers {
            for d in 0..spec.num_directions() {
                directions.push(LayerDirection {
                    cell: spec.cell,
                    nonlinearity: spec.nonlinearity,
                    hidden_size: spec.hidden_size,
                    offsets: layout.layer(prefix, layer, d),
                    direction: Direction::from_index(d),
                });
            }
        }
        RnnModule { spec, directions }
    }

    /// The architecture.
    pub fn spec(&self) -> &RnnSpec {
        &self.spec
    }

    /// PyTorch-shaped forward pass with validation.
    ///
    /// - `params`: flat parameters in the layout given to [`RnnModule::new`].
    /// - `input`: `[T, B, I]`, or `[B, T, I]` with `batch_first`.
    /// - `lengths`: `[B]` per-sample lengths in `1..=T` (packed semantics); `None` = all T.
    /// - `h0`: `[L·D, B, H]` (`None` = zeros); `c0`: same, LSTM only.
    ///
    /// # Errors
    /// Every invalid shape or length, with PyTorch's message where it has one
    /// (e.g. "Expected hidden size (2, 4, 5), got (4, 2, 5)").
    pub fn forward(
        &self,
        params: &[f32],
        input: TensorRef<'_>,
        batch_first: bool,
        lengths: Option<&[u32]>,
        h0: Option<TensorRef<'_>>,
        c0: Option<TensorRef<'_>>,
    ) -> Result<RnnOutput, RnnError> {
        let spec = &self.spec;
        validate_spec(spec)?;
        if input.shape.len() != 3 {
            return Err(RnnError::InputRank {
                got: input.shape.len(),
            });
        }
        input.check_len("input")?;
        if input.shape[2] != spec.input_size {
            return Err(RnnError::InputSize {
                expected: spec.input_size,
                got: input.shape[2],
            });
        }
        let (batch, seq_len) = if batch_first {
            (input.shape[0], input.shape[1])
        } else {
            (input.shape[1], input.shape[0])
        };
        if seq_len == 0 {
            return Err(RnnError::EmptySequence);
        }
        if let Some(h0) = h0 {
            check_state_shape(spec, batch, StateKind::Hidden, h0.shape)?;
            h0.check_len("h0")?;
        }
        if let Some(c0) = c0 {
            check_state_shape(spec, batch, StateKind::Cell, c0.shape)?;
            c0.check_len("c0")?;
        }
        let lengths = match lengths {
            Some(l) => {
                check_lengths(l, batch, seq_len)?;
                l.to_vec()
            }
            None => vec![seq_len as u32; batch],
        };
        let x = if batch_first {
            swap_leading_axes(input.data, batch, seq_len, spec.input_size)
        } else {
            input.data.to_vec()
        };
        let mut cache = self.forward_time_major(
            params,
            SeqData::Dense(x),
            seq_len,
            lengths,
            h0.map(|t| t.data),
            c0.map(|t| t.data),
        );
        cache.batch_first = batch_first;
        let width = spec.num_directions() * spec.hidden_size;
        let (output, output_shape) = if batch_first {
            (
                swap_leading_axes(cache.output(), seq_len, batch, width),
                [batch, seq_len, width],
            )
        } else {
            (cache.output().to_vec(), [seq_len, batch, width])
        };
        Ok(RnnOutput {
            output,
            output_shape,
            h_n: cache.h_n(),
            c_n: cache.c_n(),
            cache,
        })
    }

    /// PyTorch-shaped backward pass for a cache made by [`RnnModule::forward`].
    ///
    /// - `grad_output`: same layout as the forward `output`.
    /// - `grad_h_n`, `grad_c_n`: `[L·D, B, H]` (`None` = zeros; `grad_c_n` LSTM only).
    /// - `grads`: flat parameter gradients, **accumulated** (`+=`).
    ///
    /// Returns the gradients of the input (same layout as the forward input), h0 and c0.
    ///
    /// # Panics
    /// If a slice has the wrong length (a programming error).
    pub fn backward(
        &self,
        params: &[f32],
        cache: &RnnCache,
        grad_output: &[f32],
        grad_h_n: Option<&[f32]>,
        grad_c_n: Option<&[f32]>,
        grads: &mut [f32],
    ) -> RnnInputGrads {
        let (batch, seq_len) = (cache.batch, cache.seq_len);
        let width = self.spec.num_directions() * self.spec.hidden_size;
        if !cache.batch_first {
            return self.backward_time_major(params, cache, grad_output, grad_h_n, grad_c_n, grads);
        }
        let d_out = swap_leading_axes(grad_output, batch, seq_len, width);
        let mut g = self.backward_time_major(params, cache, &d_out, grad_h_n, grad_c_n, grads);
        if !g.input.is_empty() {
            g.input = swap_leading_axes(&g.input, seq_len, batch, self.spec.input_size);
        }
        g
    }

    /// Time-major forward pass without validation (the caller guarantees the shapes).
    ///
    /// - `input`: `[T, B, I]` dense or `[T, B]` tokens (each `< I` where the step exists).
    /// - `lengths`: `[B]`, each in `0..=T`; the batch size B is `lengths.len()`.
    /// - `h0`, `c0`: `[L·D, B, H]` (`None` = zeros; `c0` LSTM only).
    ///
    /// # Panics
    /// On inconsistent lengths or a token outside the vocabulary.
    pub fn forward_time_major(
        &self,
        params: &[f32],
        input: SeqData,
        seq_len: usize,
        lengths: Vec<u32>,
        h0: Option<&[f32]>,
        c0: Option<&[f32]>,
    ) -> RnnCache {
        self.forward_time_major_pinned(params, input, seq_len, lengths, h0, c0, &[])
    }

    /// [`RnnModule::forward_time_major`] with gates pinned: each [`GatePin`] applies to its
    /// (layer, direction), at time index `step` (or every step). Pins are not validated here
    /// (see `SeqModel::trace_pinned`); a pin for a layer or direction the module does not
    /// have, or a gate the cell does not have, is ignored.
    #[expect(
        clippy::too_many_arguments,
        reason = "forward_time_major's arguments plus the pins"
    )]
    pub fn forward_time_major_pinned(
        &self,
        params: &[f32],
        input: SeqData,
        seq_len: usize,
        lengths: Vec<u32>,
        h0: Option<&[f32]>,
        c0: Option<&[f32]>,
        pins: &[GatePin],
    ) -> RnnCache {
        let spec = &self.spec;
        let batch = lengths.len();
        let (dirs, hid) = (spec.num_directions(), spec.hidden_size);
        let bh = batch * hid;
        let zeros = vec![0.0f32; bh];
        let dims = SeqDims {
            seq_len,
            batch,
            lengths: &lengths,
        };
        let mut layers: Vec<LayerCache> = Vec::with_capacity(spec.num_layers);
        for layer in 0..spec.num_layers {
            let layer_input = match layers.last() {
                None => input.as_input(),
                Some(below) => SeqInput::Dense(&below.output),
            };
            let width = dirs * hid;
            let mut output = vec![0.0f32; seq_len * batch * width];
            let mut directions = Vec::with_capacity(dirs);
            for d in 0..dirs {
                let idx = layer * dirs + d;
                let h0_d = h0.map_or(&zeros[..], |h| &h[idx * bh..][..bh]);
                let c0_d = c0.map(|c| &c[idx * bh..][..bh]);
                let dir_pins: Vec<GatePin> = pins
                    .iter()
                    .filter(|p| p.layer == layer && p.direction == d)
                    .copied()
                    .collect();
                let cache = self.directions[idx].forward_pinned(
                    params,
                    layer_input,
                    dims,
                    h0_d,
                    c0_d,
                    &dir_pins,
                );
                for t in 0..seq_len {
                    for b in 0..batch {
                        if dims.present(t, b) {
                            output[(t * batch + b) * width + d * hid..][..hid]
                                .copy_from_slice(cache.h_at(t, b));
                        }
                    }
                }
                directions.push(cache);
            }
            layers.push(LayerCache { directions, output });
        }
        RnnCache {
            seq_len,
            batch,
            batch_first: false,
            lengths,
            input,
            layers,
        }
    }

    /// Time-major backward pass for a cache made by [`RnnModule::forward_time_major`].
    ///
    /// - `d_output`: `[T, B, D·H]` gradient of the last layer's output.
    /// - `d_h_n`, `d_c_n`: `[L·D, B, H]` (`None` = zeros).
    /// - `grads`: flat parameter gradients, **accumulated** (`+=`).
    ///
    /// Returns the input gradient `[T, B, I]` (empty for tokens) and those of h0 and c0.
    pub fn backward_time_major(
        &self,
        params: &[f32],
        cache: &RnnCache,
        d_output: &[f32],
        d_h_n: Option<&[f32]>,
        d_c_n: Option<&[f32]>,
        grads: &mut [f32],
    ) -> RnnInputGrads {
        self.backward_time_major_recording(params, cache, d_output, d_h_n, d_c_n, grads, None, true)
    }

    /// [`RnnModule::backward_time_major`] that also fills, when `record` is given, the total
    /// gradient `∂L/∂output_t` of the top layer's output at each existing step and each
    /// (layer, direction)'s [`BackwardRecord`] (see [`ModuleRecord`]).
    ///
    /// With `initial_state_grads` false the caller has no use for the gradients of h0 and c0
    /// (the classifier starts from zeros): each direction's last `dh0 += d_gh · W_hh` product
    /// is skipped, and the returned `h0` is empty (`c0` too, for LSTM).
    #[expect(
        clippy::too_many_arguments,
        reason = "backward_time_major's arguments plus the recording buffer"
    )]
    pub fn backward_time_major_recording(
        &self,
        params: &[f32],
        cache: &RnnCache,
        d_output: &[f32],
        d_h_n: Option<&[f32]>,
        d_c_n: Option<&[f32]>,
        grads: &mut [f32],
        mut record: Option<&mut ModuleRecord>,
        initial_state_grads: bool,
    ) -> RnnInputGrads {
        let spec = &self.spec;
        let (seq_len, batch) = (cache.seq_len, cache.batch);
        let (dirs, hid) = (spec.num_directions(), spec.hidden_size);
        let bh = batch * hid;
        let lstm = spec.cell.spec().has_cell_state;
        let zeros = vec![0.0f32; bh];
        let dims = SeqDims {
            seq_len,
            batch,
            lengths: &cache.lengths,
        };
        let n_states = if initial_state_grads {
            spec.num_layers * dirs * bh
        } else {
            0
        };
        let mut d_h0 = vec![0.0f32; n_states];
        let mut d_c0 = if lstm {
            vec![0.0f32; n_states]
        } else {
            Vec::new()
        };

        if let Some(r) = record.as_deref_mut() {
            r.d_top.clear();
            r.d_top.resize(seq_len * batch * dirs * hid, 0.0);
            r.directions.clear();
            r.directions
                .resize(spec.num_layers * dirs, BackwardRecord::default());
        }
        // Gradient of the current layer's output; becomes the gradient of its input.
        let mut d_layer_out = d_output.to_vec();
        for layer in (0..spec.num_layers).rev() {
            let layer_input = match layer {
                0 => cache.input.as_input(),
                _ => SeqInput::Dense(&cache.layers[layer - 1].output),
            };
            let wants_dx = matches!(layer_input, SeqInput::Dense(_));
            let in_size = spec.layer_input_size(layer);
            let mut d_x = if wants_dx {
                vec![0.0f32; seq_len * batch * in_size]
            } else {
                Vec::new()
            };
            for d in 0..dirs {
                let idx = layer * dirs + d;
                let d_y = StridedRows {
                    data: &d_layer_out,
                    row_stride: dirs * hid,
                    offset: d * hid,
                };
                let dh_n = d_h_n.map_or(&zeros[..], |g| &g[idx * bh..][..bh]);
                let dc_n = d_c_n.map(|g| &g[idx * bh..][..bh]);
                let top = layer + 1 == spec.num_layers;
                let mut rec = record.as_deref_mut().map(|r| {
                    let keep = r.pre_activations;
                    (std::mem::take(&mut r.directions[idx]), keep)
                });
                let (dh0, dc0) = self.directions[idx].backward_recording(
                    params,
                    layer_input,
                    dims,
                    &cache.layers[layer].directions[d],
                    d_y,
                    dh_n,
                    dc_n,
                    grads,
                    wants_dx.then_some(&mut d_x[..]),
                    rec.as_mut().map(|(r, keep)| (r, *keep)),
                    initial_state_grads,
                );
                if let (Some(out), Some((rec, _))) = (record.as_deref_mut(), rec) {
                    if top {
                        let width = dirs * hid;
                        for row in 0..seq_len * batch {
                            out.d_top[row * width + d * hid..][..hid]
                                .copy_from_slice(&rec.dh[row * hid..][..hid]);
                        }
                    }
                    out.directions[idx] = rec;
                }
                if initial_state_grads {
                    d_h0[idx * bh..][..bh].copy_from_slice(&dh0);
                    if lstm {
                        d_c0[idx * bh..][..bh].copy_from_slice(&dc0);
                    }
                }
            }
            d_layer_out = d_x;
        }
        RnnInputGrads {
            input: d_layer_out,
            h0: d_h0,
            c0: lstm.then_some(d_c0),
        }
    }
}

/// Checks `[B]` lengths: one per sample, each in `1..=seq_len`.
///
/// # Errors
/// [`RnnError::LengthsCount`], [`RnnError::LengthOutOfRange`].
pub fn check_lengths(lengths: &[u32], batch: usize, seq_len: usize) -> Result<(), RnnError> {
    if lengths.len() != batch {
        return Err(RnnError::LengthsCount {
            expected: batch,
            got: lengths.len(),
        });
    }
    for (sample, &length) in lengths.iter().enumerate() {
        if length == 0 || length as usize > seq_len {
            return Err(RnnError::LengthOutOfRange {
                sample,
                length,
                seq_len,
            });
        }
    }
    Ok(())
}
