//! The one seed × cell sweep: every (cell, seed) run of a [`SweepPlan`] trained for its budget
//! and evaluated on the task's fixed held-out set, and the checkpoint that resumes it mid-seed.
//!
//! - [`Run`]: one (cell, seed) [`Trainer`] with its budget. Each [`Run::tick`] does one unit
//!   of work — the evaluation before training (step 0, when the task asks for one), or a burst
//!   of optimisation steps (one on the CPU path; on the GPU up to
//!   [`crate::train::trainer::GPU_IN_FLIGHT`], never past the next evaluation) followed by a
//!   held-out evaluation every `eval_every` steps and after the last step — and returns a
//!   [`Tick`].
//! - [`Sweep`]: the runs of a plan, seed-major: for each seed every cell. The cells of one seed
//!   take turns tick by tick (each reads its own copy of the seed's stream, so a run's numbers
//!   depend on its cell, its seed and the settings alone, never on the order the runs are
//!   ticked); the next seed starts when they are finished. A sweep may train a share of the
//!   plan's runs only ([`Sweep::only`]): the engine trains a sweep's runs in parallel workers
//!   that way, each run giving the same numbers, bit for bit, as in the whole sweep.
//! - [`SweepCheckpoint`]: where the runs in training stand (each one's weights, Adam state,
//!   stream position and held-out curve; the runs finished beside them; whose turn it is),
//!   with the settings it belongs to. A sweep of the same settings whose plan holds those runs
//!   ([`Sweep::restore`]) goes on with the same steps and numbers, bit for bit, as the sweep
//!   that was stopped; one of other settings is refused ([`ResumeRefused`]). It is plain data
//!   (`serde`), kept by the page across reloads; a checkpoint kept by an earlier version (the
//!   cells of one seed) reads and resumes as before.
//!
//! Held-out figures are per readout: loss (nats, or squared error) and accuracy (a fraction
//! 0–1). Everything here is deterministic (the clock only times ticks): the caller decides
//! when to tick. The runs of the cells given to [`Sweep::plan_gpu`] train on the GPU, each from
//! its first tick to its last, and a failing device hands them to the CPU path from the step
//! they reached ([`Tick::fell_back`]).

use std::rc::Rc;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::backend::GpuPlan;
use super::clock::now_ms;
use super::split::{Helpers, Split};
use super::trainer::{at_once, Backend, Recipe, StepRecord, Trainer, TrainerState};
use crate::gpu::GpuError;
use crate::math::model::{SeqBatch, SeqModel};
use crate::math::params::CellKind;
use crate::task::Task;

/// What one sweep trains: a task, its cells and seeds, the recipe, the budget and how often
/// the held-out set is evaluated.
#[derive(Clone, Debug)]
pub struct SweepPlan {
    /// The task.
    pub task: Arc<dyn Task>,
    /// The cells, in display order (each seed trains every one).
    pub cells: Vec<CellKind>,
    /// The seeds, in order.
    pub seeds: Vec<u32>,
    /// Hidden size, layers, learning rate, batch, clipping, forget-gate bias.
    pub recipe: Recipe,
    /// Optimisation steps of every run (the budget).
    pub steps: u64,
    /// Steps between two held-out evaluations (at least 1; also after the last step).
    pub eval_every: u64,
}

impl SweepPlan {
    /// Runs of the sweep (cells × seeds).
    pub fn runs(&self) -> usize {
        self.cells.len() * self.seeds.len()
    }

    /// Cell and seed of every run, seed-major (the cells of the first seed, then the next).
    pub fn run_ids(&self) -> Vec<RunId> {
        self.seeds
            .iter()
            .flat_map(|&seed| self.cells.iter().map(move |&cell| RunId { cell, seed }))
            .collect()
    }

    /// Sequences one run trains on: `steps · batch_size`.
    pub fn sequences(&self) -> u64 {
        self.steps * self.recipe.batch_size.max(1) as u64
    }

    /// Everything that decides a run's numbers besides its cell and seed.
    pub fn settings(&self) -> RunSettings {
        RunSettings {
            task: self.task.settings(),
            recipe: self.recipe,
            steps: self.steps,
            eval_every: self.eval_every.max(1),
        }
    }

    /// The model of `cell`'s runs.
    pub fn model(&self, cell: CellKind) -> SeqModel {
        super::trainer::model_of(self.task.as_ref(), cell, &self.recipe)
    }

    /// The plan as the page's files carry it in their names: the task and T, then the cell
    /// when one alone is trained, e.g. `adding-t50`, `copy-t20-gru` (the task's key alone for
    /// a task without a T).
    pub fn file_tag(&self) -> String {
        let mut tag = self.task.key().to_owned();
        if let Some(t) = self.task.length() {
            tag.push_str(&format!("-t{t}"));
        }
        if let [one] = self.cells[..] {
            tag.push('-');
            tag.push_str(one.as_str());
        }
        tag
    }

    /// Parameter count of each cell (display order).
    pub fn param_counts(&self) -> Vec<ParamCount> {
        self.cells
            .iter()
            .map(|&cell| {
                let m = self.model(cell);
                ParamCount {
                    cell,
                    total: m.param_count(),
                    recurrent: m.recurrent_param_count(),
                }
            })
            .collect()
    }
}

impl PartialEq for SweepPlan {
    /// The same task settings, cells, seeds, recipe, budget and evaluation interval.
    fn eq(&self, other: &SweepPlan) -> bool {
        self.settings() == other.settings()
            && self.cells == other.cells
            && self.seeds == other.seeds
    }
}

