//! Lesson 1, recurrence and time unrolling: `h_t = tanh(z_t)`,
//! `z_t = W_xh·x_t + W_hh·h_{t−1} + b` (PyTorch docs, `torch.nn.RNN`, with `b = b_ih + b_hh`).
//!
//! The hidden states are the output of [`RnnModule::forward`] on an `nn.RNN(1, H)` whose
//! parameters are the sliders (H = 1) or PyTorch's initialisation with a seed (H = 2–8, the
//! vector mode). The terms of z_t are formed from the same parameters and the module's
//! h_{t−1}, in the module's order of additions (`(b_ih + W_ih·x) + (b_hh + W_hh·h)`), so
//! `tanh(z_t)` is the module's h_t.

use crate::config::lessons::UnrollConfig;
use crate::math::init::init_params;
use crate::math::params::{CellKind, ParamLayout, RnnSpec};
use crate::math::recurrent::{RnnModule, TensorRef};
use crate::math::shapes::RnnError;

/// One time step t (from 1) of the unrolled chain. Vectors are `[H]`.
#[derive(Clone, Debug, PartialEq)]
pub struct UnrollStep {
    /// Time step, from 1.
    pub t: usize,
    /// Input x_t.
    pub x: f32,
    /// h_{t−1} (h_0 at t = 1).
    pub h_prev: Vec<f32>,
    /// `W_xh·x_t` (`weight_ih_l0 · x_t`).
    pub input_term: Vec<f32>,
    /// `W_hh·h_{t−1}` (`weight_hh_l0 · h_{t−1}`).
    pub recurrent_term: Vec<f32>,
    /// `b = bias_ih_l0 + bias_hh_l0`.
    pub bias: Vec<f32>,
    /// Pre-activation z_t.
    pub z: Vec<f32>,
    /// h_t = tanh(z_t), from the module.
    pub h: Vec<f32>,
    /// How much of z_t came from x_1: `z_t − z_t|_{x_1 = 0}` (the same run with x_1 set to 0).
    pub from_x1: Vec<f32>,
}

/// The unrolled run of the lesson.
#[derive(Clone, Debug, PartialEq)]
pub struct Unroll {
    /// Hidden size H.
    pub hidden_size: usize,
    /// `weight_ih_l0 [H, 1]` (W_xh) — the same at every step.
    pub weight_ih: Vec<f32>,
    /// `weight_hh_l0 [H, H]` row-major (W_hh) — the same at every step.
    pub weight_hh: Vec<f32>,
    /// `bias_ih_l0 [H]`.
    pub bias_ih: Vec<f32>,
    /// `bias_hh_l0 [H]`.
    pub bias_hh: Vec<f32>,
    /// Steps 1..=T.
    pub steps: Vec<UnrollStep>,
    /// `h_n [1, 1, H]` of the module (equal to the last step's h).
    pub h_n: Vec<f32>,
}

/// The parameters of the lesson's `nn.RNN(1, H)` in PyTorch's flat order
/// (`weight_ih_l0 [H,1]`, `weight_hh_l0 [H,H]`, `bias_ih_l0 [H]`, `bias_hh_l0 [H]`), and its
/// layout. H = 1: the sliders (`b` goes into `bias_ih_l0`, `bias_hh_l0` is 0); H ≥ 2: PyTorch's
/// default initialisation U(−1/√H, 1/√H) with `config.seed`.
pub fn parameters(config: &UnrollConfig) -> (RnnSpec, ParamLayout, Vec<f32>) {
    let hidden = config.hidden_size.clamp(1, 8);
    let spec = RnnSpec::new(CellKind::Rnn, 1, hidden);
    let layout = ParamLayout::rnn(&spec, "");
    let params = if hidden == 1 {
        vec![config.w_xh as f32, config.w_hh as f32, config.b as f32, 0.0]
    } else {
        init_params(&layout, &spec, u64::from(config.seed))
    };
    (spec, layout, params)
}

