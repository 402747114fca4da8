//! What a long-memory sweep's finished runs show, as a typed value the page words in its
//! language: per cell, the spread of the final held-out loss over its seeds, how many seeds
//! beat the memoryless baseline and how many met the task's criterion of "solved"; over the
//! cells, whether they differ beyond the seeds' spread.
//!
//! [`judge`] claims only what every seed shows. A seed "beats the baseline" when its final
//! held-out loss is below [`BEATS`] × the baseline loss (MSE 1/6 for adding, ln 8 for copy,
//! ln 4 for order), so a run that hovers on the baseline does not count. The cells "differ"
//! ([`OutcomeKind::Split`]) only when every seed of some cells beats the baseline and no seed
//! of the others does: the spread of the first group then lies wholly below the second's.
//! Until every run of the plan is finished the outcome is [`OutcomeKind::Unfinished`] and
//! says nothing final.

use crate::math::params::CellKind;
use crate::train::sweep::{solved_after, HeldOut, SweepPlan};
use serde::{Deserialize, Serialize};

/// A seed beats the baseline when its final held-out loss is below `BEATS · baseline`
/// (10 % below it: with 1024 held-out sequences a memoryless run lands within a few per cent
/// of the baseline).
pub const BEATS: f64 = 0.9;

/// The final figures of one finished run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunFinal {
    /// The cell.
    pub cell: CellKind,
    /// The seed.
    pub seed: u32,
    /// Final held-out loss (MSE, or nats per readout).
    pub loss: f64,
    /// Final held-out accuracy, 0–1 (0 for the adding problem).
    pub accuracy: f64,
    /// Sequences after which the run first met the criterion of "solved" (`None`: never).
    pub solved_after: Option<u64>,
}

/// One cell's runs: the spread of their final held-out loss and what they reached.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellOutcome {
    /// The cell.
    pub cell: CellKind,
    /// Finished seeds.
    pub seeds: usize,
    /// Lowest final held-out loss over the seeds.
    pub min: f64,
    /// Highest final held-out loss over the seeds.
    pub max: f64,
    /// Mean final held-out accuracy over the seeds, 0–1.
    pub accuracy: f64,
    /// Seeds whose final loss beats the baseline ([`BEATS`]).
    pub beat: usize,
    /// Seeds that met the criterion of "solved".
    pub solved: usize,
    /// Fewest and most sequences to "solved" over the seeds that solved it.
    pub solved_after: Option<(u64, u64)>,
}

impl CellOutcome {
    /// The outcome of `cell` from its runs (`None` when it has none).
    pub fn of(cell: CellKind, runs: &[RunFinal], baseline: f64) -> Option<CellOutcome> {
        let mine: Vec<&RunFinal> = runs.iter().filter(|r| r.cell == cell).collect();
        if mine.is_empty() {
            return None;
        }
        let solved: Vec<u64> = mine.iter().filter_map(|r| r.solved_after).collect();
        Some(CellOutcome {
            cell,
            seeds: mine.len(),
            min: mine.iter().map(|r| r.loss).fold(f64::INFINITY, f64::min),
            max: mine
                .iter()
                .map(|r| r.loss)
                .fold(f64::NEG_INFINITY, f64::max),
            accuracy: mine.iter().map(|r| r.accuracy).sum::<f64>() / mine.len() as f64,
            beat: mine.iter().filter(|r| beats(r.loss, baseline)).count(),
            solved: solved.len(),
            solved_after: (!solved.is_empty()).then(|| {
                (
                    *solved.iter().min().unwrap_or(&0),
                    *solved.iter().max().unwrap_or(&0),
                )
            }),
        })
    }

    /// Every seed beats the baseline.
    pub fn all_beat(&self) -> bool {
        self.beat == self.seeds
    }

    /// No seed beats the baseline.
    pub fn none_beat(&self) -> bool {
        self.beat == 0
    }
}

/// True when `loss` beats the baseline loss `baseline` ([`BEATS`]).
pub fn beats(loss: f64, baseline: f64) -> bool {
    loss.is_finite() && loss < BEATS * baseline
}

