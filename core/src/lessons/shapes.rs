//! Lesson 2, unrolling is not stacking: the shapes and parameter count of `nn.RNN`/`nn.LSTM`/
//! `nn.GRU`, from [`crate::math::shapes::rnn_shapes`] (nothing is allocated, so every size up
//! to 4096 works).
//!
//! PyTorch keeps two bias vectors per layer and direction (`bias_ih` and `bias_hh`), so its
//! count exceeds the one-bias textbook formula `L·D·G·H·(I_l + H + 1)` by `L·D·G·H`.

use crate::config::lessons::ShapesConfig;
use crate::math::params::RnnSpec;
use crate::math::shapes::{rnn_shapes, RnnConfig, RnnError, RnnShapes};

/// Everything the lesson shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Shapes {
    /// Shapes, count and per-tensor breakdown, from the math module.
    pub shapes: RnnShapes,
    /// The count with one bias vector per layer and direction (Keras and many textbooks).
    pub one_bias_count: u64,
    /// `param_count − one_bias_count` = L·D·G·H (the second bias vectors).
    pub second_bias: u64,
    /// Parameters per layer (both directions), `[L]`.
    pub per_layer: Vec<u64>,
    /// Gate blocks G (RNN 1, LSTM 4, GRU 3).
    pub gates: usize,
    /// Directions D.
    pub directions: usize,
}

/// The `RnnSpec` of a config.
pub fn spec(config: &ShapesConfig) -> RnnSpec {
    RnnSpec::stacked(
        config.cell,
        config.input_size,
        config.hidden_size,
        config.num_layers,
        config.bidirectional,
    )
}

/// Runs the lesson.
///
/// # Errors
/// Those of [`rnn_shapes`] (zero sizes; none for a decoded config).
pub fn shapes(config: &ShapesConfig) -> Result<Shapes, RnnError> {
    let spec = spec(config);
    let mut rnn = RnnConfig::new(spec);
    rnn.batch_first = config.batch_first;
    let shapes = rnn_shapes(&rnn, config.batch, config.seq_len)?;
    let directions = spec.num_directions();
    let gates = spec.cell.gates();
    let second_bias = (spec.num_layers * directions * gates) as u64 * spec.hidden_size as u64;
    let per_layer = (0..spec.num_layers)
        .map(|l| {
            let suffix = format!("_l{l}");
            shapes
                .params
                .iter()
                .filter(|p| {
                    p.name.ends_with(&suffix) || p.name.ends_with(&format!("{suffix}_reverse"))
                })
                .map(|p| p.numel)
                .sum()
        })
        .collect();
    Ok(Shapes {
        one_bias_count: shapes.param_count - second_bias,
        second_bias,
        per_layer,
        gates,
        directions,
        shapes,
    })
}
