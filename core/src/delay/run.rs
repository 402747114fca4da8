//! Measured runs of the delay-copy task: every cell × seed of a configuration trained for its
//! budget and evaluated on one fixed held-out set.
//!
//! - [`HeldOutSet`]: [`HELDOUT_SEQUENCES`] sequences drawn from [`HELDOUT_SEED`], a seed no
//!   training stream uses (training seeds are `u32`). For a given vocabulary, length and delay
//!   every cell and every seed is measured on the same sequences.
//! - [`DelayRun`]: one (cell, seed) trainer with its budget. Each [`DelayRun::tick`] does one
//!   unit of work — the evaluation before training (step 0), or one optimisation step followed
//!   by a forward-only evaluation every `eval_every` steps and after the last step — and
//!   returns a [`Tick`].
//! - [`Sweep`]: the runs of one [`DelayConfig`]: seeds `seed`, `seed + 1`, … (`seeds` of
//!   them), for each seed every cell of `cell`. The cells of one seed take turns step by step
//!   (they train on the same token stream); the next seed starts when they are finished.
//! - [`SweepCheckpoint`]: where the seed in training stands (every cell's weights, Adam state,
//!   token-stream position, held-out curve and whose turn it is), with the settings it belongs
//!   to. A sweep of the same settings that starts at that seed ([`Sweep::restore`]) goes on
//!   with the same steps and numbers as the sweep that was stopped; one of other settings is
//!   refused ([`ResumeRefused`]).
//!
//! Held-out figures are over the supervised positions only (`t ≥ delay`): token accuracy (a
//! fraction 0–1) and mean cross-entropy (nats per token). Everything here is deterministic (no
//! clock): the caller decides when to tick and measures time itself. [`Sweep::tick`] is
//! synchronous; [`Sweep::tick_async`] is the same work with the GPU's results awaited (the
//! runs of the cells given to [`Sweep::plan_gpu`] train on the GPU, each from its first tick
//! to its last, and a failing device hands them to the CPU path from the same step). The
//! result types are `serde`-serialisable so they can cross a worker boundary or be stored.

use super::task::{DelayBatch, DelayTask};
use super::trainer::{example_batch, Backend, CellTrainer, DelayStep, Recipe, TrainerState};
use crate::config::delay::{DelayConfig, DelayRangeError};
use crate::gpu::{GpuContext, GpuError};
use crate::math::params::CellKind;
use serde::{Deserialize, Serialize};

/// Sequences in the held-out set.
pub const HELDOUT_SEQUENCES: usize = 256;

/// Seed of the held-out set's token stream: above `u32::MAX`, so no training stream (seeded by
/// a `u32`) and no example sequence shares it.
pub const HELDOUT_SEED: u64 = 0x0048_454c_444f_5554;

/// Steps between two held-out evaluations (the page's and the native runner's default).
pub const EVAL_EVERY: u64 = 100;

/// Steps between two held-out evaluations for a budget of `steps`: [`EVAL_EVERY`], or a tenth
/// of the budget when that is smaller (at least 1), so a short run still draws a curve.
pub fn eval_every_for(steps: u64) -> u64 {
    (steps / 10).clamp(1, EVAL_EVERY)
}

/// The fixed held-out set of a task: [`HELDOUT_SEQUENCES`] sequences from [`HELDOUT_SEED`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldOutSet {
    batch: DelayBatch,
}

impl HeldOutSet {
    /// The held-out set of `task` (the same sequences for every cell and seed).
    pub fn new(task: &DelayTask) -> HeldOutSet {
        HeldOutSet {
            batch: task.stream(HELDOUT_SEED).next_batch(HELDOUT_SEQUENCES),
        }
    }

    /// The sequences, `[T, 256]` time-major.
    pub fn batch(&self) -> &DelayBatch {
        &self.batch
    }
}

/// Which run: a cell and the seed of its weights and token stream.
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
    /// Token accuracy on the held-out set's supervised positions, a fraction 0–1.
    pub acc: f64,
    /// Mean cross-entropy on the held-out set's supervised positions, nats per token.
    pub loss: f64,
}

/// A run's parameter count, as PyTorch counts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ParamCount {
    /// The cell.
    pub cell: CellKind,
    /// The recurrent module (`nn.RNN/LSTM/GRU(V, H)`) plus the `Linear(H, V)` head.
    pub total: usize,
    /// The recurrent module alone.
    pub recurrent: usize,
}