/// Everything that decides a run's numbers besides its cell and seed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// The task's settings ([`Task::settings`]).
    pub task: String,
    /// Hidden size, layers, learning rate, batch size, clipping, forget-gate bias.
    pub recipe: Recipe,
    /// Steps per run.
    pub steps: u64,
    /// Steps between two held-out evaluations.
    pub eval_every: u64,
}

/// Which run: a cell and the seed of its weights and stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RunId {
    /// The cell.
    pub cell: CellKind,
    /// The seed.
    pub seed: u32,
}

/// One held-out evaluation of one run.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct HeldOut {
    /// The cell.
    pub cell: CellKind,
    /// The run's seed.
    pub seed: u32,
    /// Optimisation steps done before the evaluation (0 = the initial weights).
    pub step: u64,
    /// Accuracy per held-out readout, a fraction 0–1 (0 for a real target).
    pub acc: f64,
    /// Mean loss per held-out readout (nats, or squared error).
    pub loss: f64,
    /// Whether the run meets the task's criterion of "solved" here.
    pub solved: bool,
    /// Mean training-batch loss of the steps since the previous evaluation (`None` at step 0).
    pub train_loss: Option<f64>,
    /// Accuracy over the training sequences of those steps, each counted in its step before
    /// that step's update (the accuracy a training loop counts while it learns), 0–1; `None`
    /// at step 0.
    pub train_acc: Option<f64>,
}

/// A run's parameter count, as PyTorch counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamCount {
    /// The cell.
    pub cell: CellKind,
    /// The recurrent module plus the linear head.
    pub total: usize,
    /// The recurrent module alone.
    pub recurrent: usize,
}

/// A finished run: what it was, what it cost and its held-out curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// Cell and seed.
    pub run: RunId,
    /// The task's settings ([`Task::settings`]).
    pub task: String,
    /// Optimisation steps done (the budget).
    pub steps: u64,
    /// Steps whose update was skipped because the loss or the gradient norm was not finite.
    pub skipped_steps: u64,
    /// Parameters of the model.
    pub params: ParamCount,
    /// Every held-out evaluation, in order, the last after the last step.
    pub curve: Vec<HeldOut>,
    /// The path its first step in this sweep ran on.
    pub backend: Option<Backend>,
    /// The step count from which it went on on the CPU path after the GPU failed (`None`
    /// when it did not).
    pub cpu_from: Option<u64>,
}

impl RunResult {
    /// The last held-out evaluation (after the last step).
    pub fn last(&self) -> Option<&HeldOut> {
        self.curve.last()
    }

    /// Sequences trained on at the first evaluation that met the task's criterion, `None`
    /// when none did (exact to within the evaluation interval).
    pub fn solved_after(&self, batch_size: usize) -> Option<u64> {
        solved_after(&self.curve, batch_size)
    }
}

/// Sequences trained on (`step · batch_size`) at the first point of `curve` that met the
/// task's criterion, `None` when none did.
pub fn solved_after(curve: &[HeldOut], batch_size: usize) -> Option<u64> {
    curve
        .iter()
        .find(|p| p.solved)
        .map(|p| p.step * batch_size as u64)
}

/// What one [`Run::tick`] did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tick {
    /// Cell and seed.
    pub run: RunId,
    /// The optimisation steps, in order (none for the evaluation before training).
    pub steps: Vec<StepRecord>,
    /// The held-out evaluation done in this tick, if any.
    pub heldout: Option<HeldOut>,
    /// Its confusion matrix (`[O, O]` row-major, row = target class) when the task counts one.
    pub confusion: Option<Vec<u32>>,
    /// The run's result, on the tick that finished it.
    pub finished: Option<RunResult>,
    /// The GPU's error when the run left the GPU path in this tick (it goes on on the CPU from
    /// the step it had reached, [`Run::cpu_from`]).
    pub fell_back: Option<GpuError>,
    /// The first non-finite loss of a task that stops there ([`Task::stops_on_bad_loss`]):
    /// the loss and its step; the run stops with the weights from before that step.
    pub bad_loss: Option<(f64, u64)>,
    /// Milliseconds the tick took, its evaluation included.
    pub ms: f64,
    /// Milliseconds of its held-out evaluation.
    pub eval_ms: f64,
}

impl Tick {
    /// A tick of `run` that did nothing yet (no steps, no evaluation, 0 ms).
    pub fn new(run: RunId) -> Tick {
        Tick {
            run,
            steps: Vec::new(),
            heldout: None,
            confusion: None,
            finished: None,
            fell_back: None,
            bad_loss: None,
            ms: 0.0,
            eval_ms: 0.0,
        }
    }
}

/// Where one run stands: its trainer's state, held-out curve and skipped steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunCheckpoint {
    /// Cell and seed.
    pub run: RunId,
    /// Steps, weights, Adam state, stream position.
    pub trainer: TrainerState,
    /// The held-out evaluations so far.
    pub curve: Vec<HeldOut>,
    /// Steps skipped so far (non-finite loss or gradient).
    pub skipped: u64,
    /// The training steps since the last evaluation.
    pub window: Window,
}

/// The training steps since a run's last held-out evaluation, summed for the next one's
/// `train_loss` and `train_acc`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Window {
    /// Sum of the steps' mean losses.
    pub loss: f64,
    /// Steps summed.
    pub steps: u64,
    /// Sum of the steps' accuracies, each times its batch's sequences (for the names: the
    /// names classified correctly before their step's update).
    pub correct: f64,
    /// Sequences of the steps summed.
    pub sequences: u64,
}

