//! Shapes, parameter counts and validation of a recurrent module, as PyTorch defines them,
//! computed without allocating any tensor (so the shapes lesson can show sizes up to 4096).
//!
//! - input: `[T, B, I]`, or `[B, T, I]` with `batch_first` (batch_first moves the batch axis
//!   of input and output only, never of `h0`/`h_n`).
//! - h0, h_n (and LSTM c0, c_n): `[L·D, B, H]`, layer-major then direction.
//! - output: like input with the last axis `D·H`.
//! - parameters: two weight matrices and **two** bias vectors per layer and direction.
//!
//! Configurations PyTorch accepts but Unroll does not implement (`proj_size > 0`, dropout
//! between stacked layers) are rejected with [`RnnError`], never ignored.

use std::fmt;

use super::params::{rnn_param_shapes, CellKind, RnnSpec};

/// Why a recurrent configuration or call was rejected. `Display` gives a message for the user;
/// where PyTorch has one for the same mistake, it is PyTorch's wording.
#[derive(Clone, Debug, PartialEq)]
pub enum RnnError {
    /// `input_size` is 0.
    ZeroInputSize,
    /// `hidden_size` is 0.
    ZeroHiddenSize,
    /// `num_layers` is 0.
    ZeroNumLayers,
    /// `dropout` outside `[0, 1]` (or NaN).
    InvalidDropout {
        /// The value given.
        dropout: f64,
    },
    /// `dropout > 0` with `num_layers > 1`: PyTorch applies dropout between layers; Unroll
    /// does not implement it.
    DropoutNotImplemented {
        /// The value given.
        dropout: f64,
        /// The layer count given.
        num_layers: usize,
    },
    /// `proj_size > 0` on an LSTM: supported by PyTorch, not implemented by Unroll.
    ProjSizeNotImplemented {
        /// The value given.
        proj_size: usize,
    },
    /// `proj_size > 0` on an RNN or GRU (PyTorch rejects it too).
    ProjSizeNotSupported {
        /// The cell given.
        cell: CellKind,
    },
    /// `seq_len` is 0.
    EmptySequence,
    /// The input is not 3-D.
    InputRank {
        /// Number of dimensions given.
        got: usize,
    },
    /// The input's last dimension differs from `input_size`.
    InputSize {
        /// `input_size` of the module.
        expected: usize,
        /// Last dimension of the input.
        got: usize,
    },
    /// A tensor's data does not have as many values as its shape needs.
    DataLength {
        /// Which tensor (`input`, `h0`, `c0`).
        tensor: &'static str,
        /// Its shape.
        shape: Vec<usize>,
        /// Number of values given.
        got: usize,
    },
    /// An initial state of the wrong shape.
    HiddenShape {
        /// PyTorch's name: `hidden` (RNN/GRU h0), `hidden[0]` (LSTM h0), `hidden[1]` (LSTM c0).
        which: &'static str,
        /// `[L·D, B, H]`.
        expected: [usize; 3],
        /// The shape given.
        got: Vec<usize>,
    },
    /// A `c0` was given to an RNN or GRU, which have no cell state.
    UnexpectedCellState {
        /// The cell.
        cell: CellKind,
    },
    /// `lengths` does not have one entry per sample.
    LengthsCount {
        /// The batch size.
        expected: usize,
        /// Number of lengths given.
        got: usize,
    },
    /// A sample length outside `1..=seq_len`.
    LengthOutOfRange {
        /// Sample index.
        sample: usize,
        /// Its length.
        length: u32,
        /// The padded length.
        seq_len: usize,
    },
    /// A symbol index outside the vocabulary.
    TokenOutOfRange {
        /// The index given.
        token: u32,
        /// The vocabulary size V.
        vocab_size: usize,
    },
    /// A gate pin that does not fit the model (layer, direction, gate or step out of range, a
    /// pin on an RNN cell, a non-finite value); the message says which.
    InvalidPin(String),
}

/// Formats a shape as PyTorch prints a size: `(2, 4, 5)`.
fn tuple(shape: &[usize]) -> String {
    let parts: Vec<String> = shape.iter().map(usize::to_string).collect();
    if parts.len() == 1 {
        format!("({},)", parts[0])
    } else {
        format!("({})", parts.join(", "))
    }
}

