//! Lesson 3, why gradients vanish. A 1-d RNN `h_t = act(z_t)`, `z_t = W_xh·x_t + W_hh·h_{t−1}`
//! (b = 0, h_0 = 0). Backpropagation through time multiplies one local factor per step:
//!
//! ```text
//! ∂h_t/∂h_{t−1} = act'(z_t)·W_hh        ∂h_t/∂h_0 = Π_{k=1..t} act'(z_k)·W_hh   (the running product)
//! ```
//!
//! The derivatives are [`crate::math::activation`]'s (written through the output, as the
//! trainer's backward pass uses them). The gradient of h_T with respect to the four parameters
//! of `nn.RNN(1, 1)` is the BPTT sum `∂h_T/∂θ = Σ_t δ_t·∂z_t/∂θ` with `δ_t = ∂h_T/∂z_t`, and
//! clipping is [`clip_grad_norm`] (PyTorch's `clip_grad_norm_` semantics). With tanh/ReLU the
//! recurrence is the same as `RnnModule`'s (tests check the two agree).

use crate::config::lessons::{BpttAct, BpttConfig};
use crate::math::activation::{relu, relu_grad_from_output, tanh, tanh_grad_from_output};
use crate::math::optim::{clip_grad_norm, ClipOutcome};

use super::cyclic;

/// The W_hh values drawn as comparison curves next to the slider's.
pub const COMPARE_W_HH: [f32; 3] = [0.5, 1.0, 2.0];

/// One step t (from 1).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BpttStep {
    /// Time step, from 1.
    pub t: usize,
    /// Input x_t.
    pub x: f32,
    /// Pre-activation z_t.
    pub z: f32,
    /// h_t = act(z_t).
    pub h: f32,
    /// act'(z_t) (tanh: 1 − h_t²; ReLU: 0 or 1; linear: 1).
    pub act_grad: f32,
    /// Local factor ∂h_t/∂h_{t−1} = act'(z_t)·W_hh.
    pub factor: f32,
    /// Running product ∂h_t/∂h_0 = Π_{k ≤ t} act'(z_k)·W_hh.
    pub product: f32,
}

/// Gradient of h_T with respect to the parameters of `nn.RNN(1, 1)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamGrads {
    /// ∂h_T/∂W_xh (`weight_ih_l0`).
    pub w_xh: f32,
    /// ∂h_T/∂W_hh (`weight_hh_l0`).
    pub w_hh: f32,
    /// ∂h_T/∂b for each of `bias_ih_l0` and `bias_hh_l0` (always equal).
    pub b: f32,
}

impl ParamGrads {
    /// In PyTorch's parameter order: `weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0`.
    pub fn flat(&self) -> [f32; 4] {
        [self.w_xh, self.w_hh, self.b, self.b]
    }
}

/// Gradient clipping of the gradient of h_T.
#[derive(Clone, Debug, PartialEq)]
pub struct Clipping {
    /// The threshold.
    pub max_norm: f32,
    /// What [`clip_grad_norm`] did (norm, scale, or a non-finite norm: step skipped).
    pub outcome: ClipOutcome,
    /// The gradient after clipping, PyTorch order (unchanged when not clipped or skipped).
    pub clipped: [f32; 4],
}

/// One comparison curve: the running products for another W_hh with the same inputs.
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    /// W_hh of this curve.
    pub w_hh: f32,
    /// `[steps]` running products.
    pub products: Vec<f32>,
}

/// Everything the lesson shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Bptt {
    /// Steps 1..=T for the slider values.
    pub steps: Vec<BpttStep>,
    /// Curves for [`COMPARE_W_HH`] (same inputs, W_xh and activation).
    pub curves: Vec<Curve>,
    /// ∂h_T/∂θ.
    pub grads: ParamGrads,
    /// Global L2 norm of ∂h_t/∂θ for every t = 1..=T (f64, as [`clip_grad_norm`] computes it).
    pub grad_norms: Vec<f64>,
    /// Clipping of ∂h_T/∂θ when `max_norm > 0`.
    pub clipping: Option<Clipping>,
    /// When `max_norm > 0`: the norm of ∂h_t/∂θ after [`clip_grad_norm`], for every t (NaN
    /// where the norm is not finite and the step would be skipped).
    pub clipped_norms: Option<Vec<f64>>,
}