/// What the runs show, over the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OutcomeKind {
    /// Not every run of the plan is finished: nothing final yet.
    Unfinished {
        /// Runs finished.
        finished: usize,
        /// Runs of the plan.
        runs: usize,
    },
    /// No seed of any cell beats the baseline: the runs show no difference between cells.
    NoneBeatsBaseline,
    /// Every seed of some cells beats the baseline and no seed of the others does: the cells
    /// differ beyond the seeds' spread.
    Split,
    /// Every seed of every cell beats the baseline.
    AllBeatBaseline,
    /// Some cell's seeds disagree (some beat the baseline, some do not).
    SeedsDisagree,
}

impl OutcomeKind {
    /// A short machine key: `unfinished`, `no-difference`, `split`, `all-beat`,
    /// `seeds-disagree`.
    pub fn key(self) -> &'static str {
        match self {
            OutcomeKind::Unfinished { .. } => "unfinished",
            OutcomeKind::NoneBeatsBaseline => "no-difference",
            OutcomeKind::Split => "split",
            OutcomeKind::AllBeatBaseline => "all-beat",
            OutcomeKind::SeedsDisagree => "seeds-disagree",
        }
    }
}

/// The outcome of a sweep: its kind, every cell with results (in the plan's order) and the
/// baseline loss.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MemoryOutcome {
    /// What the runs show.
    pub kind: OutcomeKind,
    /// The cells with finished runs.
    pub cells: Vec<CellOutcome>,
    /// The task's memoryless baseline loss.
    pub baseline: f64,
    /// Seeds per cell in the plan.
    pub seeds: usize,
}

impl MemoryOutcome {
    /// The cells whose every seed beats the baseline.
    pub fn ahead(&self) -> Vec<&CellOutcome> {
        self.cells.iter().filter(|c| c.all_beat()).collect()
    }

    /// The cells none of whose seeds beats the baseline.
    pub fn behind(&self) -> Vec<&CellOutcome> {
        self.cells.iter().filter(|c| c.none_beat()).collect()
    }
}

/// The outcome of the finished `runs` of a plan of `cells` × `seeds` runs on a task whose
/// memoryless baseline loss is `baseline` (see the module docs).
pub fn judge(cells: &[CellKind], seeds: usize, runs: &[RunFinal], baseline: f64) -> MemoryOutcome {
    let outcomes: Vec<CellOutcome> = cells
        .iter()
        .filter_map(|&c| CellOutcome::of(c, runs, baseline))
        .collect();
    let expected = cells.len() * seeds;
    let finished = outcomes.iter().map(|c| c.seeds).sum::<usize>();
    let kind = if finished < expected || expected == 0 {
        OutcomeKind::Unfinished {
            finished,
            runs: expected,
        }
    } else if outcomes.iter().all(CellOutcome::none_beat) {
        OutcomeKind::NoneBeatsBaseline
    } else if outcomes.iter().all(CellOutcome::all_beat) {
        OutcomeKind::AllBeatBaseline
    } else if outcomes.iter().all(|c| c.all_beat() || c.none_beat()) {
        OutcomeKind::Split
    } else {
        OutcomeKind::SeedsDisagree
    };
    MemoryOutcome {
        kind,
        cells: outcomes,
        baseline,
        seeds,
    }
}

/// The final figures of the finished runs among `curves` (one held-out curve per run of
/// `plan`, in its order, [`SweepPlan::run_ids`]; a run is finished when its last evaluation is
/// at the budget).
pub fn finals(plan: &SweepPlan, curves: &[Vec<HeldOut>]) -> Vec<RunFinal> {
    plan.run_ids()
        .into_iter()
        .zip(curves)
        .filter_map(|(id, curve)| {
            let last = curve.last().filter(|p| p.step >= plan.steps)?;
            Some(RunFinal {
                cell: id.cell,
                seed: id.seed,
                loss: last.loss,
                accuracy: last.acc,
                solved_after: solved_after(curve, plan.recipe.batch_size),
            })
        })
        .collect()
}

/// The outcome of the runs among `curves` ([`finals`], [`judge`]).
pub fn outcome(plan: &SweepPlan, curves: &[Vec<HeldOut>]) -> MemoryOutcome {
    judge(
        &plan.cells,
        plan.seeds.len(),
        &finals(plan, curves),
        plan.task.baseline().loss,
    )
}
