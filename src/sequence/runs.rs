//! The sequence lab's model of a sweep, for every task part: every (cell, seed) run as the page
//! shows it, built from the engine's reports ([`RunView::apply`]), the charts' lines and bands,
//! the cards' figures, what is left of a sweep a reload stopped ([`remaining_of`]), and what a
//! part keeps across reloads: its kept sweeps, behind [`KeptSweeps`], and the training seed's
//! checkpoint ([`ResumePoint`], with what the part keeps of the page's training-batch curves,
//! [`PointCurves`]). Plain data, no Leptos (it compiles natively; the tests below check
//! it); the lab driver ([`super::driver`]) keeps it in signals and the parts' panels render it.

use crate::charts::delay::{band, smoothed, Band, Line, SMOOTH};
use crate::sequence::flow::SavedPoint;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use unroll_core::config::delay::{DelayConfig, LabTask};
use unroll_core::data::names::NamesDataset;
use unroll_core::keep::curve_until;
use unroll_core::math::params::CellKind;
use unroll_core::train::plan::generate_recipe;
use unroll_core::train::sweep::{
    HeldOut, Progress, RunCheckpoint, RunId, RunResult, SweepCheckpoint, SweepPlan, Tick, Weights,
};
use unroll_core::train::trainer::Backend;

/// A run's weights as a part that writes with them keeps them (names generation's sampler):
/// shared, compared by their step and their parameters' bits, kept as [`Weights`]' own format.
#[derive(Clone, Debug)]
pub struct RunWeights(pub Arc<Weights>);

impl PartialEq for RunWeights {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.0.step == other.0.step
                && self.0.params.len() == other.0.params.len()
                && self
                    .0
                    .params
                    .iter()
                    .zip(&other.0.params)
                    .all(|(a, b)| a.to_bits() == b.to_bits()))
    }
}

impl Serialize for RunWeights {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.as_ref().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RunWeights {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Weights::deserialize(deserializer).map(|w| RunWeights(Arc::new(w)))
    }
}

/// One (cell, seed) run as the page shows it.
#[derive(Clone, Debug, PartialEq)]
pub struct RunView {
    /// Cell and seed.
    pub id: RunId,
    /// Steps done.
    pub step: u64,
    /// Held-out evaluations so far.
    pub heldout: Vec<HeldOut>,
    /// `(step, training-batch loss)`.
    pub loss: Vec<(u64, f64)>,
    /// `(step, training-batch token accuracy)`.
    pub acc: Vec<(u64, f64)>,
    /// The run trained its budget.
    pub finished: bool,
    /// The path of its first step (None before it).
    pub backend: Option<Backend>,
    /// The step from which it ran on the CPU after the GPU failed.
    pub cpu_from: Option<u64>,
    /// Its latest weights, where the part keeps them ([`super::driver::Part::KEEPS_WEIGHTS`]).
    pub weights: Option<RunWeights>,
}

impl RunView {
    /// A planned run, not started.
    pub fn new(id: RunId) -> Self {
        RunView {
            id,
            step: 0,
            heldout: Vec::new(),
            loss: Vec::new(),
            acc: Vec::new(),
            finished: false,
            backend: None,
            cpu_from: None,
            weights: None,
        }
    }

    /// A finished run kept from an earlier visit (held-out curve only).
    pub fn restored(r: &RunResult) -> Self {
        RunView {
            id: r.run,
            step: r.steps,
            heldout: r.curve.clone(),
            loss: Vec::new(),
            acc: Vec::new(),
            finished: true,
            backend: r.backend,
            cpu_from: r.cpu_from,
            weights: None,
        }
    }

    /// A finished run of which only its held-out `curve` is kept, `steps` its budget.
    pub fn kept(id: RunId, curve: Vec<HeldOut>, steps: u64) -> Self {
        RunView {
            step: steps,
            heldout: curve,
            finished: true,
            ..RunView::new(id)
        }
    }

