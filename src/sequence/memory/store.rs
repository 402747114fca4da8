//! What the long-memory tasks keep across reloads, in the lab's store
//! ([`crate::sequence::store::MEMORY`]): the held-out curves of the last [`KEPT_SWEEPS`]
//! sweeps, each under its configuration's canonical query, and whether it had finished, as a
//! list of [`KeptSweep`]; beside it the training seed's latest checkpoint ([`ResumePoint`]).
//! After a reload during a sweep the page shows its finished runs and the training seed as far
//! as its checkpoint, and Go on trains the rest from there, with the numbers of a sweep that
//! never stopped.

use crate::sequence::runs::{KeptShown, KeptSweeps, Mark, RunView};
use serde::{Deserialize, Serialize};
use unroll_core::config::delay::DelayConfig;
use unroll_core::train::sweep::{HeldOut, SweepPlan, Tick};

/// Sweeps kept (the oldest is dropped first).
pub const KEPT_SWEEPS: usize = 8;

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
}

impl KeptSweep {
    /// The runs of the seeds finished from the first on (the sweep trains seed by seed, so a
    /// resumed sweep starts at the next seed).
    pub fn finished_runs(&self, plan: &SweepPlan) -> usize {
        let in_a_row = self
            .curves
            .iter()
            .take(plan.runs())
            .take_while(|c| c.last().is_some_and(|p| p.step >= plan.steps))
            .count();
        let cells = plan.cells.len().max(1);
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
/// [`KEPT_SWEEPS`].
pub fn keep(kept: &mut Vec<KeptSweep>, sweep: KeptSweep) {
    kept.retain(|k| k.query != sweep.query);
    kept.push(sweep);
    let extra = kept.len().saturating_sub(KEPT_SWEEPS);
    kept.drain(..extra);
}

/// The training seed's latest checkpoint of a sweep, as kept: the engine's checkpoint (every
/// run of its seed, with its held-out curve), no training-batch curves.
pub type ResumePoint = crate::sequence::runs::ResumePoint<()>;

/// The sweep `query` as kept: the held-out curves of `runs`, `elapsed` seconds.
fn sweep_of(query: &str, runs: &[RunView], elapsed: f64, finished: bool) -> KeptSweep {
    KeptSweep {
        query: query.to_owned(),
        curves: runs.iter().map(|r| r.heldout.clone()).collect(),
        elapsed,
        finished,
    }
}

/// The held-out curves of every sweep, each kept at every held-out point; a sweep kept
/// unfinished is offered again (Go on).
impl KeptSweeps for Vec<KeptSweep> {
    fn merge_from(&mut self, loaded: Self) {
        for k in loaded.into_iter().rev() {
            if !self.iter().any(|n| n.query == k.query) {
                self.insert(0, k);
            }
        }
    }

    /// The plan's runs, those of the seeds finished from the first on with their curves.
    fn shown(&self, config: &DelayConfig, query: &str) -> Option<KeptShown> {
        let kept = self.iter().find(|k| k.query == query)?;
        let plan = SweepPlan::of_lab(config).ok()?;
        let done = kept.finished_runs(&plan);
        let views = plan
            .run_ids()
            .into_iter()
            .zip(kept.finished_curves(&plan))
            .enumerate()
            .map(|(k, (id, curve))| match k < done {
                true => RunView::kept(id, curve, plan.steps),
                false => RunView::new(id),
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