impl fmt::Display for RnnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RnnError::ZeroInputSize => write!(f, "input_size must be greater than zero"),
            RnnError::ZeroHiddenSize => write!(f, "hidden_size must be greater than zero"),
            RnnError::ZeroNumLayers => write!(f, "num_layers must be greater than zero"),
            RnnError::InvalidDropout { dropout } => write!(
                f,
                "dropout should be a number in range [0, 1] representing the probability of an element being \
                 zeroed, got {dropout}"
            ),
            RnnError::DropoutNotImplemented { dropout, num_layers } => write!(
                f,
                "not implemented: dropout between stacked layers (dropout={dropout} with num_layers={num_layers}) \
                 is not supported by Unroll; use dropout=0"
            ),
            RnnError::ProjSizeNotImplemented { proj_size } => write!(
                f,
                "not implemented: LSTM with projections (proj_size={proj_size}) is not supported by Unroll; use \
                 proj_size=0"
            ),
            RnnError::ProjSizeNotSupported { cell } => write!(
                f,
                "proj_size argument is only supported for LSTM, not RNN or GRU (got {})",
                cell.as_str()
            ),
            RnnError::EmptySequence => write!(f, "Expected sequence length to be larger than 0 in RNN"),
            RnnError::InputRank { got } => write!(
                f,
                "input must have 3 dimensions (seq_len, batch, input_size), or (batch, seq_len, input_size) with \
                 batch_first, got {got}"
            ),
            RnnError::InputSize { expected, got } => {
                write!(f, "input.size(-1) must be equal to input_size. Expected {expected}, got {got}")
            }
            RnnError::DataLength { tensor, shape, got } => {
                let need: usize = shape.iter().product();
                write!(f, "{tensor} of shape {} needs {need} values, got {got}", tuple(shape))
            }
            RnnError::HiddenShape { which, expected, got } => {
                write!(f, "Expected {which} size {}, got {}", tuple(expected), tuple(got))
            }
            RnnError::UnexpectedCellState { cell } => {
                write!(f, "c0 was given, but only an LSTM has a cell state (this is {})", cell.as_str())
            }
            RnnError::LengthsCount { expected, got } => {
                write!(f, "lengths must have one entry per sample: expected {expected}, got {got}")
            }
            RnnError::LengthOutOfRange { sample, length, seq_len } => write!(
                f,
                "lengths[{sample}] = {length} is outside 1..={seq_len} (each sample needs at least one step and at \
                 most seq_len)"
            ),
            RnnError::TokenOutOfRange { token, vocab_size } => {
                write!(f, "symbol index {token} is outside the vocabulary of {vocab_size} symbols")
            }
            RnnError::InvalidPin(why) => write!(f, "cannot pin this gate: {why}"),
        }
    }
}

impl std::error::Error for RnnError {}

/// A configuration that is valid but does something the user may not expect.
#[derive(Clone, Debug, PartialEq)]
pub enum RnnWarning {
    /// `dropout > 0` with a single layer: PyTorch accepts it and does nothing (dropout only
    /// acts between stacked layers); so does Unroll.
    DropoutSingleLayer {
        /// The value given.
        dropout: f64,
    },
}

impl fmt::Display for RnnWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RnnWarning::DropoutSingleLayer { dropout } => write!(
                f,
                "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects \
                 num_layers greater than 1, but got dropout={dropout} and num_layers=1 (it has no effect)"
            ),
        }
    }
}

/// The arguments of `nn.RNN` / `nn.LSTM` / `nn.GRU` that shape a module, including the options
/// Unroll rejects.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RnnConfig {
    /// Cell, sizes, layers, directions.
    pub spec: RnnSpec,
    /// Input and output are `[B, T, ·]` instead of `[T, B, ·]`.
    pub batch_first: bool,
    /// LSTM projection size (PyTorch option); only 0 is implemented.
    pub proj_size: usize,
    /// Dropout probability between stacked layers (PyTorch option); only 0 is implemented for
    /// more than one layer.
    pub dropout: f64,
}

impl RnnConfig {
    /// `spec` with `batch_first = false`, `proj_size = 0`, `dropout = 0`.
    pub fn new(spec: RnnSpec) -> Self {
        RnnConfig {
            spec,
            batch_first: false,
            proj_size: 0,
            dropout: 0.0,
        }
    }

    /// Checks the configuration; returns the warnings of a valid one.
    ///
    /// # Errors
    /// Zero sizes, dropout outside `[0, 1]`, and the unimplemented options (see [`RnnError`]).
    pub fn validate(&self) -> Result<Vec<RnnWarning>, RnnError> {
        validate_spec(&self.spec)?;
        if !(0.0..=1.0).contains(&self.dropout) {
            return Err(RnnError::InvalidDropout {
                dropout: self.dropout,
            });
        }
        if self.proj_size > 0 {
            return Err(match self.spec.cell {
                CellKind::Lstm => RnnError::ProjSizeNotImplemented {
                    proj_size: self.proj_size,
                },
                cell => RnnError::ProjSizeNotSupported { cell },
            });
        }
        let mut warnings = Vec::new();
        if self.dropout > 0.0 {
            if self.spec.num_layers > 1 {
                return Err(RnnError::DropoutNotImplemented {
                    dropout: self.dropout,
                    num_layers: self.spec.num_layers,
                });
            }
            warnings.push(RnnWarning::DropoutSingleLayer {
                dropout: self.dropout,
            });
        }
        Ok(warnings)
    }
}

