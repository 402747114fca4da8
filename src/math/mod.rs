//! CPU reference of the recurrent cells, loss and optimizer, in PyTorch's layouts.
//!
//! Shape legend used in every doc comment of this crate (and in `shaders/README.md`):
//! `B` batch, `T` seq_len (time steps), `I` input_size, `H` hidden_size, `G` gate blocks
//! (RNN 1, LSTM 4, GRU 3), `L` num_layers, `D` directions (1 or 2), `C` classes, `V` vocab.
//! Everything is row-major f32. Time-major buffers are `[T, B, ·]`.
//!
//! Imports nothing from `gpu`, `train` or `ui`.

pub mod classifier;
pub mod params;
