//! One time step of one sample, as a cell's CPU step pair sees it: the slices a forward step
//! reads ([`StepIn`]) and writes ([`StepOut`]), what a backward step reads ([`StepCache`]) and
//! writes ([`StepGrads`]), and the [`Cell`] trait each cell implements (`rnn.rs`, `lstm.rs`,
//! `gru.rs`), with the plain RNN's [`Nonlinearity`]. The cells' descriptors and the dispatch over them are in [`super::cell`].

use serde::{Deserialize, Serialize};

/// Nonlinearity of the plain RNN cell (`nn.RNN(nonlinearity=...)`). Ignored by LSTM/GRU.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Nonlinearity {
    /// `tanh` (PyTorch's default).
    #[default]
    Tanh,
    /// `relu`.
    Relu,
}

/// What one forward step of one sample reads. Slices are `[H]` unless said otherwise.
#[derive(Clone, Copy, Debug)]
pub struct StepIn<'a> {
    /// RNN only: tanh or ReLU.
    pub nonlinearity: Nonlinearity,
    /// `[G·H]` `W_ih x + b_ih`.
    pub gi: &'a [f32],
    /// `[G·H]` `W_hh h + b_hh`.
    pub gh: &'a [f32],
    /// The hidden state fed in.
    pub h_prev: &'a [f32],
    /// The cell state fed in (empty without one).
    pub c_prev: &'a [f32],
    /// `(gate, value)` pins (inspector); empty for training.
    pub pins: &'a [(usize, f32)],
}

/// What one forward step of one sample writes (and keeps for backward).
#[derive(Debug)]
pub struct StepOut<'a> {
    /// `[G·H]` gate activations (empty for a cell without gates).
    pub gates: &'a mut [f32],
    /// The new cell state (empty without one).
    pub c: &'a mut [f32],
    /// The cell's extra cache: LSTM `tanh(c)`, GRU `W_hn h + b_hn` (empty for the RNN).
    pub aux: &'a mut [f32],
    /// The new hidden state.
    pub h: &'a mut [f32],
}

/// What one backward step of one sample reads: the forward step's inputs and cache, and the
/// total gradients of its outputs. Slices are `[H]` unless said otherwise.
#[derive(Clone, Copy, Debug)]
pub struct StepCache<'a> {
    /// RNN only: tanh or ReLU.
    pub nonlinearity: Nonlinearity,
    /// `[G·H]` gate activations cached by the forward step.
    pub gates: &'a [f32],
    /// The forward step's extra cache ([`StepOut::aux`]).
    pub aux: &'a [f32],
    /// The hidden state fed into the step.
    pub h_prev: &'a [f32],
    /// The hidden state the step produced.
    pub h: &'a [f32],
    /// The cell state fed into the step (empty without one).
    pub c_prev: &'a [f32],
    /// Total gradient of the new `h`.
    pub dh: &'a [f32],
    /// Total gradient of the new `c` (empty without one).
    pub dc: &'a [f32],
}

/// What one backward step of one sample writes.
#[derive(Debug)]
pub struct StepGrads<'a> {
    /// `[G·H]` gradient of `gi` (and of `gh` unless [`CellSpec::separate_hidden_grad`]).
    pub d_gi: &'a mut [f32],
    /// `[G·H]` gradient of `gh` when [`CellSpec::separate_hidden_grad`]; empty otherwise.
    pub d_gh: &'a mut [f32],
    /// The part of the gradient of `h_prev` that bypasses `W_hh` (overwritten; 0 if none).
    pub dh_prev_direct: &'a mut [f32],
    /// Gradient of `c_prev` (empty without a cell state).
    pub dc_prev: &'a mut [f32],
}

/// A cell's CPU step pair: one time step of one sample (looped over time by
/// [`crate::math::layer`], the twins of its WGSL kernels, which run the whole loop).
///
/// The layer driver ([`crate::math::layer`]) does the batched matmuls; a step gets their
/// results and writes the new state, its cache and, backwards, the pre-activation gradients.
pub trait Cell {
    /// Forward step.
    fn forward_step(input: StepIn<'_>, out: StepOut<'_>);
    /// Backward step.
    fn backward_step(cache: StepCache<'_>, grads: StepGrads<'_>);
}