/// A finished run: what it was, what it cost and its held-out curve.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// Cell and seed.
    pub run: RunId,
    /// The delay of the task.
    pub delay: usize,
    /// Optimisation steps done (the budget).
    pub steps: u64,
    /// Steps whose update was skipped because the loss or the gradient norm was not finite.
    pub skipped_steps: u64,
    /// Parameters of the model.
    pub params: ParamCount,
    /// Every held-out evaluation, from step 0 to the last step.
    pub curve: Vec<HeldOut>,
    /// The path its first step in this sweep ran on (`None` in records of earlier versions).
    #[serde(default)]
    pub backend: Option<Backend>,
    /// The step count from which it went on on the CPU path after the GPU failed (`None`
    /// when it did not).
    #[serde(default)]
    pub cpu_from: Option<u64>,
}

impl RunResult {
    /// The last held-out evaluation (after the last step).
    pub fn last(&self) -> Option<&HeldOut> {
        self.curve.last()
    }
}

/// What one [`DelayRun::tick`] did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tick {
    /// Cell and seed.
    pub run: RunId,
    /// The optimisation step, `None` for the evaluation before training.
    pub step: Option<DelayStep>,
    /// The held-out evaluation done in this tick, if any (step 0, every `eval_every` steps and
    /// after the last step).
    pub heldout: Option<HeldOut>,
    /// The run's result, on the tick that finished it.
    pub finished: Option<RunResult>,
    /// The GPU's error when the run left the GPU path in this tick (it goes on on the CPU from
    /// the steps done before this tick).
    pub fell_back: Option<GpuError>,
}

/// Everything that decides a run's numbers besides its cell and seed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// Vocabulary size V.
    pub vocab: usize,
    /// Tokens per sequence T.
    pub length: usize,
    /// The delay d.
    pub delay: usize,
    /// Hidden size, learning rate, batch size, clipping, forget-gate bias.
    pub recipe: Recipe,
    /// Steps per run.
    pub steps: u64,
    /// Steps between two held-out evaluations.
    pub eval_every: u64,
}

impl RunSettings {
    /// The settings of a sweep of `config` evaluated every `eval_every` steps (with the
    /// floors [`Sweep`] applies).
    pub fn of(config: &DelayConfig, eval_every: u64) -> RunSettings {
        RunSettings {
            vocab: config.vocab.max(2),
            length: config.length,
            delay: config.delay,
            recipe: Recipe::of(config),
            steps: config.steps.max(1),
            eval_every: eval_every.max(1),
        }
    }
}

/// Where one run stands: its trainer's state, held-out curve and skipped steps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunCheckpoint {
    /// Cell and seed.
    pub run: RunId,
    /// Steps, weights, Adam state, token-stream position.
    pub trainer: TrainerState,
    /// The held-out evaluations so far.
    pub curve: Vec<HeldOut>,
    /// Steps skipped so far (non-finite loss or gradient).
    pub skipped: u64,
}

/// Where the seed in training of a [`Sweep`] stands ([`Sweep::checkpoint`]): enough for a
/// sweep of the same settings starting at that seed to go on exactly where it stopped
/// ([`Sweep::restore`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SweepCheckpoint {
    /// The settings of the sweep.
    pub settings: RunSettings,
    /// One per cell of the seed, in the sweep's order.
    pub runs: Vec<RunCheckpoint>,
    /// Index in `runs` of the run whose turn is next.
    pub turn: usize,
}

impl SweepCheckpoint {
    /// The seed being trained.
    pub fn seed(&self) -> Option<u32> {
        self.runs.first().map(|r| r.run.seed)
    }

    /// Steps done by every run of the seed (the smallest count; the cells take turns, so the
    /// others are at most one step further).
    pub fn step(&self) -> u64 {
        self.runs.iter().map(|r| r.trainer.step).min().unwrap_or(0)
    }

    /// Bytes of its vectors (what keeping it costs).
    pub fn size_bytes(&self) -> usize {
        self.runs.iter().map(|r| r.trainer.size_bytes()).sum()
    }

