//! Where the course's printed handout and the app disagree, computed.
//!
//! In four places the handout prints a figure that PyTorch (and so the app) does not give for
//! the same example. Each function below returns the handout's printed value (the only typed
//! figures in this module) next to the app's value, computed by the same functions the lessons
//! use, and the computed values that explain the difference (a 2-layer count, a different
//! W_hh, rounding, one bias vector instead of two). The lesson pages render them as one short
//! note each.

use super::{lstm, shapes, unroll};
use crate::config::lessons::{LstmConfig, ShapesConfig, UnrollConfig};
use crate::data::normalize::VOCAB_SIZE;
use crate::math::params::CellKind;

/// One figure: what the handout prints and what the app computes for the same example.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Figure {
    /// The handout's printed value (typed from the handout).
    pub printed: f64,
    /// The app's value (computed).
    pub app: f64,
}

/// PyTorch's parameter count (two bias vectors) and the one-bias count of a layer.
fn counts(
    cell: CellKind,
    input_size: usize,
    hidden_size: usize,
    layers: usize,
    bi: bool,
) -> (u64, u64) {
    let config = ShapesConfig {
        cell,
        input_size,
        hidden_size,
        num_layers: layers,
        bidirectional: bi,
        ..ShapesConfig::default()
    };
    // A decoded-range config never fails; 0 would show the failure instead of hiding it.
    shapes::shapes(&config).map_or((0, 0), |s| (s.shapes.param_count, s.one_bias_count))
}

/// `nn.RNN(10, 8)`: the handout prints 304, 608 (bidirectional) and 1216 (LSTM); those are
/// 2-layer-based figures, the app counts one layer.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RnnTenEight {
    /// `nn.RNN(10, 8)`: printed 304, app 160.
    pub rnn: Figure,
    /// Bidirectional `nn.RNN(10, 8)`: printed 608 (2 × 304), app 320.
    pub bidirectional: Figure,
    /// `nn.LSTM(10, 8)`: printed 1216 (4 × 304), app 640.
    pub lstm: Figure,
    /// The app's count of `nn.RNN(10, 8, num_layers=2)` (the handout's 304).
    pub two_layers: u64,
}

/// The `nn.RNN(10, 8)` note of the shapes lesson (input 10 and hidden 8 are the lesson's
/// default example).
pub fn rnn_ten_eight() -> RnnTenEight {
    let d = ShapesConfig::default();
    let (i, h) = (d.input_size, d.hidden_size);
    let app = |cell, bi| counts(cell, i, h, 1, bi).0 as f64;
    RnnTenEight {
        rnn: Figure {
            printed: 304.0,
            app: app(CellKind::Rnn, false),
        },
        bidirectional: Figure {
            printed: 608.0,
            app: app(CellKind::Rnn, true),
        },
        lstm: Figure {
            printed: 1216.0,
            app: app(CellKind::Lstm, false),
        },
        two_layers: counts(CellKind::Rnn, i, h, 2, false).0,
    }
}

/// Per-layer counts of the names classifier's recurrent layer (input 57 = the alphabet,
/// hidden 128): the handout uses one bias vector for the LSTM and GRU and doubles the one-bias
/// count for the RNN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerLayer {
    /// `nn.LSTM(57, 128)`: printed 95,232, app 95,744.
    pub lstm: Figure,
    /// `nn.GRU(57, 128)`: printed 71,424, app 71,808.
    pub gru: Figure,
    /// `nn.RNN(57, 128)`: printed 47,616, app 23,936.
    pub rnn: Figure,
    /// One-bias counts (LSTM, GRU, RNN): 95,232, 71,424, 23,808.
    pub one_bias: [u64; 3],
    /// Input size (the alphabet of the names data, 57).
    pub input_size: usize,
    /// Hidden size (128).
    pub hidden_size: usize,
}

/// Hidden size of the handout's per-layer counts (the training page's default).
pub const PER_LAYER_HIDDEN: usize = 128;

/// The per-layer note of the shapes lesson.
pub fn per_layer() -> PerLayer {
    let (i, h) = (VOCAB_SIZE, PER_LAYER_HIDDEN);
    let lstm = counts(CellKind::Lstm, i, h, 1, false);
    let gru = counts(CellKind::Gru, i, h, 1, false);
    let rnn = counts(CellKind::Rnn, i, h, 1, false);
    PerLayer {
        lstm: Figure {
            printed: 95_232.0,
            app: lstm.0 as f64,
        },
        gru: Figure {
            printed: 71_424.0,
            app: gru.0 as f64,
        },
        rnn: Figure {
            printed: 47_616.0,
            app: rnn.0 as f64,
        },
        one_bias: [lstm.1, gru.1, rnn.1],
        input_size: i,
        hidden_size: h,
    }
}

/// Lesson 1: x₁'s share of z₂ in the worked example.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UnrollShare {
    /// Printed 0.2311, app 0.4621 (at the example's W_hh = 1).
    pub share: Figure,
    /// The example's W_hh (1).
    pub w_hh: f64,
    /// The W_hh the handout's value belongs to (0.5, read off the handout).
    pub handout_w_hh: f64,
    /// The app's share at the handout's W_hh (0.2311).
    pub at_handout_w_hh: f64,
}

fn share_at(config: &UnrollConfig) -> f64 {
    unroll::unroll(config)
        .ok()
        .and_then(|r| r.steps.get(1).map(|s| f64::from(s.from_x1[0])))
        .unwrap_or(f64::NAN)
}

/// The note of lesson 1.
pub fn unroll_share() -> UnrollShare {
    let example = UnrollConfig::default();
    let handout_w_hh = 0.5;
    UnrollShare {
        share: Figure {
            printed: 0.2311,
            app: share_at(&example),
        },
        w_hh: example.w_hh,
        handout_w_hh,
        at_handout_w_hh: share_at(&UnrollConfig {
            w_hh: handout_w_hh,
            ..example
        }),
    }
}

/// Lesson 4: h₂ of the two-step worked example.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LstmH2 {
    /// Printed −0.2775, app −0.2779.
    pub h2: Figure,
    /// C₂ of the example (−0.42).
    pub c2: f64,
    /// o₂ of the example (0.7).
    pub o2: f64,
}

/// The note of lesson 4.
pub fn lstm_h2() -> LstmH2 {
    let example = LstmConfig::default();
    let step = lstm::lstm(&example)
        .ok()
        .and_then(|r| r.steps.get(1).copied());
    LstmH2 {
        h2: Figure {
            printed: -0.2775,
            app: step.map_or(f64::NAN, |s| f64::from(s.h)),
        },
        c2: step.map_or(f64::NAN, |s| f64::from(s.c)),
        o2: step.map_or(f64::NAN, |s| f64::from(s.o)),
    }
}