    /// A run going on from its checkpoint `c`: its step and held-out curve from the checkpoint,
    /// its training-batch curves from `curves` (the page's, kept with it) up to that step.
    pub fn resumed(c: &RunCheckpoint, curves: Option<&KeptCurves>) -> Self {
        let step = c.trainer.step;
        RunView {
            id: c.run,
            step,
            heldout: c.curve.clone(),
            loss: curves.map_or_else(Vec::new, |k| curve_until(&k.loss, step)),
            acc: curves.map_or_else(Vec::new, |k| curve_until(&k.acc, step)),
            finished: false,
            backend: None,
            cpu_from: None,
            weights: None,
        }
    }

    /// The run has stepped or been evaluated.
    pub fn started(&self) -> bool {
        self.step > 0 || !self.heldout.is_empty()
    }

    /// Takes one tick of this run: its step's figures, its held-out evaluation, whether it
    /// finished.
    pub fn apply(&mut self, tick: &Tick) {
        for s in &tick.steps {
            if self.backend == Some(Backend::Gpu) && s.backend == Backend::Cpu {
                self.cpu_from.get_or_insert(s.step.saturating_sub(1));
            }
            self.backend.get_or_insert(s.backend);
            self.step = s.step;
            self.loss.push((s.step, s.loss));
            self.acc.push((s.step, s.acc));
        }
        if let Some(h) = tick.heldout {
            self.heldout.push(h);
        }
        self.finished |= tick.finished.is_some();
    }

    /// Its weights, when they are those of its last step (the finished run's final weights).
    pub fn final_weights(&self) -> Option<&RunWeights> {
        self.weights.as_ref().filter(|w| w.0.step == self.step)
    }
}

/// The cells, the seeds and the steps of each run of a sweep of `config`: its plan's (a
/// long-memory task has defaults of its own, and so has names generation, whose plan needs
/// its data), the keys as given when it has none.
pub(crate) fn shape(config: &DelayConfig) -> (Vec<CellKind>, Vec<u32>, u64) {
    match SweepPlan::of_lab(config) {
        Ok(p) => (p.cells, p.seeds, p.steps),
        Err(_) if config.task == LabTask::Generate => {
            let (cells, seeds, _, steps) = generate_recipe(config);
            (cells, seeds, steps)
        }
        Err(_) => (
            config.cell.cells().to_vec(),
            config.run_seeds(),
            config.steps,
        ),
    }
}

/// The runs of a sweep of `config`, in the order the engine trains them (seed by seed, the
/// plan's cells for each seed).
pub fn plan(config: &DelayConfig) -> Vec<RunView> {
    let (cells, seeds, _) = shape(config);
    seeds
        .into_iter()
        .flat_map(|seed| {
            cells
                .iter()
                .map(move |&cell| RunView::new(RunId { cell, seed }))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// The settings of `config`'s task (its vocabulary, length and delay), as its results carry
/// them.
fn task_of(config: &DelayConfig) -> Option<String> {
    SweepPlan::of_lab(config).ok().map(|p| p.task.settings())
}

/// The runs of a sweep of `config` after a reload: the plan, with the runs kept in `finished`
/// shown as [`RunView::restored`] (a kept run outside the plan is left out).
pub fn plan_with(config: &DelayConfig, finished: &[RunResult]) -> Vec<RunView> {
    let task = task_of(config);
    let (_, _, steps) = shape(config);
    plan(config)
        .into_iter()
        .map(|v| {
            finished
                .iter()
                .find(|r| r.run == v.id && Some(&r.task) == task.as_ref() && r.steps == steps)
                .map_or(v, RunView::restored)
        })
        .collect()
}

/// A run's training-batch curves as kept with a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KeptCurves {
    /// Cell and seed.
    pub run: RunId,
    /// `(step, training-batch loss)` up to the checkpoint's step.
    pub loss: Vec<(u64, f64)>,
    /// `(step, training-batch token accuracy)` up to the checkpoint's step.
    pub acc: Vec<(u64, f64)>,
}

/// The training seed's checkpoint as a task part keeps it (IndexedDB, postcard bytes beside its
/// kept sweeps): the sweep it belongs to, the seconds trained, the engine's checkpoint and what
/// the part keeps of the page's training-batch curves of its runs up to it (`C`: delay-copy's
/// [`KeptCurves`], one per run of the checkpoint; `()` for a part that keeps none, which adds
/// nothing to the bytes).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResumePoint<C = Vec<KeptCurves>> {
    /// Canonical query (without `lang`) of the whole sweep's configuration.
    pub query: String,
    /// Seconds of training when it was made.
    pub elapsed: f64,
    /// The engine's checkpoint.
    pub checkpoint: SweepCheckpoint,
    /// The page's training-batch curves kept with it.
    pub curves: C,
}

/// What a part keeps of the page's training-batch curves with a checkpoint.
pub trait PointCurves:
    Clone + std::fmt::Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// The curves of the runs of `checkpoint` in `runs`, cut at each run's step.
    fn cut(checkpoint: &SweepCheckpoint, runs: &[RunView]) -> Self;
    /// The kept curves of `run`.
    fn of_run(&self, run: RunId) -> Option<&KeptCurves>;
}

