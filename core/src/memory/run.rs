//! A long-memory run as the lab page trains it: the plan read from the page's configuration
//! (which cells, seeds, length T, budget and recipe), and the sweep that trains every cell ×
//! seed one after another, one optimisation step per tick, with held-out evaluations.
//!
//! The page shares the delay-copy lab's URL keys ([`DelayConfig`]). A key still at its
//! delay-copy default takes the task's own default: `length` 96 → the task's T
//! ([`super::TaskKind::default_length`]), `steps` 3000 → [`default_steps`], `hidden_size` 128 → the
//! task recipe's 64, `seeds` 3 stays 3 (as on the delay page), `cell` `both` → RNN, LSTM and GRU. Any other value is used
//! as given, so short runs (a small T, a few steps) are one link away.

use super::task::{LengthError, MemoryTask, TaskKind};
use super::trainer::{default_steps, recipe_for, solved_after, HeldOutPoint, MemoryTrainer};
use crate::config::delay::{CellSet, DelayConfig, DELAY_FIELDS};
use crate::config::query::{decode, format_value, Decoded, Fallback, NoticeKind};
use crate::delay::trainer::Recipe;
use crate::math::params::CellKind;
use serde::{Deserialize, Serialize};

/// Held-out evaluations per run (besides the one before the first step).
pub const EVALS_PER_RUN: u64 = 20;

/// The keys a task reads differently from delay-copy, each with the value the task uses when
/// the key is at its delay-copy default, as the URL writes it: `length` (the task's T),
/// `steps` ([`default_steps`]), `hidden_size` (the task recipe's) and `cell` (`all`).
pub fn task_defaults(kind: TaskKind) -> [(&'static str, String); 4] {
    [
        ("length", kind.default_length().to_string()),
        ("steps", default_steps(kind).to_string()),
        ("hidden_size", recipe_for(kind).hidden_size.to_string()),
        ("cell", CellSet::All.as_str().to_owned()),
    ]
}

/// The lab page's query (`?lesson=delay`, any task) decoded as the page reads it. On a task page
/// (`task=adding`, `copy`, `order`) its notices name what the task uses: a value that could not
/// be read falls back to the task's default, not delay-copy's (`task=adding&length=NaN` uses
/// T = 50, and its notice says so), and so does a value clamped onto delay-copy's default (the
/// key then reads as left at its default); delay-copy's rule `0 < delay < length` is not a task
/// page's, so its notice is dropped.
pub fn decode_lab(query: &str) -> Decoded<DelayConfig> {
    let mut d = decode::<DelayConfig>(query);
    let Some(kind) = d.config.task.memory() else {
        return d;
    };
    let own = task_defaults(kind);
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

/// What one long-memory sweep trains.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryPlan {
    /// The task and its length T.
    pub task: MemoryTask,
    /// Hidden size, learning rate, batch, clipping, forget-gate bias.
    pub recipe: Recipe,
    /// Optimisation steps of every run.
    pub steps: u64,
    /// The cells, trained in this order.
    pub cells: Vec<CellKind>,
    /// The seeds of every cell.
    pub seeds: Vec<u32>,
}

impl MemoryPlan {
    /// The plan of `config` (see the module docs); `None` for the delay-copy task, the length
    /// error when T is outside the task's range.
    pub fn of(config: &DelayConfig) -> Option<Result<MemoryPlan, LengthError>> {
        let kind = config.task.memory()?;
        let base = DelayConfig::default();
        let keep = |given: usize, default: usize, own: usize| {
            if given == default {
                own
            } else {
                given
            }
        };
        let length = keep(config.length, base.length, kind.default_length());
        let task = match MemoryTask::new(kind, length) {
            Ok(t) => t,
            Err(e) => return Some(Err(e)),
        };
        let own = recipe_for(kind);
        let recipe = Recipe {
            hidden_size: keep(config.hidden_size, base.hidden_size, own.hidden_size),
            lr: config.lr as f32,
            batch_size: config.batch_size,
            max_norm: config.clip_norm().map(|m| m as f32),
            forget_bias: config.forget_bias as f32,
        };
        let steps = if config.steps == base.steps {
            default_steps(kind)
        } else {
            config.steps
        };
        let cells = if config.cell == base.cell {
            CellSet::All.cells().to_vec()
        } else {
            config.cell.cells().to_vec()
        };
        let seeds = config.seeds;
        let seeds = (0..seeds as u32)
            .map(|k| config.seed.wrapping_add(k))
            .collect();
        Some(Ok(MemoryPlan {
            task,
            recipe,
            steps,
            cells,
            seeds,
        }))
    }

    /// Steps between two held-out evaluations: `⌈steps / 20⌉`.
    pub fn eval_every(&self) -> u64 {
        self.steps.div_ceil(EVALS_PER_RUN).max(1)
    }

    /// Runs of the sweep (cells × seeds).
    pub fn runs(&self) -> usize {
        self.cells.len() * self.seeds.len()
    }

    /// The `index`-th run: its cell and seed (cells in order, each with every seed).
    pub fn run(&self, index: usize) -> (CellKind, u32) {
        let n = self.seeds.len().max(1);
        (self.cells[index / n], self.seeds[index % n])
    }

    /// The plan as the page's files carry it in their names: the task and T, then the cell
    /// when one alone is trained, e.g. `adding-t50`, `copy-t20-gru`.
    pub fn file_tag(&self) -> String {
        let mut tag = format!("{}-t{}", self.task.kind().as_str(), self.task.length());
        if let [one] = self.cells[..] {
            tag.push('-');
            tag.push_str(one.as_str());
        }
        tag
    }

    /// Sequences one run trains on: `steps · batch_size`.
    pub fn sequences(&self) -> u64 {
        self.steps * self.recipe.batch_size.max(1) as u64
    }
}

/// What a long-memory sweep reports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum MemoryEvent {
    /// A held-out evaluation of run `run` (its index in the plan).
    Point {
        /// The run.
        run: usize,
        /// The evaluation.
        point: HeldOutPoint,
    },
    /// Steps done over the whole sweep, and the steps it has in all.
    Progress {
        /// Steps done.
        done: u64,
        /// Steps in all.
        total: u64,
    },
    /// Every run trained its budget.
    Finished,
    /// The run could not start: why, in words.
    Error(String),
}

