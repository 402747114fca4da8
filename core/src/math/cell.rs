//! The recurrent cells as data: [`CellKind`] names a cell, [`CellSpec`] describes it (URL key,
//! display name, gates with their letter and activation, cell state, bias blocks, cache width,
//! kernel names, colour, texts), and [`Cell`] is its CPU step pair.
//!
//! Code outside a cell's own files asks the descriptor (`cell.spec().has_cell_state`,
//! `CellKind::ALL`) instead of comparing with one cell, so adding a cell is a local change.
//!
//! **A cell's own files** (the only places that name one cell or `match` over all of them):
//! - `core/src/math/cell.rs` (this file): the variant, its [`CellSpec`] and the step dispatch.
//! - `core/src/math/rnn.rs`, `core/src/math/lstm.rs`, `core/src/math/gru.rs`: the CPU step pair.
//! - `shaders/rnn.wgsl`, `shaders/lstm.wgsl`, `shaders/gru.wgsl`: the cell's WGSL part (its
//!   step and the step's derivative on one unit), which `core/src/gpu/shader_source.rs`
//!   composes with the two skeletons every cell shares into the cell's two whole-sequence
//!   kernels (`include_str!` needs each file's name).
//!
//! The GPU's host code has no per-cell part: `core/src/gpu/kernels/cell_sequence.rs` compiles the
//! kernels named by [`CellSpec::kernels`], binds the same buffers for every cell (a placeholder
//! where `has_cell_state` or `gate_cache_blocks` says the cell has none) and packs the hidden
//! biases `hidden_bias_blocks` leaves in the loop.
//!
//! **What a new cell touches** (5 source files, 2 of them new; 1 test file):
//! 1. `core/src/math/cell.rs`: a [`CellKind`] variant, its [`CellSpec`] (in [`CellKind::ALL`],
//!    [`CELL_COUNT`] one more) and its arms in [`CellKind::spec`], [`forward_step`] and
//!    [`backward_step`];
//! 2. `core/src/math/<cell>.rs` (new): the CPU step pair, an implementation of [`Cell`];
//! 3. `core/src/math/mod.rs`: declares it;
//! 4. `shaders/<cell>.wgsl` (new): its WGSL part (`GATES`, `HAS_CELL_STATE`, `HAS_GATE_CACHE`,
//!    `hh_add`, `cell_forward`, `cell_backward`; `shaders/README.md`);
//! 5. `core/src/gpu/shader_source.rs`: composes its two kernels (one `cell_kernels!` line and
//!    its two entries in `KERNELS`);
//!
//! and in the tests, `core/tests/suite/gpu_kernels.rs`'s binding table
//! (`cell_descriptors_name_their_kernels_and_bindings`), the only test that `match`es over
//! every cell. A throwaway fourth cell (a copy of the Elman cell under another key) needed
//! exactly these 5 source files and that one test arm: both crates and every test target
//! compiled, `shaders_validate` checked its part against its descriptor and its composed
//! kernels against WebGPU's limits, and `gpu_kernels` ran its kernels against its CPU pair
//! looped over time (the CPU loops there call [`forward_step`] / [`backward_step`] and size
//! their caches from the descriptor).
//!
//! Its tests: the step pair against PyTorch fixtures and finite differences, the kernels against
//! the CPU pair looped over time (`core/tests/suite/gpu_kernels.rs`, which iterates over
//! [`CellKind::ALL`]), and the descriptor checks (`cell_descriptors_match_the_cells` in
//! `core/tests/suite/math_cpu.rs`, `cell_parts_match_their_descriptors` in
//! `core/tests/suite/shaders_validate.rs`).
//!
//! Everything else (URL choices, weights import/export, the UI's names, colours, gate lists,
//! help texts, compare mode) iterates over [`CellKind::ALL`] or reads the descriptor. Tests that
//! cover every cell iterate over [`CellKind::ALL`] too.

use serde::{Deserialize, Serialize};

pub use super::step::{Cell, StepCache, StepGrads, StepIn, StepOut};
use super::{gru, lstm, rnn};