impl Window {
    /// Adds one step.
    fn add(&mut self, s: &StepRecord) {
        self.loss += s.loss;
        self.steps += 1;
        self.correct += s.acc * f64::from(s.sequences);
        self.sequences += u64::from(s.sequences);
    }

    /// Mean step loss (`None` without a step).
    pub fn mean_loss(&self) -> Option<f64> {
        (self.steps > 0).then(|| self.loss / self.steps as f64)
    }

    /// Accuracy over the steps' sequences, 0–1 (`None` without a step).
    pub fn accuracy(&self) -> Option<f64> {
        (self.sequences > 0).then(|| self.correct / self.sequences as f64)
    }
}

/// Where the runs in training of a [`Sweep`] stand ([`Sweep::checkpoint`]): enough for a sweep
/// of the same settings whose plan holds those runs to go on exactly where it stopped
/// ([`Sweep::restore`]). One worker's sweep holds the cells of the seed in training; a sweep in
/// parallel workers holds every started run of the seeds not yet finished, in the plan's order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepCheckpoint {
    /// The settings of the sweep.
    pub settings: RunSettings,
    /// One per run in training (and per run finished beside them), in the plan's order.
    pub runs: Vec<RunCheckpoint>,
    /// Index in `runs` of the run whose turn is next (one worker's sweep; 0 otherwise).
    pub turn: usize,
    /// Shares per batch of its runs' CPU steps ([`super::split`]; 1: unsplit). Resume goes
    /// on with as many, so the steps that follow are those of the run that made it.
    #[serde(default = "one_share")]
    pub shares: usize,
}

fn one_share() -> usize {
    1
}

impl SweepCheckpoint {
    /// The first seed being trained.
    pub fn seed(&self) -> Option<u32> {
        self.runs.first().map(|r| r.run.seed)
    }

    /// Steps done by every run of the first seed (the smallest count; the cells take turns,
    /// so the others are at most one tick further).
    pub fn step(&self) -> u64 {
        let seed = self.seed();
        self.runs
            .iter()
            .filter(|r| Some(r.run.seed) == seed)
            .map(|r| r.trainer.step)
            .min()
            .unwrap_or(0)
    }

    /// Bytes of its vectors (what keeping it costs).
    pub fn size_bytes(&self) -> usize {
        self.runs.iter().map(|r| r.trainer.size_bytes()).sum()
    }

    /// Whether a sweep of `plan` can go on from this checkpoint: the same settings, and the
    /// checkpoint's runs runs of the plan in its order, the first of them of the plan's first
    /// seed. Runs of seeds before the plan's first (finished before the checkpoint's sweep was
    /// cut to what was left of it) are passed over.
    ///
    /// # Errors
    /// What differs.
    pub fn fits(&self, plan: &SweepPlan) -> Result<(), ResumeRefused> {
        self.fits_among(plan, &plan.run_ids())
    }

    /// [`SweepCheckpoint::fits`] for a sweep that trains `all` of `plan`'s runs (a share,
    /// [`Sweep::only`]: in the plan's order), the first of them standing for the plan's first
    /// seed: a share of one run of a later seed goes on from that run's checkpoint.
    fn fits_among(&self, plan: &SweepPlan, all: &[RunId]) -> Result<(), ResumeRefused> {
        let settings = plan.settings();
        if self.settings != settings {
            return Err(ResumeRefused::Settings);
        }
        let saved: Vec<RunId> = self.runs.iter().map(|r| r.run).collect();
        let first_seed = all.first().map_or(0, |r| r.seed);
        let earlier = |id: &RunId| id.seed < first_seed && plan.cells.contains(&id.cell);
        let places: Vec<Option<usize>> = saved
            .iter()
            .filter(|id| !earlier(id))
            .map(|id| all.iter().position(|r| r == id))
            .collect();
        let in_order = places.windows(2).all(|w| w[0] < w[1]);
        let starts = self.runs.iter().map(|r| r.run).find(|id| !earlier(id));
        if places.iter().any(Option::is_none)
            || !in_order
            || starts.map(|id| id.seed) != Some(first_seed)
            || self.turn >= saved.len()
        {
            let planned = all.iter().copied().take(plan.cells.len()).collect();
            return Err(ResumeRefused::Runs { saved, planned });
        }
        if let Some(r) = self.runs.iter().find(|r| {
            r.trainer.step > settings.steps || r.curve.iter().any(|h| h.step > r.trainer.step)
        }) {
            return Err(ResumeRefused::Steps {
                run: r.run,
                step: r.trainer.step,
                budget: settings.steps,
            });
        }
        Ok(())
    }
}

/// Why a sweep does not go on from a checkpoint.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ResumeRefused {
    /// The checkpoint is of other settings (task, recipe, budget or evaluation interval).
    Settings,
    /// The checkpoint's runs are not runs of the sweep from its first seed on.
    Runs {
        /// The checkpoint's runs.
        saved: Vec<RunId>,
        /// The sweep's first seed's runs.
        planned: Vec<RunId>,
    },
    /// A run of the checkpoint is past the budget, or its curve past its step.
    Steps {
        /// The run.
        run: RunId,
        /// Its step in the checkpoint.
        step: u64,
        /// The sweep's budget.
        budget: u64,
    },
    /// The sweep has trained already (a checkpoint is restored before the first tick).
    Started,
    /// A run's saved vectors do not fit its model.
    Shape {
        /// The run.
        run: RunId,
        /// A saved vector's length.
        saved: usize,
        /// The model's parameter count.
        expected: usize,
    },
}

