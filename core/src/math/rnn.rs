//! The Elman RNN cell of `nn.RNN` (PyTorch docs, `torch.nn.RNN`):
//!
//! ```text
//! h' = act(W_ih x + b_ih + W_hh h + b_hh)      act = tanh (default) or relu
//! ```
//!
//! One step for one sample. The matrix products are done by the layer driver
//! ([`crate::math::layer`]) for the whole batch; these functions get their results:
//! `gi = W_ih x + b_ih` and `gh = W_hh h + b_hh`, each `[H]` (G = 1).

use super::activation::{relu, relu_grad_from_output, tanh_grad_from_output};
use super::lanes::tanh_in_place;
use super::step::{Cell, Nonlinearity, StepCache, StepGrads, StepIn, StepOut};

/// Forward step: `h = act(gi + gh)`.
///
/// - `gi`, `gh`: `[H]` pre-activation parts; `h`: `[H]` output (the new hidden state).
pub fn forward_step(nonlinearity: Nonlinearity, gi: &[f32], gh: &[f32], h: &mut [f32]) {
    for ((h, &a), &b) in h.iter_mut().zip(gi).zip(gh) {
        *h = a + b;
    }
    match nonlinearity {
        Nonlinearity::Tanh => tanh_in_place(h),
        Nonlinearity::Relu => h.iter_mut().for_each(|y| *y = relu(*y)),
    }
}

/// Backward step: `d_pre = dh ⊙ act'(pre)`, with `act'` taken from the output `h`.
/// `d_pre` is the gradient of both `gi` and `gh` (they are summed in the forward pass); the
/// caller turns it into `dh_prev = d_pre · W_hh` and the weight gradients.
///
/// - `h`: `[H]` this step's output; `dh`: `[H]` total gradient of `h`; `d_pre`: `[H]` output.
pub fn backward_step(nonlinearity: Nonlinearity, h: &[f32], dh: &[f32], d_pre: &mut [f32]) {
    for ((d, &y), &g) in d_pre.iter_mut().zip(h).zip(dh) {
        *d = g * match nonlinearity {
            Nonlinearity::Tanh => tanh_grad_from_output(y),
            Nonlinearity::Relu => relu_grad_from_output(y),
        };
    }
}

/// The Elman cell as a [`Cell`]: no gates, no cell state, no extra cache.
#[derive(Clone, Copy, Debug)]
pub struct Rnn;

impl Cell for Rnn {
    #[inline]
    fn forward_step(input: StepIn<'_>, out: StepOut<'_>) {
        forward_step(input.nonlinearity, input.gi, input.gh, out.h);
    }

    #[inline]
    fn backward_step(cache: StepCache<'_>, grads: StepGrads<'_>) {
        backward_step(cache.nonlinearity, cache.h, cache.dh, grads.d_gi);
        grads.dh_prev_direct.fill(0.0);
    }
}
