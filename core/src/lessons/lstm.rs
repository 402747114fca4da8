//! Lesson 4, the LSTM conveyor belt (Hochreiter & Schmidhuber 1997, with the forget gate;
//! PyTorch's gate order i, f, g, o):
//!
//! ```text
//! C_t = f_t ⊙ C_{t−1} + i_t ⊙ g_t        h_t = o_t ⊙ tanh(C_t)
//! ```
//!
//! `math::lstm::forward_step` computes the gates from pre-activations and then this update in
//! one function; the lesson's slider mode sets the gates directly, so the update half is
//! [`lstm_update`] here (the same expressions in the same order; a test checks it against
//! `forward_step` bit for bit). The `weights` mode runs a seeded `nn.LSTM(1, 1)` through
//! [`RnnModule`]. Along the belt, `∂C_t/∂C_{t−1} = f_t` (no weight matrix, no squashing), to
//! compare with the plain RNN's `tanh'(z_t)·W_hh` ([`super::bptt`]).

use crate::config::lessons::{BpttAct, LstmConfig, LstmMode};
use crate::math::activation::tanh;
use crate::math::init::init_params;
use crate::math::params::{CellKind, ParamLayout, RnnSpec};
use crate::math::recurrent::{RnnModule, TensorRef};
use crate::math::shapes::RnnError;

use super::{bptt, cyclic};

/// The RNN the side panel compares with: the `bptt` lesson's default W_hh and W_xh.
pub const COMPARE_RNN_W_HH: f32 = 1.0;
/// See [`COMPARE_RNN_W_HH`].
pub const COMPARE_RNN_W_XH: f32 = 0.5;

/// The result of one cell update.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LstmUpdate {
    /// New cell state C_t.
    pub c: f32,
    /// tanh(C_t).
    pub tanh_c: f32,
    /// New hidden state h_t.
    pub h: f32,
}

/// The LSTM cell update for given gate activations (scalar form of the update in
/// `math::lstm::forward_step`): `c = f·c_prev + i·g`, `h = o·tanh(c)`.
pub fn lstm_update(f: f32, i: f32, g: f32, o: f32, c_prev: f32) -> LstmUpdate {
    let c = f * c_prev + i * g;
    let tanh_c = tanh(c);
    LstmUpdate {
        c,
        tanh_c,
        h: o * tanh_c,
    }
}

/// One step t (from 1) of the belt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LstmStep {
    /// Time step, from 1.
    pub t: usize,
    /// Input x_t (`weights` mode only).
    pub x: Option<f32>,
    /// Forget gate f_t.
    pub f: f32,
    /// Input gate i_t.
    pub i: f32,
    /// Candidate g_t (c̃_t).
    pub g: f32,
    /// Output gate o_t.
    pub o: f32,
    /// C_{t−1}.
    pub c_prev: f32,
    /// What the belt keeps: f_t·C_{t−1}.
    pub kept: f32,
    /// What is written: i_t·g_t.
    pub written: f32,
    /// C_t.
    pub c: f32,
    /// tanh(C_t).
    pub tanh_c: f32,
    /// h_t.
    pub h: f32,
}

/// The seeded `nn.LSTM(1, 1)` of the `weights` mode, PyTorch order (i, f, g, o per tensor).
#[derive(Clone, Debug, PartialEq)]
pub struct LstmWeights {
    /// `weight_ih_l0 [4, 1]`.
    pub weight_ih: Vec<f32>,
    /// `weight_hh_l0 [4, 1]`.
    pub weight_hh: Vec<f32>,
    /// `bias_ih_l0 [4]`.
    pub bias_ih: Vec<f32>,
    /// `bias_hh_l0 [4]`.
    pub bias_hh: Vec<f32>,
}

/// Everything the lesson shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Lstm {
    /// The mode that produced the steps.
    pub mode: LstmMode,
    /// Steps 1..=T.
    pub steps: Vec<LstmStep>,
    /// `weights` mode: the weights used.
    pub weights: Option<LstmWeights>,
    /// `run` mode with f < 1: the fixed point i·g / (1 − f) that C_t approaches.
    pub fixed_point: Option<f32>,
    /// Side panel: Π_{k ≤ t} f_k (= ∂C_t/∂C_0 along the belt), one per step.
    pub belt_products: Vec<f32>,
    /// Side panel: the plain RNN's running product Π tanh'(z_k)·W_hh over as many steps, for
    /// [`COMPARE_RNN_W_HH`], [`COMPARE_RNN_W_XH`] and the `x` inputs.
    pub rnn_products: Vec<f32>,
}