impl std::fmt::Display for ResumeRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ResumeRefused::Settings => {
                write!(f, "the checkpoint was saved by a sweep with other settings")
            }
            ResumeRefused::Runs { saved, planned } => write!(
                f,
                "the checkpoint holds the runs {saved:?}, the sweep starts with {planned:?} and holds no such runs in that order"
            ),
            ResumeRefused::Steps { run, step, budget } => write!(
                f,
                "the checkpoint's {run:?} is at step {step}, past its curve or the budget of {budget}"
            ),
            ResumeRefused::Started => write!(f, "the sweep has started already"),
            ResumeRefused::Shape {
                run,
                saved,
                expected,
            } => write!(
                f,
                "the checkpoint's {run:?} has {saved} values where the model has {expected} parameters"
            ),
        }
    }
}

/// One (cell, seed) run: a [`Trainer`], its budget and its held-out curve.
pub struct Run {
    trainer: Trainer,
    /// The task's settings.
    task: String,
    budget: u64,
    eval_every: u64,
    eval_at_start: bool,
    confusion: bool,
    stops_on_bad_loss: bool,
    curve: Vec<HeldOut>,
    skipped: u64,
    window: Window,
    /// The first non-finite loss, when the task stops there.
    stopped: Option<(f64, u64)>,
    /// The path of the first step, once taken.
    backend: Option<Backend>,
    /// The step count when the GPU path was left.
    cpu_from: Option<u64>,
}

impl Run {
    /// The run of `cell` and `seed` of `plan`.
    pub fn new(plan: &SweepPlan, cell: CellKind, seed: u32) -> Run {
        let task = plan.task.as_ref();
        Run {
            trainer: Trainer::new(task, cell, &plan.recipe, seed),
            task: task.settings(),
            budget: plan.steps,
            eval_every: plan.eval_every.max(1),
            eval_at_start: task.eval_at_start(),
            confusion: task.confusion(),
            stops_on_bad_loss: task.stops_on_bad_loss(),
            curve: Vec::new(),
            skipped: 0,
            window: Window::default(),
            stopped: None,
            backend: None,
            cpu_from: None,
        }
    }

    /// Cell and seed.
    pub fn id(&self) -> RunId {
        RunId {
            cell: self.trainer.cell(),
            seed: self.trainer.seed(),
        }
    }

    /// The trainer (model, weights, steps done).
    pub fn trainer(&self) -> &Trainer {
        &self.trainer
    }

    /// Steps done.
    pub fn steps_done(&self) -> u64 {
        self.trainer.steps_done()
    }

    /// The budget.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The held-out evaluations so far.
    pub fn curve(&self) -> &[HeldOut] {
        &self.curve
    }

    /// The step from which the run went on on the CPU after the GPU failed.
    pub fn cpu_from(&self) -> Option<u64> {
        self.cpu_from
    }

    /// Parameters of the model.
    pub fn param_count(&self) -> ParamCount {
        let m = self.trainer.model();
        ParamCount {
            cell: self.trainer.cell(),
            total: m.param_count(),
            recurrent: m.recurrent_param_count(),
        }
    }

    /// True once the budget is done and the last evaluation made, or the run stopped at a
    /// non-finite loss.
    pub fn is_finished(&self) -> bool {
        self.stopped.is_some()
            || (self.trainer.steps_done() >= self.budget
                && self
                    .curve
                    .last()
                    .map_or(self.budget == 0, |h| h.step == self.budget))
    }

    /// Whether it has trained or been evaluated.
    fn started(&self) -> bool {
        !self.curve.is_empty() || self.trainer.steps_done() > 0
    }

    /// The step of the next held-out evaluation.
    fn next_eval(&self) -> u64 {
        let done = self.trainer.steps_done();
        ((done / self.eval_every + 1) * self.eval_every).min(self.budget)
    }

    async fn evaluate(
        &mut self,
        task: &dyn Task,
        heldout: &[SeqBatch],
    ) -> (HeldOut, Option<Vec<u32>>) {
        let e = self.trainer.evaluate(heldout, self.confusion).await;
        let window = std::mem::take(&mut self.window);
        let h = HeldOut {
            cell: self.trainer.cell(),
            seed: self.trainer.seed(),
            step: self.trainer.steps_done(),
            acc: e.sums.accuracy(),
            loss: e.sums.mean_loss(),
            solved: task.solved(&e.sums),
            train_loss: window.mean_loss(),
            train_acc: window.accuracy(),
        };
        self.curve.push(h);
        (h, e.confusion)
    }