/// The recurrent cell. Gate blocks inside `weight_ih`/`weight_hh`/biases are stacked in
/// PyTorch's order: LSTM `i, f, g, o`; GRU `r, z, n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CellKind {
    /// `nn.RNN` (Elman): `h' = act(W_ih x + b_ih + W_hh h + b_hh)`; `act` is tanh or ReLU.
    Rnn,
    /// `nn.LSTM`, Hochreiter & Schmidhuber 1997, PyTorch formulation (gates i, f, g, o).
    Lstm,
    /// `nn.GRU`, Cho et al. 2014, PyTorch formulation (gates r, z, n; reset applied after the
    /// hidden matmul: `n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))`).
    Gru,
}

/// Number of cells.
pub const CELL_COUNT: usize = 3;

/// A text in the page's two languages (English, Simplified Chinese).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LangText {
    /// English.
    pub en: &'static str,
    /// Simplified Chinese.
    pub zh: &'static str,
}

/// The nonlinearity a gate's activation goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GateActivation {
    /// Logistic sigmoid, values in (0, 1).
    Sigmoid,
    /// tanh, values in (−1, 1).
    Tanh,
}

impl GateActivation {
    /// The closed range the activation's values lie in: `(0, 1)` or `(−1, 1)`.
    pub fn range(self) -> (f32, f32) {
        match self {
            GateActivation::Sigmoid => (0.0, 1.0),
            GateActivation::Tanh => (-1.0, 1.0),
        }
    }
}

/// One gate block of a cell, in PyTorch's stacking order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gate {
    /// PyTorch's letter (`i`, `f`, `g`, `o`; `r`, `z`, `n`).
    pub letter: &'static str,
    /// Its nonlinearity.
    pub activation: GateActivation,
    /// `letter: what it is`, e.g. `f: forget gate`.
    pub label: LangText,
}

/// Everything the code outside a cell's own files knows about the cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellSpec {
    /// The cell.
    pub kind: CellKind,
    /// Lower-case key of URLs, weights metadata and PyTorch's class names (`lstm`).
    pub key: &'static str,
    /// Display name (`LSTM`).
    pub name: &'static str,
    /// PyTorch's module (`nn.LSTM`).
    pub torch_class: &'static str,
    /// Gate blocks G stacked in `weight_ih [G·H, I]`, `weight_hh [G·H, H]` and both biases.
    pub blocks: usize,
    /// The gates the inspector shows and pins (index = `GatePin::gate`), in stacking order;
    /// empty for a cell whose single block is its new hidden state (the plain RNN).
    pub gates: &'static [Gate],
    /// Takes `nonlinearity` (tanh or ReLU) like `nn.RNN`.
    pub takes_nonlinearity: bool,
    /// Carries a cell state `c` besides `h` (`c0`/`c_n`, PyTorch's `hidden[1]`).
    pub has_cell_state: bool,
    /// Blocks of `b_hh` that can be added to the input projection before the step (all G but
    /// for the GRU, whose `b_hn` stays inside `r ⊙ (W_hn h + b_hn)`).
    pub hidden_bias_blocks: usize,
    /// The pre-activations `gi = W_ih x + b_ih` and `gh = W_hh h + b_hh` get different gradients
    /// (GRU: the n block of `gh` is scaled by r), so backward keeps `d_gh` apart from `d_gi`.
    pub separate_hidden_grad: bool,
    /// Values the GPU's forward loop caches per (step, sample, unit) for BPTT, in one vec4 of
    /// `gate_cache [T, B, H]` (at most 4): LSTM i, f, g, o; GRU r, z, n, `W_hn h + b_hn`;
    /// 0 = no gate cache.
    pub gate_cache_blocks: usize,
    /// WGSL kernels (`<key>_forward`, `<key>_backward` in `gpu::shader_source`: the cell's part
    /// `shaders/<key>.wgsl` composed with the shared skeletons), each running a layer
    /// direction's whole time loop.
    pub kernels: [&'static str; 2],
    /// Colour of the cell's lines and swatches in charts, `[r, g, b]`.
    pub colour: [u8; 3],
    /// One line under the cell choice of the training page.
    pub help: LangText,
    /// The inspector's note on how the cell computes `h_t` from its gates.
    pub note: LangText,
}