/// Runs the lesson.
///
/// # Errors
/// Those of [`RnnModule::forward`] in `weights` mode (none for a decoded config).
pub fn lstm(config: &LstmConfig) -> Result<Lstm, RnnError> {
    let c0 = config.c0 as f32;
    let (steps, weights, fixed_point) = match config.mode {
        LstmMode::Gates => {
            let n = config.gate_steps();
            let gates = |t: usize| {
                (
                    config.f[t] as f32,
                    config.i[t] as f32,
                    config.g[t] as f32,
                    config.o[t] as f32,
                )
            };
            (belt(n, c0, gates), None, None)
        }
        LstmMode::Run => {
            let (f, i, g, o) = (
                cyclic(&config.f, 0),
                cyclic(&config.i, 0),
                cyclic(&config.g, 0),
                cyclic(&config.o, 0),
            );
            let fixed = (f < 1.0).then(|| i * g / (1.0 - f));
            (
                belt(config.n.clamp(1, 30), c0, |_| (f, i, g, o)),
                None,
                fixed,
            )
        }
        LstmMode::Weights => {
            let (steps, weights) = with_weights(config)?;
            (steps, Some(weights), None)
        }
    };
    let belt_products = steps
        .iter()
        .scan(1.0f32, |p, s| {
            *p *= s.f;
            Some(*p)
        })
        .collect();
    let rnn_products = bptt::run(
        COMPARE_RNN_W_HH,
        COMPARE_RNN_W_XH,
        &config.x,
        steps.len(),
        BpttAct::Tanh,
    )
    .iter()
    .map(|s| s.product)
    .collect();
    Ok(Lstm {
        mode: config.mode,
        steps,
        weights,
        fixed_point,
        belt_products,
        rnn_products,
    })
}

fn belt(n: usize, c0: f32, gates: impl Fn(usize) -> (f32, f32, f32, f32)) -> Vec<LstmStep> {
    let mut c_prev = c0;
    (0..n)
        .map(|t| {
            let (f, i, g, o) = gates(t);
            let u = lstm_update(f, i, g, o, c_prev);
            let step = LstmStep {
                t: t + 1,
                x: None,
                f,
                i,
                g,
                o,
                c_prev,
                kept: f * c_prev,
                written: i * g,
                c: u.c,
                tanh_c: u.tanh_c,
                h: u.h,
            };
            c_prev = u.c;
            step
        })
        .collect()
}

/// The `weights` mode: `nn.LSTM(1, 1)` with PyTorch's init from `config.seed`, h_0 = 0,
/// c_0 = C_0, over `config.x`.
fn with_weights(config: &LstmConfig) -> Result<(Vec<LstmStep>, LstmWeights), RnnError> {
    let spec = RnnSpec::new(CellKind::Lstm, 1, 1);
    let layout = ParamLayout::rnn(&spec, "");
    let params = init_params(&layout, &spec, u64::from(config.seed));
    let module = RnnModule::new(spec, &layout, "");
    let x: Vec<f32> = config.x.iter().map(|&v| v as f32).collect();
    let shape = [x.len(), 1, 1];
    let state_shape = [1, 1, 1];
    let c0 = [config.c0 as f32];
    let out = module.forward(
        &params,
        TensorRef::new(&shape, &x),
        false,
        None,
        None,
        Some(TensorRef::new(&state_shape, &c0)),
    )?;
    let trace = out.cache.trace(0);
    let dir = &trace[0];
    let gates = dir.gates.clone().unwrap_or_default();
    let cs = dir.c.clone().unwrap_or_default();
    let mut c_prev = c0[0];
    let steps = (0..x.len())
        .map(|t| {
            let (i, f, g, o) = (
                gates[4 * t],
                gates[4 * t + 1],
                gates[4 * t + 2],
                gates[4 * t + 3],
            );
            let c = cs[t];
            let step = LstmStep {
                t: t + 1,
                x: Some(x[t]),
                f,
                i,
                g,
                o,
                c_prev,
                kept: f * c_prev,
                written: i * g,
                c,
                tanh_c: tanh(c),
                h: dir.h[t],
            };
            c_prev = c;
            step
        })
        .collect();
    let view = |name: &str| {
        layout
            .view(&params, name)
            .map(<[f32]>::to_vec)
            .unwrap_or_default()
    };
    let weights = LstmWeights {
        weight_ih: view("weight_ih_l0"),
        weight_hh: view("weight_hh_l0"),
        bias_ih: view("bias_ih_l0"),
        bias_hh: view("bias_hh_l0"),
    };
    Ok((steps, weights))
}