impl PointCurves for Vec<KeptCurves> {
    fn cut(checkpoint: &SweepCheckpoint, runs: &[RunView]) -> Self {
        checkpoint
            .runs
            .iter()
            .map(|c| {
                let view = runs.iter().find(|v| v.id == c.run);
                let cut = |pick: fn(&RunView) -> &Vec<(u64, f64)>| {
                    view.map_or_else(Vec::new, |v| curve_until(pick(v), c.trainer.step))
                };
                KeptCurves {
                    run: c.run,
                    loss: cut(|v| &v.loss),
                    acc: cut(|v| &v.acc),
                }
            })
            .collect()
    }

    fn of_run(&self, run: RunId) -> Option<&KeptCurves> {
        self.iter().find(|k| k.run == run)
    }
}

/// No curves: the runs go on from the checkpoint with the held-out curve alone.
impl PointCurves for () {
    fn cut(_: &SweepCheckpoint, _: &[RunView]) -> Self {}

    fn of_run(&self, _: RunId) -> Option<&KeptCurves> {
        None
    }
}

impl<C: PointCurves> ResumePoint<C> {
    /// The point of the sweep `query` at `checkpoint`, after `elapsed` seconds of training,
    /// with what the part keeps of the curves of its runs in `runs`.
    pub fn new(query: String, elapsed: f64, checkpoint: SweepCheckpoint, runs: &[RunView]) -> Self {
        let curves = C::cut(&checkpoint, runs);
        ResumePoint {
            query,
            elapsed,
            checkpoint,
            curves,
        }
    }

    /// Whether going on with the sweep with canonical query `query`, whose runs left are
    /// `rest` ([`remaining_of`]), starts from this point: the same sweep, and the checkpoint
    /// fits the rest (its settings, its first seed, its cells).
    pub fn fits(&self, query: &str, rest: &DelayConfig) -> bool {
        self.fits_on(query, rest, None)
    }

    /// [`ResumePoint::fits`] for a task that reads the names `data` (names generation).
    pub fn fits_on(
        &self,
        query: &str,
        rest: &DelayConfig,
        data: Option<Arc<NamesDataset>>,
    ) -> bool {
        self.query == query
            && SweepPlan::of_lab_on(rest, data)
                .is_ok_and(|plan| self.checkpoint.fits(&plan).is_ok())
    }

    /// The checkpoint as the page names it in the sweep of `config`: its seed's number there
    /// (from 1), the sweep's seeds, its step; None when its seed is not one of the sweep's.
    pub fn saved(&self, config: &DelayConfig) -> Option<SavedPoint> {
        let seed = self.checkpoint.seed()?;
        let (_, seeds, _) = shape(config);
        let k = seeds.iter().position(|&s| s == seed)?;
        Some(SavedPoint {
            seed: k + 1,
            seeds: seeds.len(),
            step: self.checkpoint.step(),
        })
    }

    /// The steps its runs had trained.
    pub fn steps(&self) -> u64 {
        self.checkpoint.runs.iter().map(|r| r.trainer.step).sum()
    }

    /// `views` with the runs of the checkpoint that are not finished shown as
    /// [`RunView::resumed`].
    pub fn resume(&self, views: &mut [RunView]) {
        for c in &self.checkpoint.runs {
            if let Some(v) = views.iter_mut().find(|v| v.id == c.run && !v.finished) {
                *v = RunView::resumed(c, self.curves.of_run(c.run));
            }
        }
    }
}

