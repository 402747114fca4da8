//! A run's optimisation settings ([`Recipe`]: sizes, learning rate, batch, clipping, forget-gate
//! bias) and the model they give for a task's shape and a cell ([`model_of_shape`]): what the
//! trainer builds, and what a split run's helper workers build to compute their shares.

use serde::{Deserialize, Serialize};

use crate::config::delay::DelayConfig;
use crate::config::TrainConfig;
use crate::math::model::SeqModel;
use crate::math::params::{CellKind, RnnSpec};
use crate::task::{Task, TaskShape};

/// The optimisation settings of a run (everything but the task, the cell and the seed).
/// [`Recipe::default`] is recipe R, the delay-copy page's defaults.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recipe {
    /// Hidden size H.
    pub hidden_size: usize,
    /// Stacked layers L.
    pub num_layers: usize,
    /// Two directions.
    pub bidirectional: bool,
    /// Adam learning rate.
    pub lr: f32,
    /// Sequences per step.
    pub batch_size: usize,
    /// Global-norm clipping threshold; `None` = no clipping (the norm is measured anyway).
    pub max_norm: Option<f32>,
    /// Added to the LSTM's forget-gate blocks of `bias_ih` at initialisation (no effect on
    /// RNN/GRU).
    pub forget_bias: f32,
}

impl Recipe {
    /// The recipe of a delay-copy page configuration (`hidden_size`, `lr`, `batch_size`,
    /// `max_norm`, `forget_bias`; one layer, one direction).
    pub fn of(config: &DelayConfig) -> Recipe {
        Recipe {
            hidden_size: config.hidden_size.max(1),
            num_layers: 1,
            bidirectional: false,
            lr: config.lr as f32,
            batch_size: config.batch_size.max(1),
            max_norm: config.clip_norm().map(|m| m as f32),
            forget_bias: config.forget_bias as f32,
        }
    }

    /// The recipe of a names page configuration.
    pub fn of_names(cfg: &TrainConfig) -> Recipe {
        Recipe {
            hidden_size: cfg.hidden_size.max(1),
            num_layers: cfg.num_layers.max(1),
            bidirectional: cfg.bidirectional,
            lr: cfg.lr as f32,
            batch_size: cfg.batch_size.max(1),
            max_norm: (cfg.max_norm > 0.0).then_some(cfg.max_norm as f32),
            forget_bias: cfg.forget_bias as f32,
        }
    }

    /// The recurrent module of `cell` over `input_size` inputs.
    pub fn spec(&self, cell: CellKind, input_size: usize) -> RnnSpec {
        RnnSpec::stacked(
            cell,
            input_size,
            self.hidden_size.max(1),
            self.num_layers.max(1),
            self.bidirectional,
        )
    }
}

impl Default for Recipe {
    /// Recipe R: hidden 128, lr 0.003, batch 32, clipping at 1.0, forget-gate bias 1.0.
    fn default() -> Self {
        Recipe::of(&DelayConfig::default())
    }
}

/// The model of `task` for `cell` with `recipe`'s sizes.
pub fn model_of(task: &dyn Task, cell: CellKind, recipe: &Recipe) -> SeqModel {
    model_of_shape(&task.shape(), cell, recipe)
}

/// The model of a task of shape `shape` for `cell` with `recipe`'s sizes ([`model_of`]).
pub fn model_of_shape(shape: &TaskShape, cell: CellKind, recipe: &Recipe) -> SeqModel {
    let model = SeqModel::new(recipe.spec(cell, shape.input.size()), shape.outputs)
        .with_readout(shape.readout)
        .with_loss(shape.loss)
        .with_head(shape.head);
    match shape.conditions {
        Some(c) => model.with_initial_state(c),
        None => model,
    }
}
