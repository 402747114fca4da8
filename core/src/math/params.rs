//! Flat parameter memory with named views, in PyTorch's names, shapes and order.
//!
//! All parameters of a model live in one `Vec<f32>` (one storage buffer on the GPU); a
//! [`ParamLayout`] names each tensor's `(offset, shape)`. Gradients and Adam's `m`/`v` use the
//! same layout, so the optimizer is one element-wise loop and CPU/GPU parity is one array
//! comparison that can still name the failing tensor.
//!
//! Order: PyTorch's `_flat_weights_names` (for each layer, for each direction:
//! `weight_ih_l{k}{sfx}`, `weight_hh_l{k}{sfx}`, `bias_ih_l{k}{sfx}`, `bias_hh_l{k}{sfx}`, with
//! `sfx` = `""` or `"_reverse"`), then, for the classifier, `fc.weight [C, D·H]`, `fc.bias [C]`.

use serde::{Deserialize, Serialize};

pub use super::cell::CellKind;
pub use super::step::Nonlinearity;

/// The architecture of a recurrent module, as the arguments of `nn.RNN`/`nn.LSTM`/`nn.GRU`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RnnSpec {
    /// Which cell.
    pub cell: CellKind,
    /// RNN only: tanh or ReLU.
    pub nonlinearity: Nonlinearity,
    /// Features per input step `I`.
    pub input_size: usize,
    /// Features of the hidden state `H`.
    pub hidden_size: usize,
    /// Stacked layers `L` (layer l > 0 takes the `D·H` output of layer l − 1).
    pub num_layers: usize,
    /// Two directions (`D = 2`) when true.
    pub bidirectional: bool,
}

impl RnnSpec {
    /// A single-layer unidirectional tanh/LSTM/GRU spec.
    pub fn new(cell: CellKind, input_size: usize, hidden_size: usize) -> Self {
        Self::stacked(cell, input_size, hidden_size, 1, false)
    }

    /// `num_layers` stacked layers of `cell` (tanh for RNN), two directions when
    /// `bidirectional`: `nn.RNN/LSTM/GRU(input_size, hidden_size, num_layers, bidirectional=…)`.
    pub fn stacked(
        cell: CellKind,
        input_size: usize,
        hidden_size: usize,
        num_layers: usize,
        bidirectional: bool,
    ) -> Self {
        RnnSpec {
            cell,
            nonlinearity: Nonlinearity::Tanh,
            input_size,
            hidden_size,
            num_layers,
            bidirectional,
        }
    }

    /// Number of directions D (1 or 2).
    pub fn num_directions(&self) -> usize {
        if self.bidirectional {
            2
        } else {
            1
        }
    }

    /// Input width of layer `layer`: `I` for layer 0, `D·H` above.
    pub fn layer_input_size(&self, layer: usize) -> usize {
        if layer == 0 {
            self.input_size
        } else {
            self.num_directions() * self.hidden_size
        }
    }
}

/// Names and shapes of a recurrent module's parameters in PyTorch's order (no offsets, so it
/// works for sizes whose total would not fit a 32-bit `usize`): for each layer, for each
/// direction, `weight_ih_l{k}{sfx} [G·H, I_k]`, `weight_hh_l{k}{sfx} [G·H, H]`,
/// `bias_ih_l{k}{sfx} [G·H]`, `bias_hh_l{k}{sfx} [G·H]`, names prefixed by `prefix`.
pub fn rnn_param_shapes(spec: &RnnSpec, prefix: &str) -> Vec<(String, Vec<usize>)> {
    let gh = spec.cell.gates() * spec.hidden_size;
    let mut out = Vec::with_capacity(4 * spec.num_layers * spec.num_directions());
    for layer in 0..spec.num_layers {
        for dir in 0..spec.num_directions() {
            let sfx = if dir == 1 { "_reverse" } else { "" };
            let i = spec.layer_input_size(layer);
            out.push((format!("{prefix}weight_ih_l{layer}{sfx}"), vec![gh, i]));
            out.push((
                format!("{prefix}weight_hh_l{layer}{sfx}"),
                vec![gh, spec.hidden_size],
            ));
            out.push((format!("{prefix}bias_ih_l{layer}{sfx}"), vec![gh]));
            out.push((format!("{prefix}bias_hh_l{layer}{sfx}"), vec![gh]));
        }
    }
    out
}

