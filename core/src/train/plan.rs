//! The sweep each page's configuration asks for ([`SweepPlan`]): the task, cells, seeds,
//! recipe, budget and evaluation interval read from its URL keys.
//!
//! - The lab page (`?lesson=delay`, [`DelayConfig`]) trains delay-copy or one of the
//!   long-memory tasks (`task`). Delay-copy takes every key as given and is evaluated every
//!   [`eval_every_for`] steps. A long-memory task shares the keys; a key still at its
//!   delay-copy default takes the task's own default: `length` 96 → the task's T
//!   ([`TaskKind::default_length`](crate::task::memory::TaskKind::default_length)), `steps` 3000 →
//!   [`TaskKind::default_steps`](crate::task::memory::TaskKind::default_steps),
//!   `hidden_size` 128 → [`DEFAULT_HIDDEN`], `cell` `both` → RNN, LSTM and GRU (`seeds` stays
//!   as given). Any other value is used as given, so short runs (a small T, a few steps) are
//!   one link away. Its runs are evaluated [`EVALS_PER_RUN`] times.
//! - The names page (`?lesson=names`, [`TrainConfig`]) trains one cell with one seed (the
//!   seed of its split, batch order and initialisation) for `epochs` epochs, evaluated on the
//!   validation names at each epoch's end.

use std::sync::Arc;

use super::sweep::SweepPlan;
use super::trainer::Recipe;
use crate::config::delay::{CellSet, DelayConfig, LabTask, DELAY_FIELDS};
use crate::config::query::{decode, format_value, Decoded, Fallback, NoticeKind, UrlConfig};
use crate::config::TrainConfig;
use crate::data::names::NamesDataset;
use crate::math::cell::CellKind;
use crate::task::delay::eval_every_for;
use crate::task::memory::TaskKind;
use crate::task::memory::DEFAULT_HIDDEN;
use crate::task::names::NamesTask;
use crate::task::{lab_task, TaskError};

/// Held-out evaluations per run of a long-memory task (besides the one before the first step).
pub const EVALS_PER_RUN: u64 = 20;

/// The length T a lab configuration's task trains at: delay-copy's `length`; for a long-memory
/// task `length`, or the task's own default when the key is at delay-copy's.
pub fn lab_length(config: &DelayConfig) -> usize {
    match config.task.memory() {
        Some(kind) if config.length == DelayConfig::default().length => kind.default_length(),
        _ => config.length,
    }
}