/// The runs of a sweep of `config` after a reload with a checkpoint: [`plan_with`], the runs
/// of the checkpoint shown as [`RunView::resumed`].
pub fn plan_resumed(
    config: &DelayConfig,
    finished: &[RunResult],
    point: &ResumePoint,
) -> Vec<RunView> {
    let mut views = plan_with(config, finished);
    point.resume(&mut views);
    views
}

/// What becomes of a part's kept sweeps when the sweep shown starts, ends or is reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// It starts training (or goes on after a reload).
    Training,
    /// Every run trained its budget.
    Finished,
    /// The engine reported a failure.
    Failed,
    /// The learner reset it.
    Reset,
}

/// A kept sweep as the page shows it again (after a reload, or when the form names it).
#[derive(Clone, Debug, PartialEq)]
pub struct KeptShown {
    /// Its runs: finished ones with their held-out curves, the others not started.
    pub views: Vec<RunView>,
    /// The finished runs' results the part keeps (none where it keeps curves only).
    pub results: Vec<RunResult>,
    /// Seconds of training kept with it.
    pub elapsed: f64,
    /// It was training or paused when last written: the page offers to go on with it.
    pub unfinished: bool,
}

/// What a task part keeps of its sweeps across reloads (JSON text in the part's record; its
/// format is the part's).
pub trait KeptSweeps:
    Default + Clone + Serialize + DeserializeOwned + Send + Sync + 'static
{
    /// Adds what `loaded` (the stored record) holds and this does not: this one's entries,
    /// recorded since the page opened, win.
    fn merge_from(&mut self, loaded: Self);
    /// The kept sweep of `config` (canonical query `query`), None when none is kept.
    fn shown(&self, config: &DelayConfig, query: &str) -> Option<KeptShown>;
    /// Records `tick`, already applied to `runs`, of the sweep of `config` (`query`) after
    /// `elapsed` seconds of training; true when the record changed.
    fn record(
        &mut self,
        config: &DelayConfig,
        query: &str,
        tick: &Tick,
        runs: &[RunView],
        elapsed: f64,
    ) -> bool;
    /// Notes `mark` of the sweep `query` whose runs are `runs`; true when the record changed
    /// (after [`Mark::Reset`]: the sweep was the one kept in progress, so its checkpoint
    /// goes too).
    fn mark(&mut self, query: &str, mark: Mark, runs: &[RunView], elapsed: f64) -> bool;
}

/// What is left of a sweep of `config` when the runs in `finished` are done: the same
/// configuration from the first seed with an unfinished run on (the sweep trains seed by seed,
/// so the later seeds are unfinished too). `None` when every run is finished. A sweep of the
/// result trains the same runs, step for step, as the rest of the whole sweep would.
pub fn remaining(config: &DelayConfig, finished: &[RunResult]) -> Option<DelayConfig> {
    remaining_of(config, &plan_with(config, finished))
}

/// What is left of a sweep of `config` whose runs are shown as `views` (see [`remaining`]).
pub fn remaining_of(config: &DelayConfig, views: &[RunView]) -> Option<DelayConfig> {
    let (_, seeds, _) = shape(config);
    let first = seeds
        .iter()
        .position(|&s| views.iter().any(|v| v.id.seed == s && !v.finished))?;
    Some(DelayConfig {
        seed: seeds[first],
        seeds: seeds.len() - first,
        ..config.clone()
    })
}

/// The progress of the whole sweep of `config` when the rest of it (`rest`, see [`remaining`])
/// reports `p`: the runs before `rest` count as done.
pub fn whole_progress(config: &DelayConfig, rest: &DelayConfig, p: Progress) -> Progress {
    let (cells, seeds, steps) = shape(config);
    let cells = cells.len();
    let runs_total = cells * seeds.len().max(1);
    let runs_before = runs_total.saturating_sub(cells * shape(rest).1.len().max(1));
    Progress {
        steps_done: p.steps_done + runs_before as u64 * steps,
        steps_total: runs_total as u64 * steps,
        runs_finished: p.runs_finished + runs_before,
        runs_total,
    }
}