    /// Whether a sweep of `config` evaluated every `eval_every` steps can go on from this
    /// checkpoint: the same settings, its first seed the checkpoint's, the same cells.
    ///
    /// # Errors
    /// What differs.
    pub fn fits(&self, config: &DelayConfig, eval_every: u64) -> Result<(), ResumeRefused> {
        let settings = RunSettings::of(config, eval_every);
        if self.settings != settings {
            return Err(ResumeRefused::Settings);
        }
        let planned: Vec<RunId> = config
            .cell
            .cells()
            .iter()
            .map(|&cell| RunId {
                cell,
                seed: config.seed,
            })
            .collect();
        let saved: Vec<RunId> = self.runs.iter().map(|r| r.run).collect();
        if saved != planned || self.turn >= saved.len() {
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
    /// The checkpoint's runs are not the first seed's runs of the sweep.
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
                "the checkpoint holds the runs {saved:?}, the sweep starts with {planned:?}"
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

/// One (cell, seed) run: a [`CellTrainer`], its budget and its held-out curve.
pub struct DelayRun {
    trainer: CellTrainer,
    delay: usize,
    budget: u64,
    eval_every: u64,
    curve: Vec<HeldOut>,
    skipped: u64,
    /// The path of the first step, once taken.
    backend: Option<Backend>,
    /// The step count when the GPU path was left.
    cpu_from: Option<u64>,
}

impl DelayRun {
    /// A run of `cell` on `task` with `recipe` and `seed`, for `budget` steps (at least 1),
    /// evaluated every `eval_every` steps (at least 1) and after the last.
    pub fn new(
        cell: CellKind,
        task: &DelayTask,
        recipe: &Recipe,
        seed: u32,
        budget: u64,
        eval_every: u64,
    ) -> DelayRun {
        DelayRun {
            trainer: CellTrainer::new(cell, task, recipe, seed),
            delay: task.delay(),
            budget: budget.max(1),
            eval_every: eval_every.max(1),
            curve: Vec::new(),
            skipped: 0,
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

    /// The trainer (model, current weights, steps done).
    pub fn trainer(&self) -> &CellTrainer {
        &self.trainer
    }

    /// This run with `trainer` in place of its own (the same cell, task and seed on another
    /// path, e.g. [`CellTrainer::new_gpu`]), before any step.
    pub fn with_trainer(self, trainer: CellTrainer) -> DelayRun {
        DelayRun { trainer, ..self }
    }

    /// Steps done.
    pub fn steps_done(&self) -> u64 {
        self.trainer.steps()
    }

    /// The step count from which it ran on the CPU path after the GPU failed, if it did.
    pub fn cpu_from(&self) -> Option<u64> {
        self.cpu_from
    }

    /// The budget in steps.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The held-out evaluations so far.
    pub fn curve(&self) -> &[HeldOut] {
        &self.curve
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

    /// True once the budget is done and the last evaluation made.
    pub fn is_finished(&self) -> bool {
        self.trainer.steps() >= self.budget
            && self.curve.last().is_some_and(|h| h.step == self.budget)
    }

    /// Forward-only evaluation of the current weights on `heldout`.
    pub fn evaluate(&mut self, heldout: &HeldOutSet) -> HeldOut {
        let s = self.trainer.evaluate(heldout.batch());
        self.heldout_of(s)
    }

    fn heldout_of(&self, s: super::model::DelayStats) -> HeldOut {
        HeldOut {
            cell: self.trainer.cell(),
            seed: self.trainer.seed(),
            step: self.trainer.steps(),
            acc: s.accuracy(),
            loss: s.mean_loss(),
        }
    }

    /// One unit of work: the evaluation at step 0 on the first call, then one optimisation
    /// step per call (plus an evaluation every `eval_every` steps and after the last).
    /// `None` once the run is finished.
    ///
    /// `heldout` must be the [`HeldOutSet`] of this run's task.
    pub fn tick(&mut self, heldout: &HeldOutSet) -> Option<Tick> {
        #[cfg(target_arch = "wasm32")]
        self.trainer.detach_gpu();
        super::trainer::at_once(self.tick_async(heldout))
    }

    /// [`DelayRun::tick`] on the trainer's path, the GPU's results awaited.
    pub async fn tick_async(&mut self, heldout: &HeldOutSet) -> Option<Tick> {
        if self.is_finished() {
            return None;
        }
        let id = self.id();
        if self.curve.is_empty() {
            let s = self.trainer.evaluate_async(heldout.batch()).await;
            let h = self.heldout_of(s);
            self.curve.push(h);
            return Some(Tick {
                run: id,
                step: None,
                heldout: Some(h),
                finished: None,
                fell_back: self.take_fallback(),
            });
        }
        let step = self.trainer.step_async().await;
        self.backend.get_or_insert(step.backend);
        if step.skipped {
            self.skipped += 1;
        }
        let n = step.step;
        let mut h = None;
        if n.is_multiple_of(self.eval_every) || n >= self.budget {
            let s = self.trainer.evaluate_async(heldout.batch()).await;
            let e = self.heldout_of(s);
            self.curve.push(e);
            h = Some(e);
        }
        let fell_back = self.take_fallback();
        let finished = self.is_finished().then(|| self.result());
        Some(Tick {
            run: id,
            step: Some(step),
            heldout: h,
            finished,
            fell_back,
        })
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
            delay: self.delay,
            steps: self.trainer.steps(),
            skipped_steps: self.skipped,
            params: self.param_count(),
            curve: self.curve.clone(),
            backend: self.backend,
            cpu_from: self.cpu_from,
        }
    }

    /// Arg-max predictions `[T − d]` of sequence `b` of `batch` with the current weights.
    pub fn predict(&self, batch: &DelayBatch, b: usize) -> Vec<u32> {
        self.trainer.predict(batch, b)
    }

    /// Where the run stands.
    pub fn checkpoint(&self) -> RunCheckpoint {
        RunCheckpoint {
            run: self.id(),
            trainer: self.trainer.state(),
            curve: self.curve.clone(),
            skipped: self.skipped,
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
        Ok(())
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

/// Every run of one [`DelayConfig`]: for each seed of [`DelayConfig::run_seeds`], one
/// [`DelayRun`] per cell of `config.cell`, all measured on one [`HeldOutSet`].
pub struct Sweep {
    config: DelayConfig,
    task: DelayTask,
    heldout: HeldOutSet,
    example: DelayBatch,
    /// Seed-major: the cells of the first seed in display order, then the next seed's.
    runs: Vec<DelayRun>,
    cells: usize,
    cursor: usize,
    eval_every: u64,
    /// The GPU and the cells whose runs train on it ([`Sweep::plan_gpu`]).
    gpu: Option<(GpuContext, Vec<CellKind>)>,
}

impl Sweep {
    /// The runs of `config`, evaluated every [`EVAL_EVERY`] steps.
    ///
    /// # Errors
    /// [`DelayRangeError`] unless `0 < delay < length`.
    pub fn new(config: &DelayConfig) -> Result<Sweep, DelayRangeError> {
        Sweep::with_eval_every(config, EVAL_EVERY)
    }

    /// The runs of `config`, evaluated every `eval_every` steps (at least 1) and at the end.
    ///
    /// # Errors
    /// [`DelayRangeError`] unless `0 < delay < length`.
    pub fn with_eval_every(
        config: &DelayConfig,
        eval_every: u64,
    ) -> Result<Sweep, DelayRangeError> {
        let task = DelayTask::new(config.vocab.max(2), config.length, config.delay)?;
        let recipe = Recipe::of(config);
        let cells = config.cell.cells();
        let runs = config
            .run_seeds()
            .into_iter()
            .flat_map(|seed| {
                cells
                    .iter()
                    .map(move |&cell| (cell, seed))
                    .collect::<Vec<_>>()
            })
            .map(|(cell, seed)| DelayRun::new(cell, &task, &recipe, seed, config.steps, eval_every))
            .collect();
        Ok(Sweep {
            config: config.clone(),
            heldout: HeldOutSet::new(&task),
            example: example_batch(&task, u64::from(config.seed)),
            task,
            runs,
            cells: cells.len(),
            cursor: 0,
            eval_every: eval_every.max(1),
            gpu: None,
        })
    }

    /// Runs every trainer on the GPU of `ctx` (natively; see [`CellTrainer::new_gpu`]),
    /// before any tick. Same weights, streams and held-out set as on the CPU path.
    ///
    /// # Errors
    /// [`crate::gpu::GpuError`] when a model does not fit the GPU path or the device fails.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn on_gpu(mut self, ctx: &crate::gpu::GpuContext) -> Result<Sweep, crate::gpu::GpuError> {
        let recipe = Recipe::of(&self.config);
        let runs = std::mem::take(&mut self.runs);
        for run in runs {
            let id = run.id();
            let trainer = CellTrainer::new_gpu(id.cell, &self.task, &recipe, id.seed, ctx)?;
            self.runs.push(run.with_trainer(trainer));
        }
        Ok(self)
    }

    /// From the next [`Sweep::tick_async`] on, the unfinished runs of `cells` train on the GPU
    /// of `ctx` (each is moved there at its next tick, from where it stands, and leaves it when
    /// finished). Same weights, streams and held-out set as on the CPU path. A run that cannot
    /// be set up on the GPU trains on the CPU (its tick's `fell_back` says why).
    pub fn plan_gpu(&mut self, ctx: GpuContext, cells: Vec<CellKind>) {
        self.gpu = Some((ctx, cells));
    }

    /// Debug hook: destroys the sweep's GPU device, as a driver reset would; its runs go on
    /// on the CPU path from the step they reached.
    pub fn lose_device(&self) {
        if let Some((ctx, _)) = &self.gpu {
            ctx.destroy_device();
        }
    }

    /// The configuration.
    pub fn config(&self) -> &DelayConfig {
        &self.config
    }

    /// The task.
    pub fn task(&self) -> &DelayTask {
        &self.task
    }

    /// The held-out set.
    pub fn heldout(&self) -> &HeldOutSet {
        &self.heldout
    }

    /// The example sequence the page shows (a batch of one, seeded from `config.seed`, not a
    /// training or held-out sequence).
    pub fn example(&self) -> &DelayBatch {
        &self.example
    }

    /// Every run, seed-major (cells of the first seed, then of the next).
    pub fn runs(&self) -> &[DelayRun] {
        &self.runs
    }

    /// Cell and seed of every run, in [`Self::runs`] order.
    pub fn plan(&self) -> Vec<RunId> {
        self.runs.iter().map(DelayRun::id).collect()
    }

    /// Parameter count of each cell (one entry per cell, display order).
    pub fn param_counts(&self) -> Vec<ParamCount> {
        self.runs[..self.cells]
            .iter()
            .map(DelayRun::param_count)
            .collect()
    }

    /// Steps and runs done.
    pub fn progress(&self) -> Progress {
        Progress {
            steps_done: self.runs.iter().map(DelayRun::steps_done).sum(),
            steps_total: self.runs.iter().map(DelayRun::budget).sum(),
            runs_finished: self.runs.iter().filter(|r| r.is_finished()).count(),
            runs_total: self.runs.len(),
        }
    }

    /// True when every run is finished.
    pub fn is_finished(&self) -> bool {
        self.runs.iter().all(DelayRun::is_finished)
    }

    /// The results of the finished runs, in [`Self::runs`] order.
    pub fn results(&self) -> Vec<RunResult> {
        self.runs
            .iter()
            .filter(|r| r.is_finished())
            .map(DelayRun::result)
            .collect()
    }

    /// One unit of work of the next run: the cells of the current seed take turns; when they
    /// are finished the next seed's start. `None` when every run is finished.
    pub fn tick(&mut self) -> Option<Tick> {
        #[cfg(target_arch = "wasm32")]
        {
            self.gpu = None;
            self.runs.iter_mut().for_each(|r| r.trainer.detach_gpu());
        }
        super::trainer::at_once(self.tick_async())
    }

    /// [`Sweep::tick`] with the runs of [`Sweep::plan_gpu`]'s cells on the GPU, its results
    /// awaited.
    pub async fn tick_async(&mut self) -> Option<Tick> {
        let n = self.runs.len();
        for _ in 0..n {
            let i = self.cursor;
            let group = i / self.cells;
            // Next turn: the following cell of this seed, wrapping within the seed's group.
            self.cursor = group * self.cells + (i % self.cells + 1) % self.cells;
            let setup = self.move_to_gpu(i);
            if let Some(mut t) = self.runs[i].tick_async(&self.heldout).await {
                t.fell_back = setup.or(t.fell_back);
                // A lost device takes every run off the GPU (each notices at its next step).
                if self
                    .gpu
                    .as_ref()
                    .is_some_and(|(ctx, _)| ctx.lost_reason().is_some())
                {
                    self.gpu = None;
                }
                if t.finished.is_some() && self.gpu.is_some() {
                    self.runs[i].trainer.detach_gpu();
                }
                return Some(t);
            }
            // This run is finished: when the whole seed is, move on to the next seed.
            let seed_runs = &self.runs[group * self.cells..(group + 1) * self.cells];
            if seed_runs.iter().all(DelayRun::is_finished) {
                if (group + 1) * self.cells >= n {
                    return None;
                }
                self.cursor = (group + 1) * self.cells;
            }
        }
        None
    }

    /// Moves run `i` to the GPU when its cell trains there and it is neither there, finished
    /// nor fallen back already; the GPU's error when that fails (it stays on the CPU).
    fn move_to_gpu(&mut self, i: usize) -> Option<GpuError> {
        let (ctx, cells) = self.gpu.as_ref()?;
        let run = &mut self.runs[i];
        let wanted = cells.contains(&run.trainer.cell())
            && run.trainer.backend() == Backend::Cpu
            && run.cpu_from.is_none()
            && !run.is_finished();
        if !wanted {
            return None;
        }
        let error = run.trainer.attach_gpu(ctx, &self.task).err()?;
        run.cpu_from = Some(run.trainer.steps());
        Some(error)
    }

    /// The runs of the seed being trained (the last seed once every run is finished).
    pub fn current_runs(&self) -> &[DelayRun] {
        let group = self.cursor / self.cells;
        &self.runs[group * self.cells..(group + 1) * self.cells]
    }

    /// Where the seed in training stands; `None` before its first tick and once its runs are
    /// finished (nothing to go on with).
    pub fn checkpoint(&self) -> Option<SweepCheckpoint> {
        let runs = self.current_runs();
        if runs.iter().all(DelayRun::is_finished) || runs.iter().all(|r| r.curve.is_empty()) {
            return None;
        }
        Some(SweepCheckpoint {
            settings: RunSettings::of(&self.config, self.eval_every),
            runs: runs.iter().map(DelayRun::checkpoint).collect(),
            turn: self.cursor % self.cells,
        })
    }

    /// Goes on from `checkpoint`, which must be of this sweep's settings and of its first
    /// seed, before the first tick: the ticks that follow are those that followed the
    /// checkpoint in the sweep that made it.
    ///
    /// # Errors
    /// [`ResumeRefused`] when the checkpoint does not fit ([`SweepCheckpoint::fits`]) or
    /// this sweep has ticked already; the sweep is unchanged then.
    pub fn restore(&mut self, checkpoint: &SweepCheckpoint) -> Result<(), ResumeRefused> {
        checkpoint.fits(&self.config, self.eval_every)?;
        if self.cursor != 0 || self.runs.iter().any(|r| !r.curve.is_empty()) {
            return Err(ResumeRefused::Started);
        }
        let mut restored: Vec<DelayRun> = Vec::with_capacity(self.cells);
        for (run, c) in self.runs[..self.cells].iter().zip(&checkpoint.runs) {
            let mut fresh = DelayRun::new(
                run.trainer.cell(),
                &self.task,
                &Recipe::of(&self.config),
                run.trainer.seed(),
                run.budget,
                run.eval_every,
            );
            fresh.restore(c)?;
            restored.push(fresh);
        }
        for (i, run) in restored.into_iter().enumerate() {
            self.runs[i] = run;
        }
        self.cursor = checkpoint.turn;
        Ok(())
    }

    /// Arg-max predictions `[T − d]` on the example sequence of the runs of the seed being
    /// trained.
    pub fn example_predictions(&self) -> Vec<(RunId, Vec<u32>)> {
        self.current_runs()
            .iter()
            .map(|r| (r.id(), r.predict(&self.example, 0)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Short budgets are evaluated ten times, long ones every [`EVAL_EVERY`] steps.
    #[test]
    fn eval_interval_follows_the_budget() {
        assert_eq!(eval_every_for(1), 1);
        assert_eq!(eval_every_for(100), 10);
        assert_eq!(eval_every_for(1000), EVAL_EVERY);
        assert_eq!(eval_every_for(3000), EVAL_EVERY);
    }
}
