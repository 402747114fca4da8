//! What the long-memory tasks keep across reloads, in the lab's store
//! ([`crate::sequence::store::MEMORY`]): the held-out curves of the last [`KEPT_SWEEPS`]
//! sweeps, each under its configuration's canonical query, and whether it had finished, as a
//! list of [`KeptSweep`]; beside it the training seed's latest checkpoint ([`ResumePoint`]).
//! After a reload during a sweep the page shows its finished runs and the training seed as far
//! as its checkpoint, and Go on trains the rest from there, with the numbers of a sweep that
//! never stopped.

use crate::sequence::runs::{KeptPoint, KeptShown, KeptSweeps, Mark, RunView};
use serde::{Deserialize, Serialize};
use unroll_core::config::delay::DelayConfig;
use unroll_core::train::sweep::{HeldOut, SweepCheckpoint, SweepPlan, Tick};

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

/// The training seed's latest checkpoint of a sweep, as kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResumePoint {
    /// Canonical query (without `lang`) of the whole sweep's configuration.
    pub query: String,
    /// Seconds of training when it was made.
    pub elapsed: f64,
    /// The engine's checkpoint (every run of its seed, with its held-out curve).
    pub checkpoint: SweepCheckpoint,
}

impl ResumePoint {
    /// The rest of the sweep of `config` (canonical query `query`) this point goes on with,
    /// when its finished runs are `done` (whole seeds, see [`KeptSweep::finished_runs`]): the
    /// same configuration from the first unfinished seed on, when that is the point's seed
    /// and the checkpoint fits its plan.
    pub fn rest(&self, query: &str, config: &DelayConfig, done: usize) -> Option<DelayConfig> {
        let cells = SweepPlan::of_lab(config).ok()?.cells.len().max(1);
        let rest = rest_of(config, done / cells)?;
        (self.query == query
            && self.checkpoint.seed() == Some(rest.seed)
            && SweepPlan::of_lab(&rest).is_ok_and(|p| self.checkpoint.fits(&p).is_ok()))
        .then_some(rest)
    }

    /// The curves of the sweep of `plan` shown after a reload: the finished runs' from `kept`,
    /// the checkpoint's seed's from the checkpoint.
    pub fn curves(&self, plan: &SweepPlan, kept: &KeptSweep) -> Vec<Vec<HeldOut>> {
        let mut curves = kept.finished_curves(plan);
        for (k, id) in plan.run_ids().iter().enumerate() {
            if let Some(r) = self.checkpoint.runs.iter().find(|r| r.run == *id) {
                curves[k] = r.curve.clone();
            }
        }
        curves
    }
}

/// The sweep of `config` from its seed after the first `from` on: a sweep of it trains the
/// same runs, step for step, as the rest of the whole sweep would. `None` when every seed is
/// done.
pub fn rest_of(config: &DelayConfig, from: usize) -> Option<DelayConfig> {
    let seeds = config.seeds.max(1);
    (from < seeds).then(|| DelayConfig {
        seed: config.seed.wrapping_add(from as u32),
        seeds: seeds - from,
        ..config.clone()
    })
}

impl KeptPoint for ResumePoint {
    /// The engine's checkpoint only (the page's training-batch curves are not kept).
    fn new(query: String, elapsed: f64, checkpoint: SweepCheckpoint, _: &[RunView]) -> Self {
        ResumePoint {
            query,
            elapsed,
            checkpoint,
        }
    }
    fn query(&self) -> &str {
        &self.query
    }
    fn elapsed(&self) -> f64 {
        self.elapsed
    }
    fn checkpoint(&self) -> &SweepCheckpoint {
        &self.checkpoint
    }
}

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