/// Seconds left of the sweep whose runs are `runs`, `steps` each, after `elapsed` seconds of
/// training: the pace so far extrapolated over the work left, a run's step weighing its
/// cell's gate blocks ([`CellKind::gates`], the matrix products of a step: an LSTM step does
/// about four RNN steps' worth). Counting work rather than steps keeps the estimate when runs
/// of different cells train side by side in parallel workers, the longest first, as when they
/// take turns. `None` before the first step.
pub fn seconds_left(runs: &[RunView], steps: u64, elapsed: f64) -> Option<f64> {
    let (mut done, mut total) = (0, 0);
    for r in runs {
        let w = r.id.cell.gates() as u64;
        done += w * if r.finished { steps } else { r.step.min(steps) };
        total += w * steps;
    }
    (done > 0 && elapsed > 0.0 && elapsed.is_finite())
        .then(|| elapsed / done as f64 * (total - done) as f64)
}

/// Applies `tick` to its run in `runs` (a tick of a run not planned is ignored).
pub fn apply_tick(runs: &mut [RunView], tick: &Tick) {
    if let Some(r) = runs.iter_mut().find(|r| r.id == tick.run) {
        r.apply(tick);
    }
}

/// Mean of the last [`SMOOTH`] values (None when there are none).
pub fn mean_last(points: &[(u64, f64)]) -> Option<f64> {
    let tail = &points[points.len().saturating_sub(SMOOTH)..];
    (!tail.is_empty()).then(|| tail.iter().map(|p| p.1).sum::<f64>() / tail.len() as f64)
}

/// The example sequence's predictions of the current weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Predictions {
    /// `(cell, [T − d] arg-max predictions)`.
    pub cells: Vec<(CellKind, Vec<u32>)>,
}

impl Predictions {
    /// The predictions of the runs the engine reported.
    pub fn of_runs(runs: Vec<(RunId, Vec<u32>)>) -> Self {
        Predictions {
            cells: runs.into_iter().map(|(id, p)| (id.cell, p)).collect(),
        }
    }
}

/// The held-out chart's data: one line per run with a held-out curve (accuracy when `acc`,
/// else loss, against the step), and per cell of those lines the band over its seeds.
pub fn heldout_lines(runs: &[RunView], acc: bool) -> (Vec<Line>, Vec<(CellKind, Band)>) {
    let pick = |h: &HeldOut| (h.step, if acc { h.acc } else { h.loss });
    let lines: Vec<Line> = runs
        .iter()
        .filter(|r| !r.heldout.is_empty())
        .map(|r| Line {
            cell: r.id.cell,
            points: r.heldout.iter().map(pick).collect(),
        })
        .collect();
    let mut cells: Vec<CellKind> = lines.iter().map(|l| l.cell).collect();
    cells.dedup();
    let bands = cells
        .into_iter()
        .map(|cell| {
            let seeds: Vec<&[(u64, f64)]> = lines
                .iter()
                .filter(|l| l.cell == cell)
                .map(|l| l.points.as_slice())
                .collect();
            (cell, band(&seeds))
        })
        .collect();
    (lines, bands)
}

/// The training-batch chart's data: each run's batch loss, smoothed over [`SMOOTH`] steps.
pub fn batch_lines(runs: &[RunView]) -> Vec<Line> {
    runs.iter()
        .filter(|r| !r.loss.is_empty())
        .map(|r| Line {
            cell: r.id.cell,
            points: smoothed(&r.loss),
        })
        .collect()
}

/// The mean over `cell`'s runs with a held-out curve of their latest held-out accuracy (when
/// `acc`) or loss; None before the first evaluation.
pub fn heldout_mean(runs: &[RunView], cell: CellKind, acc: bool) -> Option<f64> {
    let latest: Vec<f64> = runs
        .iter()
        .filter(|r| r.id.cell == cell)
        .filter_map(|r| r.heldout.last().map(|h| if acc { h.acc } else { h.loss }))
        .collect();
    (!latest.is_empty()).then(|| latest.iter().sum::<f64>() / latest.len() as f64)
}