    /// One unit of work (see the module docs); `None` once the run is finished. `heldout`
    /// must be the held-out set of this run's task.
    pub async fn tick(&mut self, task: &dyn Task, heldout: &[SeqBatch]) -> Option<Tick> {
        if self.is_finished() {
            return None;
        }
        let started = now_ms();
        let id = self.id();
        let mut tick = Tick::new(id);
        let fresh = self.curve.is_empty() && self.trainer.steps_done() == 0;
        if fresh && self.eval_at_start && self.budget > 0 {
            let (h, c) = self.evaluate(task, heldout).await;
            tick.heldout = Some(h);
            tick.confusion = c;
            tick.eval_ms = now_ms() - started;
        } else if self.trainer.steps_done() < self.budget {
            let burst = match self.trainer.backend() {
                Backend::Cpu => 1,
                Backend::Gpu => super::trainer::GPU_IN_FLIGHT,
            };
            let burst = burst.min((self.next_eval() - self.trainer.steps_done()) as usize);
            let mut steps = self.trainer.steps(burst.max(1)).await;
            if self.stops_on_bad_loss {
                if let Some(i) = steps.iter().position(|s| !s.loss.is_finite()) {
                    // The run ends here; the steps from this one on are not reported.
                    self.stopped = Some((steps[i].loss, steps[i].step));
                    tick.bad_loss = self.stopped;
                    steps.truncate(i);
                }
            }
            for s in &steps {
                self.backend.get_or_insert(s.backend);
                if s.skipped {
                    self.skipped += 1;
                }
                self.window.add(s);
            }
            tick.steps = steps;
            let n = self.trainer.steps_done();
            if self.stopped.is_none() && (n.is_multiple_of(self.eval_every) || n >= self.budget) {
                let t0 = now_ms();
                let (h, c) = self.evaluate(task, heldout).await;
                tick.heldout = Some(h);
                tick.confusion = c;
                tick.eval_ms = now_ms() - t0;
            }
        } else {
            // The budget is done but its last evaluation is missing (a checkpoint taken
            // between the two): make it.
            let (h, c) = self.evaluate(task, heldout).await;
            tick.heldout = Some(h);
            tick.confusion = c;
        }
        tick.fell_back = self.take_fallback();
        tick.finished = self.is_finished().then(|| self.result());
        tick.ms = now_ms() - started;
        Some(tick)
    }

    /// The trainer's fallback from the GPU, recorded in the result.
    fn take_fallback(&mut self) -> Option<GpuError> {
        let (error, step) = self.trainer.take_fallback()?;
        self.cpu_from.get_or_insert(step);
        Some(error)
    }

    /// The run so far as a [`RunResult`] (complete once [`Self::is_finished`]).
    pub fn result(&self) -> RunResult {
        RunResult {
            run: self.id(),
            task: self.task.clone(),
            steps: self.trainer.steps_done(),
            skipped_steps: self.skipped,
            params: self.param_count(),
            curve: self.curve.clone(),
            backend: self.backend,
            cpu_from: self.cpu_from,
        }
    }

    /// Where the run stands (reads the weights back from the GPU first).
    pub async fn checkpoint(&mut self) -> RunCheckpoint {
        self.trainer.sync().await;
        RunCheckpoint {
            run: self.id(),
            trainer: self.trainer.state(),
            curve: self.curve.clone(),
            skipped: self.skipped,
            window: self.window,
        }
    }

    /// Goes on from `c` (a checkpoint of this cell and seed with the same settings).
    ///
    /// # Errors
    /// [`ResumeRefused::Shape`] when its vectors do not fit the model (the run is unchanged).
    fn restore(&mut self, c: &RunCheckpoint) -> Result<(), ResumeRefused> {
        self.trainer
            .restore(&c.trainer)
            .map_err(|(saved, expected)| ResumeRefused::Shape {
                run: c.run,
                saved,
                expected,
            })?;
        self.curve = c.curve.clone();
        self.skipped = c.skipped;
        self.window = c.window;
        Ok(())
    }
}

/// A run's weights at some step (for predictions, inspection and the weights file). They
/// travel as their model's arguments and the flat parameters; the layout is derived again on
/// arrival.
#[derive(Clone, Debug, Deserialize)]
#[serde(from = "WeightsWire<Vec<f32>>")]
pub struct Weights {
    /// The model.
    pub model: SeqModel,
    /// Flat parameters in the model's layout.
    pub params: Vec<f32>,
    /// The run's step count these weights are from.
    pub step: u64,
}

/// The wire form of [`Weights`] (what [`SeqModel`] is built from, and the parameters).
#[derive(Serialize, Deserialize)]
struct WeightsWire<P> {
    spec: crate::math::params::RnnSpec,
    outputs: usize,
    head: crate::math::model::Head,
    readout: crate::math::model::Readout,
    loss: crate::math::model::Loss,
    params: P,
    step: u64,
}

impl Serialize for Weights {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        WeightsWire {
            spec: self.model.spec,
            outputs: self.model.outputs,
            head: self.model.head,
            readout: self.model.readout,
            loss: self.model.loss,
            params: self.params.as_slice(),
            step: self.step,
        }
        .serialize(serializer)
    }
}

impl From<WeightsWire<Vec<f32>>> for Weights {
    fn from(w: WeightsWire<Vec<f32>>) -> Self {
        Weights {
            model: SeqModel::new(w.spec, w.outputs)
                .with_head(w.head)
                .with_readout(w.readout)
                .with_loss(w.loss),
            params: w.params,
            step: w.step,
        }
    }
}

/// How far a [`Sweep`] is, in optimisation steps and runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Steps done over all runs.
    pub steps_done: u64,
    /// Steps of all runs together (runs × budget).
    pub steps_total: u64,
    /// Runs finished.
    pub runs_finished: usize,
    /// Runs planned.
    pub runs_total: usize,
}

impl Progress {
    /// Fraction of the steps done, 0–1.
    pub fn fraction(&self) -> f64 {
        if self.steps_total == 0 {
            1.0
        } else {
            self.steps_done as f64 / self.steps_total as f64
        }
    }

