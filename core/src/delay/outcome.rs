//! What the finished runs show, as typed values the page renders in its language: the sweep
//! summary (final held-out accuracy vs delay per cell), the outcome of one delay's runs, and
//! the capacity figures of a delay.
//!
//! - [`SweepSummary`]: the last held-out accuracy and loss of every finished run that shares
//!   one [`SweepKey`] (every setting but the delay, the cells and the seeds), one entry per
//!   (delay, cell, seed); a rerun replaces its entry. [`SweepSummary::rows`] gives, per delay
//!   and cell, the per-seed accuracies with their mean, minimum and maximum.
//! - [`judge`]: the [`Outcome`] of one delay's runs from the final held-out accuracy of every
//!   seed of every cell and the chance level 1/V. It claims only what every seed shows: a
//!   cell "left chance" when each seed is at least [`LEFT_CHANCE`] of the way from chance to
//!   1, "stayed at chance" when each seed is within [`AT_CHANCE`] of it, "solved" the task
//!   when each seed reached [`SOLVED`]; seeds that disagree or fall between the two chance
//!   bands give [`Outcome::Unclear`]; until every expected seed is finished,
//!   [`Outcome::NotEnoughRuns`]. One cell "leads" only when its worst seed beats every seed of
//!   every other cell, with at least two seeds each.
//! - [`Capacity`]: the delay, the `delay · log2(V)` bits the task asks the state to hold at
//!   once, and the hidden size. No bound is claimed (H floats are not H bits).
//!
//! Everything is `serde`-serialisable (the summary is kept across reloads).

use crate::config::delay::DelayConfig;
use crate::math::params::CellKind;
use crate::train::sweep::RunResult;
use serde::{Deserialize, Serialize};

/// Accuracy from which every seed counts as having solved the task (the task's criterion).
pub use crate::task::delay::SOLVED;

/// A seed stayed at chance when its accuracy is at most `chance + AT_CHANCE · (1 − chance)`
/// (0.118 for V = 10; with 256 held-out sequences the standard error of a chance-level
/// accuracy is below 0.004).
pub const AT_CHANCE: f64 = 0.02;

/// A seed left chance when its accuracy is at least `chance + LEFT_CHANCE · (1 − chance)`
/// (0.145 for V = 10).
pub const LEFT_CHANCE: f64 = 0.05;

/// Every setting of a run except the delay, the cells and the seeds: runs with the same key
/// are comparable across delays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepKey {
    /// Tokens per sequence T.
    pub length: usize,
    /// Vocabulary size V.
    pub vocab: usize,
    /// Hidden size H.
    pub hidden_size: usize,
    /// Adam learning rate.
    pub lr: f64,
    /// Sequences per step.
    pub batch_size: usize,
    /// Clipping threshold (0 = off).
    pub max_norm: f64,
    /// LSTM forget-gate bias at initialisation.
    pub forget_bias: f64,
    /// Steps per run.
    pub steps: u64,
}

impl SweepKey {
    /// The key of a page configuration.
    pub fn of(config: &DelayConfig) -> SweepKey {
        SweepKey {
            length: config.length,
            vocab: config.vocab,
            hidden_size: config.hidden_size,
            lr: config.lr,
            batch_size: config.batch_size,
            max_norm: config.max_norm,
            forget_bias: config.forget_bias,
            steps: config.steps,
        }
    }

    /// Accuracy of a uniform guess, `1/V`.
    pub fn chance(&self) -> f64 {
        1.0 / self.vocab.max(1) as f64
    }
}

/// The final held-out figures of one finished run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinalFigure {
    /// The delay.
    pub delay: usize,
    /// The cell.
    pub cell: CellKind,
    /// The seed.
    pub seed: u32,
    /// The step of the last evaluation (the budget).
    pub step: u64,
    /// Held-out token accuracy, 0–1.
    pub acc: f64,
    /// Held-out mean cross-entropy, nats per token.
    pub loss: f64,
}

/// A result does not belong to the summary it was offered to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordError {
    /// The run was made with other settings than the summary's key.
    OtherSettings,
    /// The run is not finished (its last evaluation is not at the budget).
    Unfinished,
}

