//! The LSTM cell of `nn.LSTM` (Hochreiter & Schmidhuber 1997, in PyTorch's formulation with a
//! forget gate and two bias vectors; gate blocks stacked **i, f, g, o**):
//!
//! ```text
//! [i~, f~, g~, o~] = W_ih x + b_ih + W_hh h + b_hh          each [H]
//! i = σ(i~)   f = σ(f~)   g = tanh(g~)   o = σ(o~)
//! c' = f ⊙ c + i ⊙ g
//! h' = o ⊙ tanh(c')
//! ```
//!
//! One step for one sample; `gi = W_ih x + b_ih` and `gh = W_hh h + b_hh` (`[4H]` each) come from
//! the layer driver ([`crate::math::layer`]).

use super::activation::{sigmoid_grad_from_output, tanh_grad_from_output};
use super::lanes::{sigmoid_in_place, tanh_in_place};
use super::step::{Cell, StepCache, StepGrads, StepIn, StepOut};

/// Forward step (no pins): [`forward_step_pinned`] with `pins = &[]`.
pub fn forward_step(
    gi: &[f32],
    gh: &[f32],
    c_prev: &[f32],
    gates: &mut [f32],
    c: &mut [f32],
    tanh_c: &mut [f32],
    h: &mut [f32],
) {
    forward_step_pinned(gi, gh, c_prev, &[], gates, c, tanh_c, h)
}

/// Forward step with pinned gates.
///
/// - `gi`, `gh`: `[4H]` pre-activation parts (i, f, g, o blocks); `c_prev`: `[H]`.
/// - `pins`: `(gate, value)` pairs (gate 0 i, 1 f, 2 g, 3 o): that gate's activation is replaced
///   by `value` in every unit after the nonlinearity, before it is used (the inspector's
///   "pin a gate"); empty for training.
/// - Outputs: `gates` `[4H]` activations `i, f, g, o` (cached for backward), `c` `[H]` new cell
///   state, `tanh_c` `[H]` = `tanh(c)` (cached), `h` `[H]` new hidden state.
#[expect(
    clippy::too_many_arguments,
    reason = "inputs, pins and the four outputs"
)]
pub fn forward_step_pinned(
    gi: &[f32],
    gh: &[f32],
    c_prev: &[f32],
    pins: &[(usize, f32)],
    gates: &mut [f32],
    c: &mut [f32],
    tanh_c: &mut [f32],
    h: &mut [f32],
) {
    let hs = c_prev.len();
    // Pre-activations first, then each activation over its contiguous blocks (i, f | g | o).
    for ((y, &a), &b) in gates.iter_mut().zip(gi).zip(gh) {
        *y = a + b;
    }
    sigmoid_in_place(&mut gates[..2 * hs]);
    tanh_in_place(&mut gates[2 * hs..3 * hs]);
    sigmoid_in_place(&mut gates[3 * hs..4 * hs]);
    for &(gate, value) in pins {
        gates[gate * hs..(gate + 1) * hs].fill(value);
    }
    let (i, rest) = gates.split_at(hs);
    let (f, rest) = rest.split_at(hs);
    let (g, o) = rest.split_at(hs);
    for j in 0..hs {
        c[j] = f[j] * c_prev[j] + i[j] * g[j];
    }
    tanh_c.copy_from_slice(c);
    tanh_in_place(tanh_c);
    for j in 0..hs {
        h[j] = o[j] * tanh_c[j];
    }
}

/// Backward step.
///
/// - `gates` `[4H]`, `c_prev` `[H]`, `tanh_c` `[H]`: cached by [`forward_step`].
/// - `dh`, `dc`: `[H]` total gradients of this step's `h'` and `c'`.
/// - Outputs: `d_pre` `[4H]` gradient of the pre-activations (of `gi` and of `gh` alike),
///   `dc_prev` `[H]` gradient of `c` (the recurrent part `dh_prev = d_pre · W_hh` is the
///   caller's batched matmul).
pub fn backward_step(
    gates: &[f32],
    c_prev: &[f32],
    tanh_c: &[f32],
    dh: &[f32],
    dc: &[f32],
    d_pre: &mut [f32],
    dc_prev: &mut [f32],
) {
    let hs = c_prev.len();
    let (i, rest) = gates.split_at(hs);
    let (f, rest) = rest.split_at(hs);
    let (g, o) = rest.split_at(hs);
    let (di, rest) = d_pre.split_at_mut(hs);
    let (df, rest) = rest.split_at_mut(hs);
    let (dg, d_o) = rest.split_at_mut(hs);
    for j in 0..hs {
        // h' = o ⊙ tanh(c'): backprop into o and into c' (added to the dc from step t+1).
        d_o[j] = dh[j] * tanh_c[j] * sigmoid_grad_from_output(o[j]);
        let dc_total = dc[j] + dh[j] * o[j] * tanh_grad_from_output(tanh_c[j]);
        // c' = f ⊙ c + i ⊙ g
        di[j] = dc_total * g[j] * sigmoid_grad_from_output(i[j]);
        df[j] = dc_total * c_prev[j] * sigmoid_grad_from_output(f[j]);
        dg[j] = dc_total * i[j] * tanh_grad_from_output(g[j]);
        dc_prev[j] = dc_total * f[j];
    }
}

/// The LSTM cell as a [`Cell`]: gates i, f, g, o, a cell state, `tanh(c)` cached.
#[derive(Clone, Copy, Debug)]
pub struct Lstm;

impl Cell for Lstm {
    #[inline]
    fn forward_step(input: StepIn<'_>, out: StepOut<'_>) {
        forward_step_pinned(
            input.gi,
            input.gh,
            input.c_prev,
            input.pins,
            out.gates,
            out.c,
            out.aux,
            out.h,
        );
    }

    #[inline]
    fn backward_step(cache: StepCache<'_>, grads: StepGrads<'_>) {
        backward_step(
            cache.gates,
            cache.c_prev,
            cache.aux,
            cache.dh,
            cache.dc,
            grads.d_gi,
            grads.dc_prev,
        );
        grads.dh_prev_direct.fill(0.0);
    }
}