    /// Seconds left, extrapolated from `elapsed_s` seconds spent on the steps done (`None`
    /// before the first step).
    pub fn seconds_left(&self, elapsed_s: f64) -> Option<f64> {
        (self.steps_done > 0 && elapsed_s.is_finite()).then(|| {
            elapsed_s / self.steps_done as f64 * (self.steps_total - self.steps_done) as f64
        })
    }
}

/// Every run of a [`SweepPlan`], measured on one held-out set.
pub struct Sweep {
    plan: SweepPlan,
    heldout: Vec<SeqBatch>,
    example: Option<SeqBatch>,
    /// Seed-major: the cells of the first seed in display order, then the next seed's (those
    /// of [`Sweep::only`] alone, when it was called).
    runs: Vec<Run>,
    cursor: usize,
    /// Whether the sweep trains a share of its plan's runs ([`Sweep::only`]).
    share: bool,
    /// The GPU and the cells whose runs train on it ([`Sweep::plan_gpu`]).
    gpu: Option<GpuPlan>,
    /// How the runs' CPU steps are split ([`Sweep::split`]).
    split: Split,
}

impl Sweep {
    /// The runs of `plan`, none started.
    pub fn new(plan: SweepPlan) -> Sweep {
        let heldout = plan.task.heldout(plan.recipe.batch_size);
        let example = plan.seeds.first().and_then(|&s| plan.task.example(s));
        let runs = plan
            .run_ids()
            .into_iter()
            .map(|id| Run::new(&plan, id.cell, id.seed))
            .collect();
        Sweep {
            plan,
            heldout,
            example,
            runs,
            cursor: 0,
            share: false,
            gpu: None,
            split: Split::default(),
        }
    }

    /// From the next tick on, every batch of the runs' CPU steps is cut into `shares` shares
    /// ([`super::split`]: 1 is unsplit; at most [`super::split::MAX_SHARES`]); a checkpoint
    /// restored later sets its own count.
    pub fn split(&mut self, shares: usize) {
        self.split.shares = shares.clamp(1, super::split::MAX_SHARES);
    }

    /// The helper workers that compute the shares after the first (none: this worker
    /// computes them all; the numbers are the same).
    pub fn set_helpers(&mut self, helpers: Option<Rc<dyn Helpers>>) {
        self.split.helpers = helpers;
    }

    /// Shares per batch of the runs' CPU steps.
    pub fn shares(&self) -> usize {
        self.split.shares
    }

    /// From now on the sweep trains the runs of `runs` alone (its plan's others belong to
    /// other workers): its progress, results, checkpoints, weights and predictions are theirs.
    /// Each gives the same numbers, bit for bit, as in the whole sweep. Runs that are not the
    /// plan's are passed over.
    ///
    /// # Errors
    /// [`ResumeRefused::Started`] after the first tick (the sweep is unchanged then).
    pub fn only(&mut self, runs: &[RunId]) -> Result<(), ResumeRefused> {
        if self.cursor != 0 || self.runs.iter().any(|r| r.started()) {
            return Err(ResumeRefused::Started);
        }
        self.runs.retain(|r| runs.contains(&r.id()));
        self.share = true;
        Ok(())
    }

    /// Whether the sweep trains a share of its plan's runs ([`Sweep::only`]).
    pub fn is_share(&self) -> bool {
        self.share
    }

    /// From the next [`Sweep::tick`] on, the unfinished runs of `gpu.cells` train on its device
    /// (each is moved there at its next tick, from where it stands, and leaves it when
    /// finished). Same weights, streams and held-out set as on the CPU path. A run that cannot
    /// be set up on the GPU trains on the CPU (its tick's `fell_back` says why).
    pub fn plan_gpu(&mut self, gpu: GpuPlan) {
        self.gpu = Some(gpu);
    }

    /// Debug hook: destroys the sweep's GPU device, as a driver reset would; its runs go on
    /// on the CPU path from the step they reached.
    pub fn lose_device(&self) {
        if let Some(gpu) = &self.gpu {
            gpu.ctx.destroy_device();
        }
    }

    /// Debug hook: from now on the runs learn with `lr` and without clipping (a far too large
    /// learning rate makes the loss non-finite within a few steps).
    pub fn diverge(&mut self, lr: f32) {
        for run in &mut self.runs {
            run.trainer.set_lr(lr);
            run.trainer.clip_off();
        }
    }

    /// The plan.
    pub fn plan(&self) -> &SweepPlan {
        &self.plan
    }

    /// The held-out set, in evaluation slices.
    pub fn heldout(&self) -> &[SeqBatch] {
        &self.heldout
    }

    /// The task's example sequence of the sweep's first seed, if the task has one.
    pub fn example(&self) -> Option<&SeqBatch> {
        self.example.as_ref()
    }

    /// Every run, seed-major (cells of the first seed, then of the next).
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// Steps and runs done.
    pub fn progress(&self) -> Progress {
        Progress {
            steps_done: self.runs.iter().map(Run::steps_done).sum(),
            steps_total: self.runs.iter().map(Run::budget).sum(),
            runs_finished: self.runs.iter().filter(|r| r.is_finished()).count(),
            runs_total: self.runs.len(),
        }
    }

    /// True when every run is finished.
    pub fn is_finished(&self) -> bool {
        self.runs.iter().all(Run::is_finished)
    }

    /// The results of the finished runs, in [`Self::runs`] order.
    pub fn results(&self) -> Vec<RunResult> {
        self.runs
            .iter()
            .filter(|r| r.is_finished())
            .map(Run::result)
            .collect()
    }