/// Final held-out accuracy vs delay, per cell, for one [`SweepKey`]; filled as runs finish.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepSummary {
    /// The settings every run in the summary shares.
    pub key: SweepKey,
    /// One entry per (delay, cell, seed), in the order they were recorded.
    pub figures: Vec<FinalFigure>,
}

/// Per-seed figures of one cell at one delay, with their spread.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellSpread {
    /// The cell.
    pub cell: CellKind,
    /// `(seed, accuracy)` sorted by seed.
    pub accs: Vec<(u32, f64)>,
    /// Mean accuracy over the seeds.
    pub mean: f64,
    /// Lowest accuracy.
    pub min: f64,
    /// Highest accuracy.
    pub max: f64,
    /// Mean held-out loss over the seeds, nats.
    pub mean_loss: f64,
}

impl CellSpread {
    /// The spread of `(seed, accuracy, loss)` figures of `cell` (`None` when there are none).
    pub fn of(cell: CellKind, figures: &[(u32, f64, f64)]) -> Option<CellSpread> {
        if figures.is_empty() {
            return None;
        }
        let mut accs: Vec<(u32, f64)> = figures.iter().map(|&(s, a, _)| (s, a)).collect();
        accs.sort_by_key(|&(s, _)| s);
        let n = figures.len() as f64;
        Some(CellSpread {
            cell,
            mean: accs.iter().map(|a| a.1).sum::<f64>() / n,
            min: accs.iter().map(|a| a.1).fold(f64::INFINITY, f64::min),
            max: accs.iter().map(|a| a.1).fold(f64::NEG_INFINITY, f64::max),
            mean_loss: figures.iter().map(|f| f.2).sum::<f64>() / n,
            accs,
        })
    }

    /// Seeds measured.
    pub fn seeds(&self) -> usize {
        self.accs.len()
    }
}

/// One delay of the summary: a [`CellSpread`] per cell that has results, in display order
/// (RNN, LSTM, GRU).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SummaryRow {
    /// The delay.
    pub delay: usize,
    /// The cells with at least one finished run.
    pub cells: Vec<CellSpread>,
}

impl SummaryRow {
    /// The spread of `cell`, if it has results.
    pub fn cell(&self, cell: CellKind) -> Option<&CellSpread> {
        self.cells.iter().find(|c| c.cell == cell)
    }
}

impl SweepSummary {
    /// An empty summary for the settings of `config`.
    pub fn new(config: &DelayConfig) -> SweepSummary {
        SweepSummary {
            key: SweepKey::of(config),
            figures: Vec::new(),
        }
    }

    /// True when runs of `config` belong to this summary.
    pub fn accepts(&self, config: &DelayConfig) -> bool {
        SweepKey::of(config) == self.key
    }

    /// Records the final figures of a finished run of `config`, replacing an earlier run of
    /// the same (delay, cell, seed).
    ///
    /// # Errors
    /// [`RecordError::OtherSettings`] when `config` does not match the key,
    /// [`RecordError::Unfinished`] when the run's last evaluation is not at `config.steps`.
    pub fn record(&mut self, config: &DelayConfig, result: &RunResult) -> Result<(), RecordError> {
        if !self.accepts(config) {
            return Err(RecordError::OtherSettings);
        }
        let last = match result.last() {
            Some(h) if h.step == config.steps && result.steps == config.steps => *h,
            _ => return Err(RecordError::Unfinished),
        };
        let figure = FinalFigure {
            delay: config.delay,
            cell: result.run.cell,
            seed: result.run.seed,
            step: last.step,
            acc: last.acc,
            loss: last.loss,
        };
        self.figures
            .retain(|f| (f.delay, f.cell, f.seed) != (figure.delay, figure.cell, figure.seed));
        self.figures.push(figure);
        Ok(())
    }

    /// Per delay (ascending), per cell (display order): the seeds' accuracies and their
    /// spread.
    pub fn rows(&self) -> Vec<SummaryRow> {
        let mut delays: Vec<usize> = self.figures.iter().map(|f| f.delay).collect();
        delays.sort_unstable();
        delays.dedup();
        delays
            .into_iter()
            .map(|delay| SummaryRow {
                delay,
                cells: CellKind::ALL
                    .into_iter()
                    .filter_map(|cell| {
                        let figs: Vec<(u32, f64, f64)> = self
                            .figures
                            .iter()
                            .filter(|f| f.delay == delay && f.cell == cell)
                            .map(|f| (f.seed, f.acc, f.loss))
                            .collect();
                        CellSpread::of(cell, &figs)
                    })
                    .collect(),
            })
            .collect()
    }