/// A small delay-copy sweep that trains in a moment: RNN and LSTM, delay 2 of 8 over 4
/// tokens, 4 units, batches of 4, 20 steps, seeds 3 and 4.
#[cfg(test)]
pub(crate) fn small_delay() -> DelayConfig {
    DelayConfig {
        cell: unroll_core::config::delay::CellSet::Both,
        delay: 2,
        length: 8,
        vocab: 4,
        hidden_size: 4,
        batch_size: 4,
        steps: 20,
        seed: 3,
        seeds: 2,
        ..DelayConfig::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::config::delay::CellSet;
    use unroll_core::train::sweep::ParamCount;
    use unroll_core::train::trainer::StepRecord;

    fn id(cell: CellKind, seed: u32) -> RunId {
        RunId { cell, seed }
    }

    fn held(cell: CellKind, seed: u32, step: u64, acc: f64, loss: f64) -> HeldOut {
        HeldOut {
            cell,
            seed,
            step,
            acc,
            loss,
            solved: acc >= 0.95,
            train_loss: None,
            train_acc: None,
        }
    }

    fn tick(run: RunId, steps: Vec<StepRecord>, heldout: Option<HeldOut>) -> Tick {
        Tick {
            steps,
            heldout,
            ..Tick::new(run)
        }
    }

    fn step_tick(run: RunId, step: u64, loss: f64, acc: f64) -> Tick {
        let record = StepRecord {
            step,
            loss,
            acc,
            grad_norm: 1.0,
            skipped: false,
            sequences: 32,
            backend: Backend::Cpu,
        };
        tick(run, vec![record], None)
    }

    #[test]
    fn the_plan_is_seed_by_seed_over_the_cells() {
        let config = DelayConfig {
            cell: CellSet::Both,
            seed: 5,
            seeds: 2,
            ..DelayConfig::default()
        };
        let ids: Vec<RunId> = plan(&config).iter().map(|r| r.id).collect();
        let (rnn, lstm) = (CellKind::Rnn, CellKind::Lstm);
        assert_eq!(ids, [id(rnn, 5), id(lstm, 5), id(rnn, 6), id(lstm, 6)]);
        assert!(plan(&config).iter().all(|r| !r.started() && !r.finished));
    }

    #[test]
    fn ticks_build_each_runs_curves() {
        let (a, b) = (id(CellKind::Rnn, 0), id(CellKind::Lstm, 0));
        let mut runs = vec![RunView::new(a), RunView::new(b)];
        apply_tick(
            &mut runs,
            &tick(b, Vec::new(), Some(held(CellKind::Lstm, 0, 0, 0.1, 2.3))),
        );
        apply_tick(&mut runs, &step_tick(b, 1, 2.0, 0.2));
        apply_tick(&mut runs, &step_tick(b, 2, 1.0, 0.4));
        // A tick of a run outside the plan changes nothing.
        apply_tick(&mut runs, &step_tick(id(CellKind::Gru, 9), 1, 9.0, 0.0));
        assert_eq!(runs[0], RunView::new(a));
        let r = &runs[1];
        assert!(r.started() && !r.finished);
        assert_eq!(r.step, 2);
        assert_eq!(r.loss, [(1, 2.0), (2, 1.0)]);
        assert_eq!(r.acc, [(1, 0.2), (2, 0.4)]);
        assert_eq!(mean_last(&r.loss), Some(1.5));
        assert_eq!(mean_last(&runs[0].loss), None);
        let result = RunResult {
            run: b,
            task: "delay:vocab=10:length=96:delay=8".into(),
            steps: 2,
            skipped_steps: 0,
            params: ParamCount {
                cell: CellKind::Lstm,
                total: 10,
                recurrent: 8,
            },
            curve: vec![held(CellKind::Lstm, 0, 2, 0.5, 1.1)],
            backend: Some(Backend::Gpu),
            cpu_from: None,
        };
        apply_tick(
            &mut runs,
            &Tick {
                finished: Some(result.clone()),
                ..tick(b, Vec::new(), Some(held(CellKind::Lstm, 0, 2, 0.5, 1.1)))
            },
        );
        assert!(runs[1].finished);
        assert_eq!(runs[1].heldout.len(), 2);
        let kept = RunView::restored(&result);
        assert_eq!((kept.step, kept.finished, kept.heldout.len()), (2, true, 1));
    }

    #[test]
    fn mean_last_averages_the_last_smooth_steps() {
        let points: Vec<(u64, f64)> = (1..=SMOOTH as u64 + 5).map(|s| (s, s as f64)).collect();
        // The last SMOOTH values are 6 ..= SMOOTH + 5.
        let want = (6..=SMOOTH + 5).sum::<usize>() as f64 / SMOOTH as f64;
        assert_eq!(mean_last(&points), Some(want));
    }

    #[test]
    fn heldout_lines_and_means_over_seeds() {
        let (rnn, lstm) = (CellKind::Rnn, CellKind::Lstm);
        let mut runs = vec![
            RunView::new(id(rnn, 0)),
            RunView::new(id(lstm, 0)),
            RunView::new(id(rnn, 1)),
        ];
        runs[0].heldout = vec![held(rnn, 0, 0, 0.1, 3.0), held(rnn, 0, 10, 0.3, 2.0)];
        runs[1].heldout = vec![held(lstm, 0, 0, 0.1, 3.0), held(lstm, 0, 10, 0.9, 0.5)];
        runs[2].heldout = vec![held(rnn, 1, 0, 0.2, 2.8), held(rnn, 1, 10, 0.5, 1.6)];
        let (lines, bands) = heldout_lines(&runs, true);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].points, [(0, 0.1), (10, 0.3)]);
        let rnn_band = &bands.iter().find(|b| b.0 == rnn).unwrap().1;
        assert_eq!(rnn_band, &vec![(0, 0.1, 0.2), (10, 0.3, 0.5)]);
        let (loss_lines, _) = heldout_lines(&runs, false);
        assert_eq!(loss_lines[2].points, [(0, 2.8), (10, 1.6)]);
        assert_eq!(heldout_mean(&runs, rnn, true), Some((0.3 + 0.5) / 2.0));
        assert_eq!(heldout_mean(&runs, lstm, false), Some(0.5));
        assert_eq!(heldout_mean(&runs, CellKind::Gru, true), None);
        assert!(batch_lines(&runs).is_empty());
        runs[1].loss = vec![(1, 2.0), (2, 1.0)];
        let batch = batch_lines(&runs);
        assert_eq!(batch.len(), 1);
        assert_eq!(batch[0].points, [(1, 2.0), (2, 1.5)]);
    }

    fn finished(cell: CellKind, seed: u32, config: &DelayConfig) -> RunResult {
        RunResult {
            run: id(cell, seed),
            task: task_of(config).unwrap(),
            steps: config.steps,
            skipped_steps: 0,
            params: ParamCount {
                cell,
                total: 10,
                recurrent: 8,
            },
            curve: vec![held(cell, seed, config.steps, 0.5, 1.0)],
            backend: None,
            cpu_from: None,
        }
    }

    // long: one reload scenario, checked step by step in the order a person would see it
    #[test]
    fn a_reloaded_sweep_goes_on_from_its_first_unfinished_seed() {
        let config = DelayConfig {
            cell: CellSet::Both,
            seed: 4,
            seeds: 3,
            steps: 200,
            ..DelayConfig::default()
        };
        let (rnn, lstm) = (CellKind::Rnn, CellKind::Lstm);
        // Nothing finished: the whole sweep.
        assert_eq!(remaining(&config, &[]), Some(config.clone()));
        // Seed 4 finished (both cells): seeds 5 and 6 are left.
        let done = vec![finished(rnn, 4, &config), finished(lstm, 4, &config)];
        let rest = remaining(&config, &done).unwrap();
        assert_eq!((rest.seed, rest.seeds), (5, 2));
        assert_eq!(rest.run_seeds(), vec![5, 6]);
        assert_eq!(
            DelayConfig {
                seed: 4,
                seeds: 3,
                ..rest.clone()
            },
            config
        );
        // One cell of seed 4 only: seed 4 trains again.
        let half = remaining(&config, &done[..1]).unwrap();
        assert_eq!((half.seed, half.seeds), (4, 3));
        // A run of another budget or delay does not count.
        let other = DelayConfig {
            steps: 100,
            ..config.clone()
        };
        let stale = vec![finished(rnn, 4, &other), finished(lstm, 4, &other)];
        assert_eq!(remaining(&config, &stale), Some(config.clone()));
        // Every run finished: nothing left.
        let all: Vec<RunResult> = config
            .run_seeds()
            .into_iter()
            .flat_map(|s| [finished(rnn, s, &config), finished(lstm, s, &config)])
            .collect();
        assert_eq!(remaining(&config, &all), None);
        // The views: the finished seed restored, the others planned.
        let views = plan_with(&config, &done);
        assert_eq!(views.len(), 6);
        assert_eq!(
            views.iter().map(|v| v.finished).collect::<Vec<_>>(),
            [true, true, false, false, false, false]
        );
        assert_eq!(views[0].heldout, done[0].curve);
        // The rest's progress counts the finished runs as done.
        let p = whole_progress(
            &config,
            &rest,
            Progress {
                steps_done: 50,
                steps_total: 800,
                runs_finished: 0,
                runs_total: 4,
            },
        );
        assert_eq!(
            p,
            Progress {
                steps_done: 450,
                steps_total: 1200,
                runs_finished: 2,
                runs_total: 6,
            }
        );
        assert_eq!(
            whole_progress(
                &config,
                &config,
                Progress {
                    steps_done: 7,
                    steps_total: 1200,
                    runs_finished: 0,
                    runs_total: 6
                }
            )
            .steps_done,
            7
        );
    }

    #[test]
    fn a_resume_point_keeps_the_training_seed_up_to_its_checkpoint() {
        use unroll_core::train::sweep::Sweep;
        use unroll_core::train::trainer::at_once;
        let config = small_delay();
        let query = unroll_core::config::query::encode(&config, None);
        let mut sweep = Sweep::new(SweepPlan::of_lab(&config).unwrap());
        let mut views = plan(&config);
        // The first seed (2 × 21 ticks), then seed 4's evaluations and 5 steps of each cell.
        let mut first = Vec::new();
        for _ in 0..2 * 21 + 2 + 10 {
            let t = sweep.tick().unwrap();
            apply_tick(&mut views, &t);
            first.extend(t.finished);
        }
        let c = at_once(sweep.checkpoint()).unwrap();
        assert_eq!((c.seed(), c.step()), (Some(4), 5));
        // The page's views may be ahead of the checkpoint (ticks that came after it).
        let ahead = step_tick(id(CellKind::Rnn, 4), 6, 9.0, 0.5);
        apply_tick(&mut views, &ahead);
        let point = ResumePoint::new(query.clone(), 12.5, c.clone(), &views);
        let back: ResumePoint =
            crate::sequence::store::point_of(&crate::sequence::store::point_bytes(&point)).unwrap();
        assert_eq!(back, point);
        assert!(crate::sequence::store::point_of::<ResumePoint>(&[1, 2, 3]).is_err());
        assert_eq!(point.curves.len(), 2);
        assert_eq!(point.curves[0].loss, views[2].loss[..5]);
        assert_eq!(point.curves[1].acc, views[3].acc);
        let saved = SavedPoint {
            seed: 2,
            seeds: 2,
            step: 5,
        };
        assert_eq!(point.saved(&config), Some(saved));
        // It fits the rest of its sweep, not the whole sweep, another sweep or other settings.
        let rest = remaining(&config, &first).unwrap();
        assert_eq!(rest.seed, 4);
        assert!(point.fits(&query, &rest));
        assert!(!point.fits(&query, &config));
        assert!(!point.fits("v=1&lesson=delay", &rest));
        let other = DelayConfig {
            lr: 0.01,
            ..rest.clone()
        };
        assert!(!point.fits(&query, &other));
        // After the reload: seed 3 kept, seed 4 at its checkpoint, curves up to it.
        let shown = plan_resumed(&config, &first, &point);
        assert_eq!(shown.len(), 4);
        assert!(shown[0].finished && shown[1].finished);
        for (v, r) in shown[2..].iter().zip(&c.runs) {
            assert_eq!((v.id, v.step, v.finished), (r.run, 5, false));
            assert_eq!(v.heldout, r.curve);
            assert_eq!(v.loss.len(), 5);
            assert_eq!(v.loss.last().unwrap().0, 5);
        }
        assert_eq!(shown[2].loss, views[2].loss[..5]);
    }
}