    /// The index range of the runs of the seed of run `i` (the sweep's runs are seed-major).
    fn group(&self, i: usize) -> std::ops::Range<usize> {
        let Some(seed) = self.runs.get(i).map(|r| r.trainer.seed()) else {
            return i..i;
        };
        let same = |r: &Run| r.trainer.seed() == seed;
        let start = self.runs[..i]
            .iter()
            .rposition(|r| !same(r))
            .map_or(0, |k| k + 1);
        let end = self.runs[i..]
            .iter()
            .position(|r| !same(r))
            .map_or(self.runs.len(), |k| i + k);
        start..end
    }

    /// [`Sweep::tick_async`], waited for (natively; in the browser the runs must be on the
    /// CPU path).
    pub fn tick(&mut self) -> Option<Tick> {
        at_once(self.tick_async())
    }

    /// One unit of work of the next run: the cells of the current seed take turns; when they
    /// are finished the next seed's start. `None` when every run is finished.
    pub async fn tick_async(&mut self) -> Option<Tick> {
        let n = self.runs.len();
        for _ in 0..n {
            let i = self.cursor;
            let group = self.group(i);
            if group.is_empty() {
                return None;
            }
            // Next turn: the following cell of this seed, wrapping within the seed's group.
            self.cursor = if i + 1 < group.end {
                i + 1
            } else {
                group.start
            };
            let setup = self.move_to_gpu(i);
            self.runs[i].trainer.set_split(self.split.clone());
            let task = self.plan.task.clone();
            if let Some(mut t) = self.runs[i].tick(task.as_ref(), &self.heldout).await {
                t.fell_back = setup.or(t.fell_back);
                // A lost device takes every run off the GPU (each notices at its next step).
                if self
                    .gpu
                    .as_ref()
                    .is_some_and(|g| g.ctx.lost_reason().is_some())
                {
                    self.gpu = None;
                }
                if t.finished.is_some() && self.runs[i].trainer.backend() == Backend::Gpu {
                    self.runs[i].trainer.detach_gpu().await;
                }
                return Some(t);
            }
            // This run is finished: when the whole seed is, move on to the next seed.
            if self.runs[group.clone()].iter().all(Run::is_finished) {
                if group.end >= n {
                    return None;
                }
                self.cursor = group.end;
            }
        }
        None
    }

    /// Moves run `i` to the GPU when its cell trains there and it is neither there, finished
    /// nor fallen back already; the GPU's error when that fails (it stays on the CPU).
    fn move_to_gpu(&mut self, i: usize) -> Option<GpuError> {
        let gpu = self.gpu.as_ref()?;
        let run = &mut self.runs[i];
        let wanted = gpu.cells.contains(&run.trainer.cell())
            && run.trainer.backend() == Backend::Cpu
            && run.cpu_from.is_none()
            && !run.is_finished();
        if !wanted {
            return None;
        }
        let task = self.plan.task.as_ref();
        let (max_batch, max_len) = super::backend::gpu_sizes(task, &self.plan.recipe);
        let error = run
            .trainer
            .attach_gpu(&gpu.ctx, task.shape().input.kind(), max_batch, max_len)
            .err()?;
        run.cpu_from = Some(run.trainer.steps_done());
        Some(error)
    }

    /// The index range of the runs of the seed being trained (the last seed once every run is
    /// finished).
    fn current(&self) -> std::ops::Range<usize> {
        self.group(self.cursor.min(self.runs.len().saturating_sub(1)))
    }

    /// Where the seed in training stands (the weights are read back from the GPU first);
    /// `None` before its first tick and once its runs are finished (nothing to go on with).
    pub async fn checkpoint(&mut self) -> Option<SweepCheckpoint> {
        let range = self.current();
        let runs = &self.runs[range.clone()];
        if runs.iter().all(Run::is_finished) || !runs.iter().any(Run::started) {
            return None;
        }
        let mut out = Vec::with_capacity(range.len());
        for run in &mut self.runs[range.clone()] {
            out.push(run.checkpoint().await);
        }
        Some(SweepCheckpoint {
            settings: self.plan.settings(),
            runs: out,
            turn: self.cursor.saturating_sub(range.start),
            shares: self.split.shares,
        })
    }

    /// Every run of the sweep as it stands, finished or not, in its order (what a worker's
    /// share of a parallel sweep reports when it ends, so the whole sweep's checkpoint can
    /// name its runs finished); `None` when no run has started.
    pub async fn checkpoint_all(&mut self) -> Option<SweepCheckpoint> {
        if !self.runs.iter().any(Run::started) {
            return None;
        }
        let mut out = Vec::with_capacity(self.runs.len());
        for run in &mut self.runs {
            out.push(run.checkpoint().await);
        }
        Some(SweepCheckpoint {
            settings: self.plan.settings(),
            runs: out,
            turn: 0,
            shares: self.split.shares,
        })
    }