    /// The row of `delay`, if any run of that delay is recorded.
    pub fn row(&self, delay: usize) -> Option<SummaryRow> {
        self.rows().into_iter().find(|r| r.delay == delay)
    }
}

/// Accuracy range of one cell over its seeds, as an outcome quotes it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellRange {
    /// The cell.
    pub cell: CellKind,
    /// Seeds.
    pub seeds: usize,
    /// Lowest accuracy over the seeds.
    pub min: f64,
    /// Highest accuracy.
    pub max: f64,
    /// Mean accuracy.
    pub mean: f64,
}

impl CellRange {
    fn of(cell: CellKind, accs: &[f64]) -> CellRange {
        CellRange {
            cell,
            seeds: accs.len(),
            min: accs.iter().copied().fold(f64::INFINITY, f64::min),
            max: accs.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            mean: accs.iter().sum::<f64>() / accs.len().max(1) as f64,
        }
    }
}

/// What one delay's finished runs show (see the module docs for the thresholds). Cells are
/// listed in the order they were given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// `cell` has `have` finished seeds of the `need` expected: nothing is claimed yet.
    NotEnoughRuns {
        /// The first cell short of runs.
        cell: CellKind,
        /// Finished seeds.
        have: usize,
        /// Expected seeds.
        need: usize,
    },
    /// Every seed of every cell reached [`SOLVED`].
    AllSolved {
        /// Each cell's range.
        cells: Vec<CellRange>,
    },
    /// Every seed of every cell stayed at chance.
    AllAtChance {
        /// Each cell's range.
        cells: Vec<CellRange>,
        /// Chance accuracy 1/V.
        chance: f64,
    },
    /// The cells in `learned` left chance in every seed; those in `at_chance` stayed at chance
    /// in every seed (e.g. the LSTM only, at delay 32 with recipe R).
    OnlySome {
        /// Cells that left chance in every seed.
        learned: Vec<CellRange>,
        /// Cells that stayed at chance in every seed.
        at_chance: Vec<CellRange>,
        /// Chance accuracy 1/V.
        chance: f64,
    },
    /// Every cell left chance in every seed and `leader`'s worst seed beats every seed of the
    /// others (at least two seeds per cell, at least two cells; not every seed solved).
    Leads {
        /// The leading cell.
        leader: CellRange,
        /// The other cells.
        others: Vec<CellRange>,
    },
    /// Every cell left chance in every seed, without a clear order (the seed ranges overlap,
    /// or one seed or one cell only).
    AllLearned {
        /// Each cell's range.
        cells: Vec<CellRange>,
        /// Chance accuracy 1/V.
        chance: f64,
    },
    /// The seeds of `cell` disagree, or some sit between "at chance" and "left chance":
    /// nothing is claimed about it.
    Unclear {
        /// The cell's range.
        cell: CellRange,
        /// Chance accuracy 1/V.
        chance: f64,
    },
}

/// The final held-out accuracies of one cell's finished seeds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellAccuracies {
    /// The cell.
    pub cell: CellKind,
    /// One accuracy (0–1) per finished seed.
    pub accs: Vec<f64>,
}

#[derive(Clone, Copy, PartialEq)]
enum Status {
    Solved,
    Learned,
    AtChance,
    Unclear,
}

fn status(accs: &[f64], chance: f64) -> Status {
    let at = chance + AT_CHANCE * (1.0 - chance);
    let left = chance + LEFT_CHANCE * (1.0 - chance);
    if accs.iter().all(|&a| a >= SOLVED) {
        Status::Solved
    } else if accs.iter().all(|&a| a >= left) {
        Status::Learned
    } else if accs.iter().all(|&a| a <= at) {
        Status::AtChance
    } else {
        Status::Unclear
    }
}