/// The activation and its derivative through the output.
fn act(kind: BpttAct, z: f32) -> (f32, f32) {
    match kind {
        BpttAct::Tanh => {
            let h = tanh(z);
            (h, tanh_grad_from_output(h))
        }
        BpttAct::Relu => {
            let h = relu(z);
            (h, relu_grad_from_output(h))
        }
        BpttAct::Linear => (z, 1.0),
    }
}

/// Runs the recurrence for `steps` steps of `x` (repeated cyclically) and forms the running
/// product. `x` values and weights are taken as given.
pub fn run(w_hh: f32, w_xh: f32, x: &[f64], steps: usize, kind: BpttAct) -> Vec<BpttStep> {
    let mut out = Vec::with_capacity(steps);
    let (mut h_prev, mut product) = (0.0f32, 1.0f32);
    for t in 0..steps {
        let x_t = cyclic(x, t);
        let z = w_xh * x_t + w_hh * h_prev;
        let (h, act_grad) = act(kind, z);
        let factor = act_grad * w_hh;
        product *= factor;
        out.push(BpttStep {
            t: t + 1,
            x: x_t,
            z,
            h,
            act_grad,
            factor,
            product,
        });
        h_prev = h;
    }
    out
}

/// ∂h_T/∂θ for the first `len` steps of `steps` (BPTT: δ_T = act'(z_T),
/// δ_{t−1} = δ_t·W_hh·act'(z_{t−1}); ∂/∂W_xh = Σ δ_t x_t, ∂/∂W_hh = Σ δ_t h_{t−1}, ∂/∂b = Σ δ_t).
pub fn param_grads(steps: &[BpttStep], len: usize, w_hh: f32) -> ParamGrads {
    let mut g = ParamGrads {
        w_xh: 0.0,
        w_hh: 0.0,
        b: 0.0,
    };
    let Some(last) = len.checked_sub(1).and_then(|i| steps.get(i)) else {
        return g;
    };
    let mut delta = last.act_grad;
    for t in (0..len).rev() {
        let h_prev = if t == 0 { 0.0 } else { steps[t - 1].h };
        g.w_xh += delta * steps[t].x;
        g.w_hh += delta * h_prev;
        g.b += delta;
        if t > 0 {
            delta = delta * w_hh * steps[t - 1].act_grad;
        }
    }
    g
}

fn norm(g: &ParamGrads) -> f64 {
    g.flat()
        .iter()
        .map(|&v| f64::from(v) * f64::from(v))
        .sum::<f64>()
        .sqrt()
}

/// Runs the lesson.
pub fn bptt(config: &BpttConfig) -> Bptt {
    let (w_hh, w_xh) = (config.w_hh as f32, config.w_xh as f32);
    let steps_n = config.steps.clamp(1, 100);
    let steps = run(w_hh, w_xh, &config.x, steps_n, config.act);
    let curves = COMPARE_W_HH
        .iter()
        .map(|&w| Curve {
            w_hh: w,
            products: run(w, w_xh, &config.x, steps_n, config.act)
                .iter()
                .map(|s| s.product)
                .collect(),
        })
        .collect();
    let grads = param_grads(&steps, steps_n, w_hh);
    let grad_norms = (1..=steps_n)
        .map(|len| norm(&param_grads(&steps, len, w_hh)))
        .collect();
    let clipped_norms = (config.max_norm > 0.0).then(|| {
        (1..=steps_n)
            .map(|len| {
                let mut g = param_grads(&steps, len, w_hh).flat();
                match clip_grad_norm(&mut g, config.max_norm as f32) {
                    ClipOutcome::NonFinite { .. } => f64::NAN,
                    _ => g
                        .iter()
                        .map(|&v| f64::from(v) * f64::from(v))
                        .sum::<f64>()
                        .sqrt(),
                }
            })
            .collect()
    });
    let clipping = (config.max_norm > 0.0).then(|| {
        let mut clipped = grads.flat();
        let outcome = clip_grad_norm(&mut clipped, config.max_norm as f32);
        Clipping {
            max_norm: config.max_norm as f32,
            outcome,
            clipped,
        }
    });
    Bptt {
        steps,
        curves,
        grads,
        grad_norms,
        clipping,
        clipped_norms,
    }
}