/// Checks the sizes of a spec: `input_size`, `hidden_size`, `num_layers` ≥ 1.
///
/// # Errors
/// [`RnnError::ZeroInputSize`], [`RnnError::ZeroHiddenSize`], [`RnnError::ZeroNumLayers`].
pub fn validate_spec(spec: &RnnSpec) -> Result<(), RnnError> {
    if spec.hidden_size == 0 {
        return Err(RnnError::ZeroHiddenSize);
    }
    if spec.num_layers == 0 {
        return Err(RnnError::ZeroNumLayers);
    }
    if spec.input_size == 0 {
        return Err(RnnError::ZeroInputSize);
    }
    Ok(())
}

/// One parameter tensor as PyTorch lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamShape {
    /// PyTorch name, e.g. `weight_hh_l1_reverse`.
    pub name: String,
    /// Shape, e.g. `[4·H, H]`.
    pub shape: Vec<usize>,
    /// Number of elements (u64 so that large configurations cannot overflow on wasm32).
    pub numel: u64,
}

/// Every shape of one forward call, as PyTorch gives them.
#[derive(Clone, Debug, PartialEq)]
pub struct RnnShapes {
    /// `[T, B, I]`, or `[B, T, I]` with batch_first.
    pub input: [usize; 3],
    /// `[L·D, B, H]`.
    pub h0: [usize; 3],
    /// `[L·D, B, H]` for LSTM; `None` for RNN/GRU.
    pub c0: Option<[usize; 3]>,
    /// `[T, B, D·H]`, or `[B, T, D·H]` with batch_first.
    pub output: [usize; 3],
    /// `[L·D, B, H]` (never batch-first).
    pub h_n: [usize; 3],
    /// `[L·D, B, H]` for LSTM; `None` for RNN/GRU.
    pub c_n: Option<[usize; 3]>,
    /// `sum(p.numel() for p in m.parameters())`.
    pub param_count: u64,
    /// Per-tensor breakdown in PyTorch's order.
    pub params: Vec<ParamShape>,
    /// Warnings of a valid configuration (e.g. dropout with one layer).
    pub warnings: Vec<RnnWarning>,
}

/// Shapes and parameter count of `config` applied to a `[batch, seq_len]` input.
/// Allocates no tensor, so any size whose counts fit in u64 works.
///
/// # Errors
/// Those of [`RnnConfig::validate`], and [`RnnError::EmptySequence`] for `seq_len = 0`.
pub fn rnn_shapes(config: &RnnConfig, batch: usize, seq_len: usize) -> Result<RnnShapes, RnnError> {
    let warnings = config.validate()?;
    if seq_len == 0 {
        return Err(RnnError::EmptySequence);
    }
    let spec = &config.spec;
    let state = state_shape(spec, batch);
    let lstm = spec.cell.spec().has_cell_state;
    let out_width = spec.num_directions() * spec.hidden_size;
    let (input, output) = if config.batch_first {
        (
            [batch, seq_len, spec.input_size],
            [batch, seq_len, out_width],
        )
    } else {
        (
            [seq_len, batch, spec.input_size],
            [seq_len, batch, out_width],
        )
    };
    let params: Vec<ParamShape> = rnn_param_shapes(spec, "")
        .into_iter()
        .map(|(name, shape)| {
            let numel = shape.iter().map(|&d| d as u64).product();
            ParamShape { name, shape, numel }
        })
        .collect();
    Ok(RnnShapes {
        input,
        h0: state,
        c0: lstm.then_some(state),
        output,
        h_n: state,
        c_n: lstm.then_some(state),
        param_count: params.iter().map(|p| p.numel).sum(),
        params,
        warnings,
    })
}

/// `[L·D, B, H]`: the shape of h0, c0, h_n and c_n.
pub fn state_shape(spec: &RnnSpec, batch: usize) -> [usize; 3] {
    [
        spec.num_layers * spec.num_directions(),
        batch,
        spec.hidden_size,
    ]
}

/// Which initial state a shape check is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// The hidden state h0.
    Hidden,
    /// The LSTM cell state c0.
    Cell,
}

/// Checks the shape of an initial state against `[L·D, B, H]`.
///
/// # Errors
/// [`RnnError::HiddenShape`] naming the expected and the received shape, as PyTorch does
/// ("Expected hidden size (2, 4, 5), got (4, 2, 5)"; for an LSTM `hidden[0]` / `hidden[1]`);
/// [`RnnError::UnexpectedCellState`] for a c0 given to an RNN or GRU.
pub fn check_state_shape(
    spec: &RnnSpec,
    batch: usize,
    kind: StateKind,
    got: &[usize],
) -> Result<(), RnnError> {
    let which = match (spec.cell.spec().has_cell_state, kind) {
        (true, StateKind::Hidden) => "hidden[0]",
        (true, StateKind::Cell) => "hidden[1]",
        (false, StateKind::Cell) => return Err(RnnError::UnexpectedCellState { cell: spec.cell }),
        (false, StateKind::Hidden) => "hidden",
    };
    let expected = state_shape(spec, batch);
    if got != expected {
        return Err(RnnError::HiddenShape {
            which,
            expected,
            got: got.to_vec(),
        });
    }
    Ok(())
}