/// The outcome of one delay's runs: `cells` holds, per cell, the held-out accuracy at the last
/// evaluation of every finished seed; `seeds` is how many seeds each cell should have;
/// `chance` is 1/V. Pure: the same inputs give the same outcome.
pub fn judge(cells: &[CellAccuracies], seeds: usize, chance: f64) -> Outcome {
    let need = seeds.max(1);
    if let Some(c) = cells.iter().find(|c| c.accs.len() < need) {
        return Outcome::NotEnoughRuns {
            cell: c.cell,
            have: c.accs.len(),
            need,
        };
    }
    if cells.is_empty() {
        return Outcome::NotEnoughRuns {
            cell: CellKind::Rnn,
            have: 0,
            need,
        };
    }
    let ranges: Vec<CellRange> = cells
        .iter()
        .map(|c| CellRange::of(c.cell, &c.accs))
        .collect();
    let statuses: Vec<Status> = cells.iter().map(|c| status(&c.accs, chance)).collect();
    if let Some(i) = statuses.iter().position(|s| *s == Status::Unclear) {
        return Outcome::Unclear {
            cell: ranges[i],
            chance,
        };
    }
    let pick = |f: &dyn Fn(Status) -> bool| -> Vec<CellRange> {
        ranges
            .iter()
            .zip(&statuses)
            .filter(|(_, s)| f(**s))
            .map(|(r, _)| *r)
            .collect()
    };
    let learned = pick(&|s| matches!(s, Status::Solved | Status::Learned));
    let at_chance = pick(&|s| s == Status::AtChance);
    if statuses.iter().all(|s| *s == Status::Solved) {
        return Outcome::AllSolved { cells: ranges };
    }
    if learned.is_empty() {
        return Outcome::AllAtChance {
            cells: ranges,
            chance,
        };
    }
    if !at_chance.is_empty() {
        return Outcome::OnlySome {
            learned,
            at_chance,
            chance,
        };
    }
    if ranges.len() >= 2 && ranges.iter().all(|r| r.seeds >= 2) {
        for (i, r) in ranges.iter().enumerate() {
            if ranges
                .iter()
                .enumerate()
                .all(|(j, o)| j == i || r.min > o.max)
            {
                return Outcome::Leads {
                    leader: *r,
                    others: ranges
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != i)
                        .map(|(_, o)| *o)
                        .collect(),
                };
            }
        }
    }
    Outcome::AllLearned {
        cells: ranges,
        chance,
    }
}

impl SummaryRow {
    /// [`judge`] on this row for `cells` (each must have `seeds` finished seeds here; a cell
    /// without results counts as having none) at chance `chance`.
    pub fn outcome(&self, cells: &[CellKind], seeds: usize, chance: f64) -> Outcome {
        let accs: Vec<CellAccuracies> = cells
            .iter()
            .map(|&cell| CellAccuracies {
                cell,
                accs: self
                    .cell(cell)
                    .map(|c| c.accs.iter().map(|a| a.1).collect())
                    .unwrap_or_default(),
            })
            .collect();
        judge(&accs, seeds, chance)
    }
}

/// The outcome of a configuration's own finished runs: the final held-out accuracy of every
/// result of `config`'s task (its vocabulary, length and delay), per cell of `config.cell`,
/// judged against `config.seeds` seeds and chance 1/V. Results of other tasks are ignored.
pub fn outcome_of_results(config: &DelayConfig, results: &[RunResult]) -> Outcome {
    let task = crate::task::delay::DelayTask::new(config.vocab.max(2), config.length, config.delay)
        .map(|t| crate::task::Task::settings(&t))
        .unwrap_or_default();
    let cells: Vec<CellAccuracies> = config
        .cell
        .cells()
        .iter()
        .map(|&cell| CellAccuracies {
            cell,
            accs: results
                .iter()
                .filter(|r| r.run.cell == cell && r.task == task)
                .filter(|r| r.steps == config.steps)
                .filter_map(|r| r.last().map(|h| h.acc))
                .collect(),
        })
        .collect();
    judge(&cells, config.seeds, 1.0 / config.vocab.max(1) as f64)
}

/// What the task asks the state to hold at once, next to the state's size.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Capacity {
    /// The delay d: tokens the state must hold at once (the d most recent).
    pub delay: usize,
    /// Vocabulary size V.
    pub vocab: usize,
    /// `d · log2(V)` bits of information in those tokens.
    pub bits: f64,
    /// Hidden size H (floats in h; an LSTM also carries H floats in c).
    pub hidden_size: usize,
}