/// Every cell × seed of a plan, trained one after another.
pub struct MemorySweep {
    plan: MemoryPlan,
    run: usize,
    trainer: Option<MemoryTrainer>,
}

impl MemorySweep {
    /// A sweep at its start.
    pub fn new(plan: MemoryPlan) -> MemorySweep {
        MemorySweep::from_run(plan, 0)
    }

    /// A sweep that starts at run `run` of the plan (the earlier runs were trained before,
    /// e.g. before a reload; runs are deterministic, so theirs are the same results).
    pub fn from_run(plan: MemoryPlan, run: usize) -> MemorySweep {
        let run = run.min(plan.runs());
        MemorySweep {
            plan,
            run,
            trainer: None,
        }
    }

    /// The plan.
    pub fn plan(&self) -> &MemoryPlan {
        &self.plan
    }

    /// Steps done over the whole sweep.
    pub fn done(&self) -> u64 {
        let current = self.trainer.as_ref().map_or(0, |t| t.steps());
        self.run as u64 * self.plan.steps + current
    }

    /// Steps in all.
    pub fn total(&self) -> u64 {
        self.plan.runs() as u64 * self.plan.steps
    }

    /// One unit of work: the next run's first evaluation, or one step (with its evaluation
    /// when one is due). The evaluations it took, `None` once every run is done.
    pub fn tick(&mut self) -> Option<Vec<MemoryEvent>> {
        if self.run >= self.plan.runs() {
            return None;
        }
        let run = self.run;
        let Some(trainer) = self.trainer.as_mut() else {
            let (cell, seed) = self.plan.run(run);
            let t = MemoryTrainer::new(cell, self.plan.task, &self.plan.recipe, seed);
            let point = t.evaluate();
            self.trainer = Some(t);
            return Some(vec![MemoryEvent::Point { run, point }]);
        };
        trainer.step();
        let steps = trainer.steps();
        let mut events = Vec::new();
        if steps % self.plan.eval_every() == 0 || steps >= self.plan.steps {
            events.push(MemoryEvent::Point {
                run,
                point: trainer.evaluate(),
            });
        }
        if steps >= self.plan.steps {
            self.trainer = None;
            self.run += 1;
        }
        Some(events)
    }
}

/// What one run's curve says at its end: the final held-out point, and the sequences after
/// which it first met the task's criterion.
pub fn run_summary(curve: &[HeldOutPoint]) -> Option<(HeldOutPoint, Option<u64>)> {
    curve.last().map(|last| (*last, solved_after(curve)))
}
