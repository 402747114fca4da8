//! What a task part that keeps each sweep's held-out curves keeps across reloads (the
//! long-memory tasks and names generation, each in its own records of the lab's store): the
//! last [`KEPT_SWEEPS`] sweeps, each under its configuration's canonical query, with whether it
//! had finished, as a list of [`KeptSweep`]; for a part that writes with its runs' weights
//! (names generation's sampler and quality panel) the finished runs' final weights too, for the
//! newest [`KEPT_WEIGHTS`] sweeps, and the runs' training-batch curves. Plain data, no Leptos (the tests check it natively).

use crate::sequence::runs::{plan, shape, KeptShown, KeptSweeps, Mark, RunView, RunWeights};
use serde::{Deserialize, Serialize};
use unroll_core::config::delay::DelayConfig;
use unroll_core::train::sweep::{HeldOut, SweepPlan, Tick};

/// Sweeps kept (the oldest is dropped first).
pub const KEPT_SWEEPS: usize = 8;

/// Sweeps kept with their finished runs' weights (the older ones keep their curves only): a
/// names generation run's weights are about 30 000 numbers at its default recipe.
pub const KEPT_WEIGHTS: usize = 4;

/// One sweep as kept.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct KeptSweep {
    /// The configuration's canonical query (without `lang`).
    pub query: String,
    /// Held-out curve of each run of the plan, in its order.
    pub curves: Vec<Vec<HeldOut>>,
    /// Seconds of training.
    pub elapsed: f64,
    /// Every run trained its budget.
    pub finished: bool,
    /// The final weights of each finished run of the plan, in its order (empty where the part
    /// keeps none; absent from records written without them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub weights: Vec<Option<RunWeights>>,
    /// The training-batch loss `(step, loss)` of each run of the plan, in its order, where the
    /// part keeps its runs' weights (empty otherwise, and absent from records without them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub losses: Vec<Vec<(u64, f64)>>,
}

impl KeptSweep {
    /// The runs of the seeds finished from the first on (the sweep trains seed by seed, so a
    /// resumed sweep starts at the next seed).
    pub fn finished_runs(&self, plan: &SweepPlan) -> usize {
        self.finished_of(plan.runs(), plan.cells.len(), plan.steps)
    }

    /// [`KeptSweep::finished_runs`] of a plan of `runs` runs of `cells` cells, `steps` each.
    fn finished_of(&self, runs: usize, cells: usize, steps: u64) -> usize {
        let in_a_row = self
            .curves
            .iter()
            .take(runs)
            .take_while(|c| c.last().is_some_and(|p| p.step >= steps))
            .count();
        let cells = cells.max(1);
        in_a_row / cells * cells
    }

    /// The curves with only the finished runs' (the others start again, or go on from a
    /// checkpoint, on Go on).
    pub fn finished_curves(&self, plan: &SweepPlan) -> Vec<Vec<HeldOut>> {
        let n = self.finished_runs(plan);
        (0..plan.runs())
            .map(|k| match self.curves.get(k) {
                Some(c) if k < n => c.clone(),
                _ => Vec::new(),
            })
            .collect()
    }
}

/// Puts `sweep` last in `kept` (replacing the same query), dropping the oldest beyond
/// [`KEPT_SWEEPS`], and the weights of those older than the newest [`KEPT_WEIGHTS`] with them.
pub fn keep(kept: &mut Vec<KeptSweep>, sweep: KeptSweep) {
    kept.retain(|k| k.query != sweep.query);
    kept.push(sweep);
    let extra = kept.len().saturating_sub(KEPT_SWEEPS);
    kept.drain(..extra);
    kept.iter_mut()
        .rev()
        .filter(|k| !k.weights.is_empty())
        .skip(KEPT_WEIGHTS)
        .for_each(|k| k.weights.clear());
}

/// The sweep `query` as kept: the held-out curves of `runs`, the final weights of those that
/// finished with them and, where the part keeps weights, their training-batch curves,
/// `elapsed` seconds.
fn sweep_of(query: &str, runs: &[RunView], elapsed: f64, finished: bool) -> KeptSweep {
    let weights: Vec<Option<RunWeights>> = runs
        .iter()
        .map(|r| r.finished.then(|| r.final_weights().cloned()).flatten())
        .collect();
    KeptSweep {
        query: query.to_owned(),
        curves: runs.iter().map(|r| r.heldout.clone()).collect(),
        elapsed,
        finished,
        losses: if runs.iter().any(|r| r.weights.is_some()) {
            runs.iter().map(|r| r.loss.clone()).collect()
        } else {
            Vec::new()
        },
        weights: if weights.iter().any(Option::is_some) {
            weights
        } else {
            Vec::new()
        },
    }
}

/// The held-out curves of every sweep, each kept at every held-out point (with the finished
/// runs' weights where the part keeps them); a sweep kept unfinished is offered again.
impl KeptSweeps for Vec<KeptSweep> {
    fn merge_from(&mut self, loaded: Self) {
        for k in loaded.into_iter().rev() {
            if !self.iter().any(|n| n.query == k.query) {
                self.insert(0, k);
            }
        }
    }

    /// The plan's runs, those of the seeds finished from the first on with their curves (and
    /// their weights, when kept).
    fn shown(&self, config: &DelayConfig, query: &str) -> Option<KeptShown> {
        let kept = self.iter().find(|k| k.query == query)?;
        let (cells, _, steps) = shape(config);
        let plan = plan(config);
        let done = kept.finished_of(plan.len(), cells.len(), steps);
        let views = plan
            .into_iter()
            .enumerate()
            .map(|(k, v)| match (k < done, kept.curves.get(k)) {
                (true, Some(curve)) => RunView {
                    weights: kept.weights.get(k).cloned().flatten(),
                    loss: kept.losses.get(k).cloned().unwrap_or_default(),
                    ..RunView::kept(v.id, curve.clone(), steps)
                },
                _ => v,
            })
            .collect();
        Some(KeptShown {
            views,
            results: Vec::new(),
            elapsed: kept.elapsed,
            unfinished: !kept.finished,
        })
    }

    fn record(
        &mut self,
        _: &DelayConfig,
        query: &str,
        tick: &Tick,
        runs: &[RunView],
        elapsed: f64,
    ) -> bool {
        let point = tick.heldout.is_some();
        if point {
            keep(self, sweep_of(query, runs, elapsed, false));
        }
        point
    }

    fn mark(&mut self, query: &str, mark: Mark, runs: &[RunView], elapsed: f64) -> bool {
        match mark {
            Mark::Training | Mark::Finished => {
                keep(self, sweep_of(query, runs, elapsed, mark == Mark::Finished));
                true
            }
            Mark::Failed => false,
            Mark::Reset => {
                self.retain(|k| k.query != query);
                true
            }
        }
    }
}