/// The keys a long-memory task reads differently from delay-copy, each with the value the
/// task uses when the key is at its delay-copy default, as the URL writes it: `length` (the
/// task's T), `steps` ([`TaskKind::default_steps`]), `hidden_size` ([`DEFAULT_HIDDEN`]) and
/// `cell` (`all`).
pub fn task_defaults(kind: TaskKind) -> [(&'static str, String); 4] {
    [
        ("length", kind.default_length().to_string()),
        ("steps", kind.default_steps().to_string()),
        ("hidden_size", DEFAULT_HIDDEN.to_string()),
        ("cell", CellSet::All.as_str().to_owned()),
    ]
}

/// The recipe of names generation where a key is left at its delay-copy default (the recipe
/// of `docs/generation.md`): `steps` 1500 (about 3 epochs of batches of 32), `hidden_size`
/// 64, `cell` GRU, `lr` 0.005, `seeds` 1.
pub fn generate_defaults() -> [(&'static str, String); 5] {
    [
        ("steps", GENERATE_STEPS.to_string()),
        ("hidden_size", GENERATE_HIDDEN.to_string()),
        ("cell", CellSet::One(CellKind::Gru).as_str().to_owned()),
        ("lr", GENERATE_LR.to_string()),
        ("seeds", "1".to_owned()),
    ]
}

/// Names generation's steps when `steps` is left at its delay-copy default.
pub const GENERATE_STEPS: u64 = 1500;
/// Names generation's hidden size when `hidden_size` is left at its delay-copy default.
pub const GENERATE_HIDDEN: usize = 64;
/// Names generation's learning rate when `lr` is left at its delay-copy default.
pub const GENERATE_LR: f64 = 0.005;

pub use crate::config::delay::GENERATE_LESSON;

/// Names generation's cells, seeds, recipe and steps (what its plan trains, without the
/// data): the keys as given, or the generation recipe for a key left at its delay-copy default
/// ([`generate_defaults`]); `layers` and `bidirectional` as given.
pub fn generate_recipe(config: &DelayConfig) -> (Vec<CellKind>, Vec<u32>, Recipe, u64) {
    let base = DelayConfig::default();
    let steps = if config.steps == base.steps {
        GENERATE_STEPS
    } else {
        config.steps.max(1)
    };
    let recipe = Recipe {
        hidden_size: if config.hidden_size == base.hidden_size {
            GENERATE_HIDDEN
        } else {
            config.hidden_size
        },
        num_layers: config.layers.max(1),
        bidirectional: config.bidirectional,
        lr: if config.lr == base.lr {
            GENERATE_LR as f32
        } else {
            config.lr as f32
        },
        ..Recipe::of(config)
    };
    let cells = if config.cell == base.cell {
        vec![CellKind::Gru]
    } else {
        config.cell.cells().to_vec()
    };
    let seeds = if config.seeds == base.seeds {
        vec![config.seed]
    } else {
        config.run_seeds()
    };
    (cells, seeds, recipe, steps)
}

/// The lab configuration's canonical query: `lesson=delay&…`, or for names generation
/// `lesson=generate&…` without the `task` key.
pub fn encode_lab(config: &DelayConfig, lang: Option<crate::config::query::Lang>) -> String {
    let q = crate::config::query::encode(config, lang);
    if config.task != LabTask::Generate {
        return q;
    }
    q.split('&')
        .filter(|p| *p != "task=generate")
        .map(|p| {
            if p == "lesson=delay" {
                "lesson=generate"
            } else {
                p
            }
        })
        .collect::<Vec<_>>()
        .join("&")
}

/// The lab page's query (`?lesson=delay`, any task; `?lesson=generate` is `task=generate`)
/// decoded as the page reads it. On a task page
/// (`task=adding`, `copy`, `order`) its notices name what the task uses: a value that could not
/// be read falls back to the task's default, not delay-copy's (`task=adding&length=NaN` uses
/// T = 50, and its notice says so), and so does a value clamped onto delay-copy's default (the
/// key then reads as left at its default); delay-copy's rule `0 < delay < length` is not a task
/// page's, so its notice is dropped.
pub fn decode_lab(query: &str) -> Decoded<DelayConfig> {
    let generate = crate::config::query::query_lesson(query)
        .is_some_and(|l| l.trim().eq_ignore_ascii_case(GENERATE_LESSON));
    let mut d = if generate {
        let mut pairs: Vec<(String, String)> = crate::config::query::parse_pairs(query)
            .into_iter()
            .filter(|(k, _)| k != "lesson" && k != "task")
            .collect();
        pairs.push(("lesson".into(), DelayConfig::LESSON.into()));
        pairs.push(("task".into(), GENERATE_LESSON.into()));
        decode::<DelayConfig>(&serde_urlencoded::to_string(&pairs).unwrap_or_default())
    } else {
        decode::<DelayConfig>(query)
    };
    let own: Vec<(&'static str, String)> = match d.config.task {
        LabTask::Generate => generate_defaults().to_vec(),
        task => match task.memory() {
            Some(kind) => task_defaults(kind).to_vec(),
            None => return d,
        },
    };
    let task_value = |field: &str, value: &str| {
        let spec = DELAY_FIELDS.iter().find(|s| s.key == field)?;
        let (_, v) = own.iter().find(|(k, _)| *k == field)?;
        (value == format_value(&spec.kind.default_value())).then(|| v.clone())
    };
    d.notices
        .retain(|n| !matches!(n.kind, NoticeKind::Inconsistent { .. }));
    for n in &mut d.notices {
        match &mut n.kind {
            NoticeKind::Invalid {
                default: Fallback::Value(v),
                ..
            }
            | NoticeKind::Clamped { to: v, .. } => {
                if let Some(task) = task_value(&n.field, v) {
                    *v = task;
                }
            }
            _ => {}
        }
    }
    d
}

impl SweepPlan {
    /// The plan of a lab page configuration (see the module docs).
    ///
    /// # Errors
    /// [`TaskError`] when the length or the delay does not fit the task.
    pub fn of_lab(config: &DelayConfig) -> Result<SweepPlan, TaskError> {
        SweepPlan::of_lab_on(config, None)
    }

    /// The plan of a lab page configuration whose task may read the names `data` (names
    /// generation; see the module docs).
    ///
    /// # Errors
    /// [`TaskError`] when the length or the delay does not fit the task, or names generation
    /// has no data.
    pub fn of_lab_on(
        config: &DelayConfig,
        data: Option<Arc<NamesDataset>>,
    ) -> Result<SweepPlan, TaskError> {
        let base = DelayConfig::default();
        if config.task == LabTask::Generate {
            let task = lab_task(config, config.length, data)?;
            let (cells, seeds, recipe, steps) = generate_recipe(config);
            return Ok(SweepPlan {
                task,
                cells,
                seeds,
                recipe,
                steps,
                eval_every: steps.div_ceil(EVALS_PER_RUN).max(1),
            });
        }
        // A task without defaults of its own (delay-copy) takes the keys as given.
        let Some(kind) = config.task.memory() else {
            let task = lab_task(config, config.length, None)?;
            let steps = config.steps.max(1);
            return Ok(SweepPlan {
                task,
                cells: config.cell.cells().to_vec(),
                seeds: config.run_seeds(),
                recipe: Recipe::of(config),
                steps,
                eval_every: eval_every_for(steps),
            });
        };
        let keep = |given: usize, default: usize, own: usize| {
            if given == default {
                own
            } else {
                given
            }
        };
        let task = lab_task(config, lab_length(config), None)?;
        let recipe = Recipe {
            hidden_size: keep(config.hidden_size, base.hidden_size, DEFAULT_HIDDEN),
            ..Recipe::of(config)
        };
        let steps = if config.steps == base.steps {
            kind.default_steps()
        } else {
            config.steps.max(1)
        };
        let cells = if config.cell == base.cell {
            CellSet::All.cells()
        } else {
            config.cell.cells()
        };
        Ok(SweepPlan {
            task,
            cells: cells.to_vec(),
            seeds: config.run_seeds(),
            recipe,
            steps,
            eval_every: steps.div_ceil(EVALS_PER_RUN).max(1),
        })
    }

    /// The plan of a names page configuration on `data` (see the module docs).
    pub fn of_names(cfg: &TrainConfig, data: Arc<NamesDataset>) -> SweepPlan {
        let recipe = Recipe::of_names(cfg);
        let task = NamesTask::new(data, u64::from(cfg.seed), cfg.head);
        let per_epoch = task.steps_per_epoch(recipe.batch_size);
        SweepPlan {
            task: Arc::new(task),
            cells: vec![cfg.cell],
            seeds: vec![cfg.seed],
            recipe,
            steps: per_epoch * u64::from(cfg.epochs),
            eval_every: per_epoch.max(1),
        }
    }
}