/// One named tensor inside a flat parameter vector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamEntry {
    /// PyTorch name, e.g. `weight_ih_l0`, `rnn.weight_hh_l1_reverse`, `fc.bias`.
    pub name: String,
    /// Row-major shape, e.g. `[4*H, I]`.
    pub shape: Vec<usize>,
    /// Offset in elements (f32) from the start of the flat vector.
    pub offset: usize,
}

impl ParamEntry {
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    /// True for a zero-element tensor.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The element range of this tensor in the flat vector.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.offset..self.offset + self.len()
    }
}

/// Offsets of the four tensors of one (layer, direction) inside the flat vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerOffsets {
    /// `weight_ih [G·H, I_l]`.
    pub w_ih: usize,
    /// `weight_hh [G·H, H]`.
    pub w_hh: usize,
    /// `bias_ih [G·H]`.
    pub b_ih: usize,
    /// `bias_hh [G·H]`.
    pub b_hh: usize,
    /// Input width of this layer `I_l`.
    pub input_size: usize,
}

/// Named views into one flat `f32` vector.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamLayout {
    /// Tensors in storage order.
    pub entries: Vec<ParamEntry>,
}

impl ParamLayout {
    /// Layout of a recurrent module's parameters, names prefixed by `prefix`
    /// (`""` for a bare `nn.LSTM`, `"rnn."` inside the classifier).
    pub fn rnn(spec: &RnnSpec, prefix: &str) -> ParamLayout {
        let mut l = ParamLayout {
            entries: Vec::new(),
        };
        l.push_rnn(spec, prefix);
        l
    }

    /// Layout of the name classifier: the recurrent module as `rnn.*` then `fc.weight
    /// [num_classes, D·H]` and `fc.bias [num_classes]`.
    pub fn classifier(spec: &RnnSpec, num_classes: usize) -> ParamLayout {
        let mut l = ParamLayout::rnn(spec, "rnn.");
        let feat = spec.num_directions() * spec.hidden_size;
        l.push("fc.weight", vec![num_classes, feat]);
        l.push("fc.bias", vec![num_classes]);
        l
    }

    fn push_rnn(&mut self, spec: &RnnSpec, prefix: &str) {
        for (name, shape) in rnn_param_shapes(spec, prefix) {
            self.push(&name, shape);
        }
    }

    /// Appends a tensor at the end of the layout.
    pub fn push(&mut self, name: &str, shape: Vec<usize>) {
        let offset = self.total_len();
        self.entries.push(ParamEntry {
            name: name.to_string(),
            shape,
            offset,
        });
    }

    /// Total number of f32 elements (the parameter count as PyTorch counts it).
    pub fn total_len(&self) -> usize {
        self.entries.last().map(|e| e.offset + e.len()).unwrap_or(0)
    }

    /// The entry called `name`, if any.
    pub fn get(&self, name: &str) -> Option<&ParamEntry> {
        self.entries.iter().find(|e| e.name == name)
    }

    /// Offsets of `weight_ih/weight_hh/bias_ih/bias_hh` for `(layer, direction)`
    /// (`direction` 1 = `_reverse`), with names prefixed by `prefix`.
    ///
    /// # Panics
    /// If the layout has no such layer (a programming error, not user input).
    pub fn layer(&self, prefix: &str, layer: usize, direction: usize) -> LayerOffsets {
        let sfx = if direction == 1 { "_reverse" } else { "" };
        let get = |kind: &str| {
            self.get(&format!("{prefix}{kind}_l{layer}{sfx}"))
                .unwrap_or_else(|| panic!("no {prefix}{kind}_l{layer}{sfx} in layout"))
        };
        let w_ih = get("weight_ih");
        LayerOffsets {
            w_ih: w_ih.offset,
            w_hh: get("weight_hh").offset,
            b_ih: get("bias_ih").offset,
            b_hh: get("bias_hh").offset,
            input_size: w_ih.shape[1],
        }
    }

    /// The slice of `flat` that holds `name`.
    pub fn view<'a>(&self, flat: &'a [f32], name: &str) -> Option<&'a [f32]> {
        self.get(name).map(|e| &flat[e.range()])
    }
}