const RNN: CellSpec = CellSpec {
    kind: CellKind::Rnn,
    key: "rnn",
    name: "RNN",
    torch_class: "nn.RNN",
    blocks: 1,
    gates: &[],
    takes_nonlinearity: true,
    has_cell_state: false,
    hidden_bias_blocks: 1,
    separate_hidden_grad: false,
    gate_cache_blocks: 0,
    kernels: ["rnn_forward", "rnn_backward"],
    colour: [0xea, 0x58, 0x0c],
    help: LangText {
        en: "nn.RNN: h_t = tanh(W_ih x_t + W_hh h_(t−1) + b)",
        zh: "nn.RNN：h_t = tanh(W_ih x_t + W_hh h_(t−1) + b)",
    },
    note: LangText {
        en: "An RNN cell has no gates: h_t = tanh(W_ih x_t + b_ih + W_hh h_{t−1} + b_hh).",
        zh: "RNN 单元没有门：h_t = tanh(W_ih x_t + b_ih + W_hh h_{t−1} + b_hh)。",
    },
};

const LSTM: CellSpec = CellSpec {
    kind: CellKind::Lstm,
    key: "lstm",
    name: "LSTM",
    torch_class: "nn.LSTM",
    blocks: 4,
    gates: &[
        Gate {
            letter: "i",
            activation: GateActivation::Sigmoid,
            label: LangText {
                en: "i: input gate",
                zh: "i：输入门",
            },
        },
        Gate {
            letter: "f",
            activation: GateActivation::Sigmoid,
            label: LangText {
                en: "f: forget gate",
                zh: "f：遗忘门",
            },
        },
        Gate {
            letter: "g",
            activation: GateActivation::Tanh,
            label: LangText {
                en: "g: cell candidate",
                zh: "g：候选细胞值",
            },
        },
        Gate {
            letter: "o",
            activation: GateActivation::Sigmoid,
            label: LangText {
                en: "o: output gate",
                zh: "o：输出门",
            },
        },
    ],
    takes_nonlinearity: false,
    has_cell_state: true,
    hidden_bias_blocks: 4,
    separate_hidden_grad: false,
    gate_cache_blocks: 4,
    kernels: ["lstm_forward", "lstm_backward"],
    colour: [0x1d, 0x4e, 0xd8],
    help: LangText {
        en: "nn.LSTM: gates i, f, g, o and a cell state c_t",
        zh: "nn.LSTM：门 i、f、g、o 和细胞状态 c_t",
    },
    note: LangText {
        en: "PyTorch's LSTM: c_t = f ⊙ c_{t−1} + i ⊙ g, h_t = o ⊙ tanh(c_t). i, f, o are sigmoids (0–1); g is a tanh (−1–1).",
        zh: "PyTorch 的 LSTM：c_t = f ⊙ c_{t−1} + i ⊙ g，h_t = o ⊙ tanh(c_t)。i、f、o 是 sigmoid（0–1），g 是 tanh（−1–1）。",
    },
};

const GRU: CellSpec = CellSpec {
    kind: CellKind::Gru,
    key: "gru",
    name: "GRU",
    torch_class: "nn.GRU",
    blocks: 3,
    gates: &[
        Gate {
            letter: "r",
            activation: GateActivation::Sigmoid,
            label: LangText {
                en: "r: reset gate",
                zh: "r：重置门",
            },
        },
        Gate {
            letter: "z",
            activation: GateActivation::Sigmoid,
            label: LangText {
                en: "z: update gate",
                zh: "z：更新门",
            },
        },
        Gate {
            letter: "n",
            activation: GateActivation::Tanh,
            label: LangText {
                en: "n: new gate",
                zh: "n：新门（候选状态）",
            },
        },
    ],
    takes_nonlinearity: false,
    has_cell_state: false,
    hidden_bias_blocks: 2,
    separate_hidden_grad: true,
    gate_cache_blocks: 4,
    kernels: ["gru_forward", "gru_backward"],
    colour: [0x05, 0x96, 0x69],
    help: LangText {
        en: "nn.GRU: gates r, z, n",
        zh: "nn.GRU：门 r、z、n",
    },
    note: LangText {
        en: "PyTorch's GRU: h_t = (1 − z) ⊙ n + z ⊙ h_{t−1}, so z close to 1 keeps the old state. Many textbooks swap z and 1 − z; PyTorch's weights follow the formula above.",
        zh: "PyTorch 的 GRU：h_t = (1 − z) ⊙ n + z ⊙ h_{t−1}，所以 z 接近 1 时保留旧状态。很多教科书把 z 和 1 − z 对调；PyTorch 的权重遵循上面的公式。",
    },
};