/// Runs the lesson.
///
/// # Errors
/// Those of [`RnnModule::forward`] (none for a decoded config: `x` has 1–12 values).
pub fn unroll(config: &UnrollConfig) -> Result<Unroll, RnnError> {
    let (spec, layout, params) = parameters(config);
    let hidden = spec.hidden_size;
    let x: Vec<f32> = config.x.iter().map(|&v| v as f32).collect();
    let h = run(&spec, &layout, &params, &x, config.h0 as f32)?;
    let mut x_ablated = x.clone();
    if let Some(first) = x_ablated.first_mut() {
        *first = 0.0;
    }
    let h_ablated = run(&spec, &layout, &params, &x_ablated, config.h0 as f32)?;

    let view = |name: &str| {
        layout
            .view(&params, name)
            .map(<[f32]>::to_vec)
            .unwrap_or_default()
    };
    let (weight_ih, weight_hh, bias_ih, bias_hh) = (
        view("weight_ih_l0"),
        view("weight_hh_l0"),
        view("bias_ih_l0"),
        view("bias_hh_l0"),
    );
    let h0 = vec![config.h0 as f32; hidden];
    let mut steps = Vec::with_capacity(x.len());
    for (t, &x_t) in x.iter().enumerate() {
        let h_prev = if t == 0 {
            h0.clone()
        } else {
            h[(t - 1) * hidden..t * hidden].to_vec()
        };
        let h_prev_ablated = if t == 0 {
            h0.clone()
        } else {
            h_ablated[(t - 1) * hidden..t * hidden].to_vec()
        };
        let terms = Terms::new(&weight_ih, &weight_hh, &bias_ih, &bias_hh, x_t, &h_prev);
        let ablated = Terms::new(
            &weight_ih,
            &weight_hh,
            &bias_ih,
            &bias_hh,
            x_ablated[t],
            &h_prev_ablated,
        );
        steps.push(UnrollStep {
            t: t + 1,
            x: x_t,
            h_prev,
            bias: (0..hidden).map(|j| bias_ih[j] + bias_hh[j]).collect(),
            from_x1: terms.z.iter().zip(&ablated.z).map(|(a, b)| a - b).collect(),
            input_term: terms.input,
            recurrent_term: terms.recurrent,
            z: terms.z,
            h: h[t * hidden..(t + 1) * hidden].to_vec(),
        });
    }
    let h_n = h[h.len() - hidden..].to_vec();
    Ok(Unroll {
        hidden_size: hidden,
        weight_ih,
        weight_hh,
        bias_ih,
        bias_hh,
        steps,
        h_n,
    })
}

/// The module's output `[T, H]` for one sequence (batch 1, time-major).
fn run(
    spec: &RnnSpec,
    layout: &ParamLayout,
    params: &[f32],
    x: &[f32],
    h0: f32,
) -> Result<Vec<f32>, RnnError> {
    let module = RnnModule::new(*spec, layout, "");
    let hidden = spec.hidden_size;
    let input_shape = [x.len(), 1, 1];
    let h0_data = vec![h0; hidden];
    let h0_shape = [1, 1, hidden];
    let out = module.forward(
        params,
        TensorRef::new(&input_shape, x),
        false,
        None,
        Some(TensorRef::new(&h0_shape, &h0_data)),
        None,
    )?;
    Ok(out.output)
}

struct Terms {
    input: Vec<f32>,
    recurrent: Vec<f32>,
    z: Vec<f32>,
}

impl Terms {
    fn new(
        w_ih: &[f32],
        w_hh: &[f32],
        b_ih: &[f32],
        b_hh: &[f32],
        x: f32,
        h_prev: &[f32],
    ) -> Terms {
        let hidden = h_prev.len();
        let input: Vec<f32> = w_ih.iter().map(|&w| w * x).collect();
        let recurrent: Vec<f32> = (0..hidden)
            .map(|j| {
                w_hh[j * hidden..(j + 1) * hidden]
                    .iter()
                    .zip(h_prev)
                    .map(|(w, h)| w * h)
                    .sum()
            })
            .collect();
        let z = (0..hidden)
            .map(|j| (b_ih[j] + input[j]) + (b_hh[j] + recurrent[j]))
            .collect();
        Terms {
            input,
            recurrent,
            z,
        }
    }
}
