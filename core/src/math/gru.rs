//! The GRU cell of `nn.GRU` (Cho et al. 2014, in PyTorch's formulation: the reset gate is
//! applied *after* the hidden matmul, "reset-after"; gate blocks stacked **r, z, n**):
//!
//! ```text
//! r = σ(W_ir x + b_ir + W_hr h + b_hr)
//! z = σ(W_iz x + b_iz + W_hz h + b_hz)
//! n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))
//! h' = (1 − z) ⊙ n + z ⊙ h
//! ```
//!
//! One step for one sample; `gi = W_ih x + b_ih` and `gh = W_hh h + b_hh` (`[3H]` each) come from
//! the layer driver ([`crate::math::layer`]). Unlike RNN/LSTM, `gi` and `gh` get different
//! gradients (the n block of `gh` is scaled by r).

use super::activation::{sigmoid_grad_from_output, tanh_grad_from_output};
use super::lanes::{sigmoid_in_place, tanh_in_place};
use super::step::{Cell, StepCache, StepGrads, StepIn, StepOut};

/// Forward step (no pins): [`forward_step_pinned`] with `pins = &[]`.
pub fn forward_step(
    gi: &[f32],
    gh: &[f32],
    h_prev: &[f32],
    gates: &mut [f32],
    n_hh: &mut [f32],
    h: &mut [f32],
) {
    forward_step_pinned(gi, gh, h_prev, &[], gates, n_hh, h)
}

/// Forward step with pinned gates.
///
/// - `gi`, `gh`: `[3H]` pre-activation parts (r, z, n blocks); `h_prev`: `[H]`.
/// - `pins`: `(gate, value)` pairs (gate 0 r, 1 z, 2 n): that gate's activation is replaced by
///   `value` in every unit after the nonlinearity, before it is used (a pinned r changes n);
///   empty for training.
/// - Outputs: `gates` `[3H]` activations `r, z, n` (cached), `n_hh` `[H]` = `W_hn h + b_hn`
///   (cached: the backward pass needs it for dr), `h` `[H]` new hidden state.
pub fn forward_step_pinned(
    gi: &[f32],
    gh: &[f32],
    h_prev: &[f32],
    pins: &[(usize, f32)],
    gates: &mut [f32],
    n_hh: &mut [f32],
    h: &mut [f32],
) {
    let hs = h_prev.len();
    let pinned = |gate: usize, block: &mut [f32]| {
        if let Some(&(_, value)) = pins.iter().rev().find(|p| p.0 == gate) {
            block.fill(value);
        }
    };
    // r and z: pre-activations, then one sigmoid over the contiguous [2H] block.
    for ((y, &a), &b) in gates[..2 * hs].iter_mut().zip(gi).zip(gh) {
        *y = a + b;
    }
    sigmoid_in_place(&mut gates[..2 * hs]);
    let (r, rest) = gates.split_at_mut(hs);
    let (z, n) = rest.split_at_mut(hs);
    pinned(0, r);
    pinned(1, z);
    // n = tanh(n_i + r ⊙ n_hh), with r as pinned.
    n_hh.copy_from_slice(&gh[2 * hs..3 * hs]);
    for j in 0..hs {
        n[j] = gi[2 * hs + j] + r[j] * n_hh[j];
    }
    tanh_in_place(n);
    pinned(2, n);
    for j in 0..hs {
        h[j] = (1.0 - z[j]) * n[j] + z[j] * h_prev[j];
    }
}

/// Backward step.
///
/// - `gates` `[3H]`, `n_hh` `[H]`: cached by [`forward_step`]; `h_prev` `[H]`.
/// - `dh`: `[H]` total gradient of this step's `h'`.
/// - Outputs: `d_gi` `[3H]` gradient of `gi`, `d_gh` `[3H]` gradient of `gh`, and
///   `dh_prev_direct` `[H]` = `z ⊙ dh`, the part of the gradient of `h` that bypasses `W_hh`
///   (the caller adds `d_gh · W_hh`).
pub fn backward_step(
    gates: &[f32],
    n_hh: &[f32],
    h_prev: &[f32],
    dh: &[f32],
    d_gi: &mut [f32],
    d_gh: &mut [f32],
    dh_prev_direct: &mut [f32],
) {
    let hs = h_prev.len();
    let (r, rest) = gates.split_at(hs);
    let (z, n) = rest.split_at(hs);
    for j in 0..hs {
        // h' = (1 − z) ⊙ n + z ⊙ h
        let dn = dh[j] * (1.0 - z[j]);
        let dz = dh[j] * (h_prev[j] - n[j]);
        dh_prev_direct[j] = dh[j] * z[j];
        // n = tanh(n_i + r ⊙ n_hh)
        let dn_pre = dn * tanh_grad_from_output(n[j]);
        let dr_pre = dn_pre * n_hh[j] * sigmoid_grad_from_output(r[j]);
        let dz_pre = dz * sigmoid_grad_from_output(z[j]);
        d_gi[j] = dr_pre;
        d_gi[hs + j] = dz_pre;
        d_gi[2 * hs + j] = dn_pre;
        d_gh[j] = dr_pre;
        d_gh[hs + j] = dz_pre;
        d_gh[2 * hs + j] = dn_pre * r[j];
    }
}

/// The GRU cell as a [`Cell`]: gates r, z, n, `W_hn h + b_hn` cached, separate `d_gh`.
#[derive(Clone, Copy, Debug)]
pub struct Gru;

impl Cell for Gru {
    #[inline]
    fn forward_step(input: StepIn<'_>, out: StepOut<'_>) {
        forward_step_pinned(
            input.gi,
            input.gh,
            input.h_prev,
            input.pins,
            out.gates,
            out.aux,
            out.h,
        );
    }

    #[inline]
    fn backward_step(cache: StepCache<'_>, grads: StepGrads<'_>) {
        backward_step(
            cache.gates,
            cache.aux,
            cache.h_prev,
            cache.dh,
            grads.d_gi,
            grads.d_gh,
            grads.dh_prev_direct,
        );
    }
}