impl CellSpec {
    /// Index of the gate with PyTorch's letter `letter` (e.g. `f`, the LSTM's forget gate), or
    /// `None` if the cell has no such gate.
    pub fn gate_index(&self, letter: &str) -> Option<usize> {
        self.gates.iter().position(|g| g.letter == letter)
    }
}

impl CellKind {
    /// Every cell, in the order the UI lists them (RNN, LSTM, GRU).
    pub const ALL: [CellKind; CELL_COUNT] = [CellKind::Rnn, CellKind::Lstm, CellKind::Gru];

    /// The keys of [`CellKind::ALL`], in that order (a URL field's choices).
    pub const KEYS: [&'static str; CELL_COUNT] = {
        let mut keys = [""; CELL_COUNT];
        let mut k = 0;
        while k < CELL_COUNT {
            keys[k] = CellKind::ALL[k].spec().key;
            k += 1;
        }
        keys
    };

    /// The cell's descriptor.
    pub const fn spec(self) -> &'static CellSpec {
        match self {
            CellKind::Rnn => &RNN,
            CellKind::Lstm => &LSTM,
            CellKind::Gru => &GRU,
        }
    }

    /// Position in [`CellKind::ALL`].
    pub fn index(self) -> usize {
        CellKind::ALL
            .iter()
            .position(|&c| c == self)
            .expect("every cell is in CellKind::ALL")
    }

    /// Number of gate blocks G stacked in the weights: RNN 1, LSTM 4, GRU 3.
    pub fn gates(self) -> usize {
        self.spec().blocks
    }

    /// Lower-case name as used in URLs and PyTorch class names (`rnn`, `lstm`, `gru`).
    pub fn as_str(self) -> &'static str {
        self.spec().key
    }

    /// The display name (`RNN`, `LSTM`, `GRU`).
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Parses a key of [`CellKind::KEYS`] (case-insensitive). Returns `None` for anything else.
    pub fn parse(s: &str) -> Option<CellKind> {
        CellKind::ALL
            .into_iter()
            .find(|c| c.spec().key.eq_ignore_ascii_case(s))
    }

    /// The keys as a phrase for messages: `rnn, lstm or gru`.
    pub fn keys_or() -> String {
        or_list(&CellKind::KEYS)
    }

    /// Floats of state carried from step to step per unit: 2 with a cell state (h and c), else 1.
    pub fn state_blocks(self) -> usize {
        if self.spec().has_cell_state {
            2
        } else {
            1
        }
    }
}

/// `a, b or c` (English list for messages); `a` alone for one item.
pub fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_owned(),
        [rest @ .., last] => {
            let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
            format!("{} or {}", rest.join(", "), last.as_ref())
        }
    }
}

/// The forward step of `cell` ([`Cell::forward_step`] of its implementation).
#[inline]
pub fn forward_step(cell: CellKind, input: StepIn<'_>, out: StepOut<'_>) {
    match cell {
        CellKind::Rnn => rnn::Rnn::forward_step(input, out),
        CellKind::Lstm => lstm::Lstm::forward_step(input, out),
        CellKind::Gru => gru::Gru::forward_step(input, out),
    }
}

/// The backward step of `cell` ([`Cell::backward_step`] of its implementation).
#[inline]
pub fn backward_step(cell: CellKind, cache: StepCache<'_>, grads: StepGrads<'_>) {
    match cell {
        CellKind::Rnn => rnn::Rnn::backward_step(cache, grads),
        CellKind::Lstm => lstm::Lstm::backward_step(cache, grads),
        CellKind::Gru => gru::Gru::backward_step(cache, grads),
    }
}