impl Capacity {
    /// The capacity figures of `config`.
    pub fn of(config: &DelayConfig) -> Capacity {
        Capacity {
            delay: config.delay,
            vocab: config.vocab,
            bits: config.delay as f64 * (config.vocab.max(1) as f64).log2(),
            hidden_size: config.hidden_size,
        }
    }

    /// Floats of state a cell carries from step to step: H (RNN, GRU) or 2H (LSTM: h and c).
    pub fn state_floats(&self, cell: CellKind) -> usize {
        cell.state_blocks() * self.hidden_size
    }
}

/// Recipe R's budget: the steps per run of the default configuration, with which the outcomes
/// match PyTorch's.
pub fn recipe_r_steps() -> u64 {
    DelayConfig::default().steps
}

/// Runs trained fewer steps than recipe R: their outcome may change with more training.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShortBudget {
    /// Steps per run of these runs.
    pub steps: u64,
    /// Steps per run of recipe R.
    pub recipe_steps: u64,
}

impl ShortBudget {
    /// `Some` when `steps` is below recipe R's budget.
    pub fn of(steps: u64) -> Option<ShortBudget> {
        let recipe_steps = recipe_r_steps();
        (steps < recipe_steps).then_some(ShortBudget {
            steps,
            recipe_steps,
        })
    }

    /// The budget as a fraction of recipe R's.
    pub fn fraction(&self) -> f64 {
        self.steps as f64 / self.recipe_steps.max(1) as f64
    }
}

/// An outcome with what qualifies it: a budget below recipe R's, and a forget-gate bias of 0
/// or less while the LSTM stayed at chance (the page's forget-bias note explains why).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    /// What the runs show.
    pub outcome: Outcome,
    /// The delay of the runs.
    pub delay: usize,
    /// The runs' budget, when it is below recipe R's and the outcome claims something.
    pub short_budget: Option<ShortBudget>,
    /// The runs' forget-gate bias, when it is at most 0 and every LSTM seed stayed at chance.
    pub forget_bias: Option<f64>,
}

/// Every seed of the LSTM stayed at chance in `outcome`.
pub fn lstm_at_chance(outcome: &Outcome) -> bool {
    let lstm = |cells: &[CellRange]| cells.iter().any(|c| c.cell == CellKind::Lstm);
    match outcome {
        Outcome::AllAtChance { cells, .. } => lstm(cells),
        Outcome::OnlySome { at_chance, .. } => lstm(at_chance),
        _ => false,
    }
}

/// The verdict on `outcome`, the outcome of runs at `delay` with the settings `key`.
pub fn verdict(outcome: Outcome, delay: usize, key: &SweepKey) -> Verdict {
    let claims = !matches!(outcome, Outcome::NotEnoughRuns { .. });
    Verdict {
        short_budget: ShortBudget::of(key.steps).filter(|_| claims),
        forget_bias: (key.forget_bias <= 0.0 && lstm_at_chance(&outcome))
            .then_some(key.forget_bias),
        outcome,
        delay,
    }
}

/// The fields of [`SweepKey`] by URL key, in canonical order, with their values as the URL
/// writes them.
pub fn key_fields(key: &SweepKey) -> [(&'static str, String); 8] {
    [
        ("length", key.length.to_string()),
        ("vocab", key.vocab.to_string()),
        ("hidden_size", key.hidden_size.to_string()),
        ("lr", key.lr.to_string()),
        ("batch_size", key.batch_size.to_string()),
        ("max_norm", key.max_norm.to_string()),
        ("forget_bias", key.forget_bias.to_string()),
        ("steps", key.steps.to_string()),
    ]
}

/// The labels of summaries shown side by side: for each key, `key=value` of every setting that
/// differs between any two of `keys` (in canonical order). One key alone gets no label.
pub fn settings_labels(keys: &[SweepKey]) -> Vec<Vec<String>> {
    let fields: Vec<[(&'static str, String); 8]> = keys.iter().map(key_fields).collect();
    let varies: Vec<bool> = (0..8)
        .map(|i| fields.iter().any(|f| f[i].1 != fields[0][i].1))
        .collect();
    fields
        .iter()
        .map(|f| {
            f.iter()
                .zip(&varies)
                .filter(|(_, v)| **v)
                .map(|((k, v), _)| format!("{k}={v}"))
                .collect()
        })
        .collect()
}
