//! CPU reference of the recurrent cells, loss and optimizer, in PyTorch's layouts.
//!
//! Shape legend used in every doc comment of this crate (and in `shaders/README.md`):
//! `B` batch, `T` seq_len (time steps), `I` input_size, `H` hidden_size, `G` gate blocks
//! (RNN 1, LSTM 4, GRU 3), `L` num_layers, `D` directions (1 or 2), `C` classes, `V` vocab.
//! Everything is row-major f32. Time-major buffers are `[T, B, ·]`.
//!
//! Gate orders: LSTM `i, f, g, o`; GRU `r, z, n` (PyTorch). Module map:
//! - [`activation`], [`linalg`]: NaN-free activations; the matmuls of the hot path.
//! - [`packed`] (a part of [`linalg`], which dispatches to its kernels): the recurrent step's
//!   product against a weight matrix prepared once per sequence (its own `f32x4` kernels in the
//!   browser build, `simd128` and relaxed SIMD).
//! - [`lanes`]: sigmoid/tanh over slices for the cell steps (`simd128` polynomial in the
//!   browser build, the scalar activations natively).
//! - [`cell`]: [`cell::CellKind`], one descriptor per cell ([`cell::CellSpec`]: key, name,
//!   gates, cell state, kernels, colour) and the CPU step pair [`cell::Cell`]; its docs list a
//!   cell's own files and the files a new cell touches.
//! - [`rnn`], [`lstm`], [`gru`]: one cell step forward/backward for one sample (looped over
//!   time by [`layer`], the CPU twins of the WGSL cell kernels).
//! - [`layer`]: one (layer, direction) over time, forward and BPTT, packed lengths.
//! - [`recurrent`]: the whole `nn.RNN`/`nn.LSTM`/`nn.GRU` module.
//! - [`shapes`]: shapes, parameter counts, validation errors.
//! - [`model`]: the one model of every lab (the recurrent module and a linear head over its
//!   readouts, cross-entropy or squared error), its batches ([`model::SeqBatch`]) and the
//!   names lab's inspection views.
//! - [`loss`], [`optim`], [`init`]: losses, Adam and clipping, PyTorch's initialisation.
//!
//! Imports nothing from `gpu` or `train`.

pub mod activation;
pub mod cell;
pub mod gru;
pub mod init;
pub mod lanes;
pub mod layer;
pub mod linalg;
pub mod loss;
pub mod lstm;
pub mod model;
pub mod optim;
pub mod params;
pub use linalg::packed;
pub mod recurrent;
pub mod rnn;
pub mod shapes;
pub mod step;