    /// Goes on from `checkpoint`, which must be of this sweep's settings and start at its
    /// first seed, before the first tick: each run of the checkpoint goes on from where it
    /// stood (the runs of the checkpoint this sweep does not train, [`Sweep::only`], are
    /// passed over). For a checkpoint of one worker's sweep the ticks that follow are those
    /// that followed the checkpoint in the sweep that made it.
    ///
    /// # Errors
    /// [`ResumeRefused`] when the checkpoint does not fit ([`SweepCheckpoint::fits`]) or
    /// this sweep has ticked already; the sweep is unchanged then.
    pub fn restore(&mut self, checkpoint: &SweepCheckpoint) -> Result<(), ResumeRefused> {
        if self.share {
            let mine: Vec<RunId> = self.runs.iter().map(Run::id).collect();
            checkpoint.fits_among(&self.plan, &mine)?;
        } else {
            checkpoint.fits(&self.plan)?;
        }
        if self.cursor != 0 || self.runs.iter().any(Run::started) {
            return Err(ResumeRefused::Started);
        }
        let mut restored: Vec<(usize, Run)> = Vec::with_capacity(checkpoint.runs.len());
        for c in &checkpoint.runs {
            let Some(i) = self.runs.iter().position(|r| r.id() == c.run) else {
                continue;
            };
            let mut fresh = Run::new(&self.plan, c.run.cell, c.run.seed);
            fresh.restore(c)?;
            restored.push((i, fresh));
        }
        for (i, run) in restored {
            self.runs[i] = run;
        }
        self.split(checkpoint.shares);
        // The run whose turn was next, unless a run before its seed is still unfinished.
        let turn = checkpoint.runs.get(checkpoint.turn).map(|c| c.run);
        let next = turn.and_then(|id| self.runs.iter().position(|r| r.id() == id));
        let first_open = self.runs.iter().position(|r| !r.is_finished());
        self.cursor = match (next, first_open) {
            (Some(n), Some(f)) if self.group(n).start <= f => n,
            (_, Some(f)) => f,
            _ => 0,
        };
        Ok(())
    }

    /// Starts the first seed's runs from `params` (e.g. weights loaded from a file) instead of
    /// a fresh initialisation: step 0, Adam's moments at zero (a weights file carries none),
    /// the same streams as from scratch.
    ///
    /// # Errors
    /// [`ResumeRefused::Shape`] when `params` does not fit a model, [`ResumeRefused::Started`]
    /// after the first tick.
    pub fn start_from(&mut self, params: &[f32]) -> Result<(), ResumeRefused> {
        if self.cursor != 0 || self.runs.iter().any(|r| r.steps_done() > 0) {
            return Err(ResumeRefused::Started);
        }
        let first = self.group(0);
        for run in &mut self.runs[first] {
            let n = params.len();
            let state = TrainerState {
                step: 0,
                params: params.to_vec(),
                adam_step: 0,
                adam_m: vec![0.0; n],
                adam_v: vec![0.0; n],
                stream_position: 0,
            };
            let id = run.id();
            run.trainer
                .restore(&state)
                .map_err(|(saved, expected)| ResumeRefused::Shape {
                    run: id,
                    saved,
                    expected,
                })?;
        }
        Ok(())
    }

    /// The weights of the runs of the seed being trained (read back from the GPU first).
    pub async fn current_weights(&mut self) -> Vec<(RunId, Weights)> {
        let mut out = Vec::new();
        for i in self.current() {
            let run = &mut self.runs[i];
            run.trainer.sync().await;
            let weights = Weights {
                model: run.trainer.model().clone(),
                params: run.trainer.params().to_vec(),
                step: run.steps_done(),
            };
            out.push((run.id(), weights));
        }
        out
    }

    /// Arg-max predictions on the example sequence of the runs of the seed being trained (read
    /// back from the GPU first); empty when the task has no example.
    pub async fn example_predictions(&mut self) -> Vec<(RunId, Vec<u32>)> {
        let Some(example) = self.example.clone() else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for i in self.current() {
            let run = &mut self.runs[i];
            run.trainer.sync().await;
            out.push((run.id(), run.trainer.predict(&example, 0)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::delay::DelayTask;

    fn plan(steps: u64, eval_every: u64) -> SweepPlan {
        SweepPlan {
            task: Arc::new(DelayTask::new(4, 6, 2).unwrap()),
            cells: vec![CellKind::Rnn, CellKind::Lstm],
            seeds: vec![3, 4],
            recipe: Recipe {
                hidden_size: 4,
                batch_size: 2,
                ..Recipe::default()
            },
            steps,
            eval_every,
        }
    }

    /// Seed-major: the cells of a seed take turns, then the next seed; each run is evaluated
    /// at step 0, every `eval_every` steps and after its last step.
    #[test]
    fn runs_take_turns_seed_by_seed() {
        let mut sweep = Sweep::new(plan(3, 2));
        let mut order = Vec::new();
        while let Some(t) = sweep.tick() {
            order.push((
                t.run.cell,
                t.run.seed,
                t.steps.len(),
                t.heldout.map(|h| h.step),
            ));
        }
        use CellKind::{Lstm, Rnn};
        assert_eq!(
            order,
            [
                (Rnn, 3, 0, Some(0)),
                (Lstm, 3, 0, Some(0)),
                (Rnn, 3, 1, None),
                (Lstm, 3, 1, None),
                (Rnn, 3, 1, Some(2)),
                (Lstm, 3, 1, Some(2)),
                (Rnn, 3, 1, Some(3)),
                (Lstm, 3, 1, Some(3)),
                (Rnn, 4, 0, Some(0)),
                (Lstm, 4, 0, Some(0)),
                (Rnn, 4, 1, None),
                (Lstm, 4, 1, None),
                (Rnn, 4, 1, Some(2)),
                (Lstm, 4, 1, Some(2)),
                (Rnn, 4, 1, Some(3)),
                (Lstm, 4, 1, Some(3)),
            ]
        );
        assert!(sweep.is_finished());
        assert_eq!(sweep.results().len(), 4);
        assert_eq!(sweep.progress().fraction(), 1.0);
    }
}
