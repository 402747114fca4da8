//! A sweep trained in parallel Web Workers, as the page sees it: one sweep's events.
//!
//! The page's engine client ([`ParallelSweep`] is its bookkeeping, native so `cargo test`
//! checks it) hands the sweep's runs, in the plan's order, to its workers one at a time: each
//! run is a share ([`super::protocol::Command::TrainShare`]) of one run, from the run's own
//! checkpoint when the sweep resumes. A worker whose run is finished takes the next one. The
//! shares' events are merged here into the events one worker's sweep sends: `Plan` and each
//! cell's `Backend` once, every `Tick` as it comes (the page files them by run), `Progress`
//! over the whole sweep, and one `Checkpoint` of every started run of the seeds not yet
//! finished (the finished runs beside them too), so a reload resumes every run in flight.
//! Each run's numbers depend on its cell, its seed and the settings alone, so they are the
//! same, bit for bit, on any number of workers.
//!
//! [`workers_for`] decides how many workers a sweep gets; a sweep of one run (the names lab,
//! a lab sweep of one cell and one seed) is split across them instead ([`split_for`]).

use super::protocol::{LabEvent, SingleWorker, Workers, MAX_WORKERS};
use crate::config::delay::DelayConfig;
use crate::config::BackendChoice;
use crate::math::params::CellKind;
use crate::train::backend::CellBackend;
use crate::train::sweep::{
    Progress, RunCheckpoint, RunId, RunSettings, SweepCheckpoint, SweepPlan,
};

/// The workers `workers=0` (automatic) asks for on a machine of `cores` logical cores: one
/// less, for the page, at least 1 and at most [`MAX_WORKERS`].
pub fn auto_workers(cores: usize) -> usize {
    cores.saturating_sub(1).clamp(1, MAX_WORKERS)
}

/// Whether runs of `backend` may train on WebGPU (`gpu`, or `auto` where the engine's worker
/// sees WebGPU or has not said yet: `webgpu` is `None`): such a sweep keeps one worker, since
/// one device is driven from one worker.
pub fn may_train_on_gpu(backend: BackendChoice, webgpu: Option<bool>) -> bool {
    match backend {
        BackendChoice::Cpu => false,
        BackendChoice::Gpu => true,
        BackendChoice::Auto => webgpu != Some(false),
    }
}

/// How many workers a sweep of `config` with `runs` runs left trains on: the URL's `workers`
/// (0: `cores` less one for the page, at least 1), at most [`MAX_WORKERS`] and at most `runs`.
/// One where its runs may train on WebGPU (`backend=gpu`, or `auto` where the engine's worker
/// sees WebGPU or has not said yet: `webgpu` is `None`), since one device is driven from one
/// worker. A sweep of one run is split instead ([`split_for`], its checkpoint's count
/// `resume_shares` when it resumes).
pub fn workers_for(
    config: &DelayConfig,
    cores: usize,
    webgpu: Option<bool>,
    runs: usize,
    resume_shares: Option<usize>,
) -> Workers {
    if runs <= 1 {
        let step = (config.hidden_size, config.batch_size);
        return split_for(
            config.workers,
            config.backend,
            cores,
            webgpu,
            resume_shares,
            step,
        );
    }
    let wanted = match config.workers {
        0 => auto_workers(cores),
        n => n.clamp(1, MAX_WORKERS),
    };
    let single =
        (wanted > 1 && may_train_on_gpu(config.backend, webgpu)).then_some(SingleWorker::Gpu);
    let used = if single.is_some() {
        1
    } else {
        wanted.min(runs).max(1)
    };
    Workers {
        used,
        wanted,
        failed: 0,
        single,
        shares: 1,
        memory: 0,
    }
}

/// The fewest logical cores on which `workers=0` splits a run. On 2 cores the second core
/// also runs the page and the browser: at the names recipe's size a split step was 1.35× faster
/// than an unsplit one on an otherwise idle 2-core machine and 1.12–1.34× slower on a loaded one
/// (docs/bench.md), so 2 cores keep one worker unless the URL asks for more; 3 cores and more
/// were not measured.
pub const SPLIT_MIN_CORES: usize = 3;

/// The most shares `workers=0` cuts a batch into (more shares add messages for less work
/// each).
pub const AUTO_SHARES: usize = 4;

/// The smallest hidden size at which `workers=0` splits a run: the names recipe's, where a split
/// was measured to pay (docs/bench.md); at hidden size 16 with 2 sequences a share the same split
/// made the epoch 5× longer. Sizes between were not measured, so auto keeps one worker there.
pub const SPLIT_MIN_HIDDEN: usize = 128;

/// The fewest sequences per share `workers=0` cuts a batch into: the measured names recipe's
/// (a batch of 64 in 2 shares). Auto makes fewer shares rather than smaller ones.
pub const SPLIT_MIN_ROWS: usize = 32;

/// Into how many shares a single run's batches are cut, and on how many workers
/// ([`crate::train::split`]): a resumed run's checkpoint count `resume_shares` whatever else
/// (its numbers depend on it); else the URL's `workers` (1: unsplit), and for `0` (auto) the
/// machine's `cores` less one for the page, at most [`AUTO_SHARES`] and at most one share per
/// [`SPLIT_MIN_ROWS`] of the `batch` sequences a step, where there are at least
/// [`SPLIT_MIN_CORES`] ([`SingleWorker::SplitDoesNotPay`] below) and the step is as large as
/// the one measured to pay (`hidden` at least [`SPLIT_MIN_HIDDEN`] and 2 shares or more;
/// [`SingleWorker::StepTooSmall`] otherwise). Unsplit where the run may train on WebGPU
/// ([`SingleWorker::Gpu`]: the GPU path is not split).
pub fn split_for(
    asked: usize,
    backend: BackendChoice,
    cores: usize,
    webgpu: Option<bool>,
    resume_shares: Option<usize>,
    (hidden, batch): (usize, usize),
) -> Workers {
    let one = |single| Workers {
        used: 1,
        wanted: 1,
        failed: 0,
        single,
        shares: 1,
        memory: 0,
    };
    let shares = match (resume_shares, asked) {
        (Some(s), _) => s.clamp(1, MAX_WORKERS),
        (None, _) if may_train_on_gpu(backend, webgpu) => {
            return one((asked != 1).then_some(SingleWorker::Gpu))
        }
        (None, 0) if cores < SPLIT_MIN_CORES => {
            return one(Some(SingleWorker::SplitDoesNotPay { cores }))
        }
        (None, 0) => {
            let shares = (cores - 1).min(AUTO_SHARES).min(batch / SPLIT_MIN_ROWS);
            if hidden < SPLIT_MIN_HIDDEN || shares < 2 {
                return one(Some(SingleWorker::StepTooSmall { hidden, batch }));
            }
            shares
        }
        (None, n) => n.clamp(1, MAX_WORKERS),
    };
    Workers {
        used: shares,
        wanted: shares,
        failed: 0,
        single: None,
        shares,
        memory: 0,
    }
}

/// Where one run of a parallel sweep is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    /// Not handed to a worker yet (or handed back by a worker that could not start).
    Waiting,
    /// In a worker.
    Training,
    /// Trained its budget (or stopped at a non-finite loss).
    Finished,
}

#[derive(Clone, Debug)]
struct Slot {
    run: RunId,
    state: State,
    steps_done: u64,
    checkpoint: Option<RunCheckpoint>,
    predictions: Option<Vec<u32>>,
}

/// The bookkeeping of a sweep trained in parallel workers (see the module docs).
#[derive(Clone, Debug)]
pub struct ParallelSweep {
    settings: RunSettings,
    steps: u64,
    /// One per run, in the plan's order.
    slots: Vec<Slot>,
    plan_sent: bool,
    backends: Vec<CellBackend>,
}

impl ParallelSweep {
    /// The runs of `plan`, none handed out; those of `resume` (a checkpoint that fits the
    /// plan, [`SweepCheckpoint::fits`]) go on from it, and its finished runs are not trained
    /// again.
    pub fn new(plan: &SweepPlan, resume: Option<&SweepCheckpoint>) -> ParallelSweep {
        let settings = plan.settings();
        let slots = plan
            .run_ids()
            .into_iter()
            .map(|run| {
                let checkpoint = resume
                    .and_then(|c| c.runs.iter().find(|r| r.run == run))
                    .cloned();
                let finished = checkpoint.as_ref().is_some_and(|c| {
                    c.trainer.step >= plan.steps
                        && c.curve.last().is_some_and(|h| h.step == plan.steps)
                });
                Slot {
                    run,
                    state: if finished {
                        State::Finished
                    } else {
                        State::Waiting
                    },
                    steps_done: checkpoint.as_ref().map_or(0, |c| c.trainer.step),
                    checkpoint,
                    predictions: None,
                }
            })
            .collect();
        ParallelSweep {
            settings,
            steps: plan.steps,
            slots,
            plan_sent: false,
            backends: Vec::new(),
        }
    }

    /// Runs not finished.
    pub fn runs_left(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| s.state != State::Finished)
            .count()
    }

    /// True when every run is finished.
    pub fn is_finished(&self) -> bool {
        self.runs_left() == 0
    }

    /// The next run to hand to a worker, marked training, with its checkpoint as a checkpoint
    /// of the sweep when it has one: the waiting run with the most work left (its steps left
    /// times its cell's gate count, the matrix products a step does; the first in the plan's
    /// order among equals). The longest runs first: a sweep of RNN and LSTM runs on 2 workers
    /// then ends with the short runs sharing out the rest, not one LSTM run alone at the end.
    /// The order runs train in changes no run's numbers, nor the order the page shows them in.
    pub fn take_next(&mut self) -> Option<(RunId, Option<SweepCheckpoint>)> {
        let settings = self.settings.clone();
        let steps = self.steps;
        let work = |s: &Slot| steps.saturating_sub(s.steps_done) * s.run.cell.gates() as u64;
        let best = self
            .slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.state == State::Waiting)
            .max_by(|(i, a), (j, b)| work(a).cmp(&work(b)).then(j.cmp(i)))
            .map(|(i, _)| i)?;
        let slot = &mut self.slots[best];
        slot.state = State::Training;
        let resume = slot.checkpoint.clone().map(|c| SweepCheckpoint {
            settings,
            runs: vec![c],
            turn: 0,
            shares: 1,
        });
        Some((slot.run, resume))
    }

    /// `run` goes back to the waiting runs (its worker stopped before it finished): the next
    /// worker goes on from its last checkpoint.
    pub fn requeue(&mut self, run: RunId) {
        if let Some(s) = self.slot(run) {
            if s.state == State::Training {
                s.state = State::Waiting;
                s.predictions = None;
            }
        }
    }

    fn slot(&mut self, run: RunId) -> Option<&mut Slot> {
        self.slots.iter_mut().find(|s| s.run == run)
    }

    /// The events of the whole sweep for one event of the share training `run` (none for the
    /// share's own `Finished`: the caller sends [`ParallelSweep::finish`] once every run is).
    pub fn event(&mut self, run: RunId, event: LabEvent) -> Vec<LabEvent> {
        match event {
            LabEvent::Plan(p) => {
                if std::mem::replace(&mut self.plan_sent, true) {
                    Vec::new()
                } else {
                    vec![LabEvent::Plan(p)]
                }
            }
            LabEvent::Backend(b) => {
                if self.backends.contains(&b) {
                    return Vec::new();
                }
                self.backends.retain(|x| x.cell != b.cell);
                self.backends.push(b.clone());
                vec![LabEvent::Backend(b)]
            }
            LabEvent::Tick(t) => {
                if let Some(s) = self.slot(run) {
                    if let Some(last) = t.steps.last() {
                        s.steps_done = s.steps_done.max(last.step);
                    }
                    if t.finished.is_some() || t.bad_loss.is_some() {
                        s.state = State::Finished;
                        s.predictions = None;
                    }
                }
                vec![LabEvent::Tick(t)]
            }
            LabEvent::Progress {
                progress,
                predictions,
            } => {
                if let Some(s) = self.slot(run) {
                    s.steps_done = s.steps_done.max(progress.steps_done);
                    if s.state == State::Training {
                        s.predictions = predictions
                            .into_iter()
                            .find(|(id, _)| *id == run)
                            .map(|(_, p)| p);
                    }
                }
                vec![self.progress()]
            }
            LabEvent::Checkpoint(c) => {
                for r in c.runs {
                    if let Some(s) = self.slot(r.run) {
                        s.steps_done = s.steps_done.max(r.trainer.step);
                        s.checkpoint = Some(r);
                    }
                }
                self.checkpoint()
                    .map(|c| LabEvent::Checkpoint(Box::new(c)))
                    .into_iter()
                    .collect()
            }
            LabEvent::Finished => Vec::new(),
            other @ (LabEvent::Weights { .. }
            | LabEvent::GradFlow { .. }
            | LabEvent::Notice(_)
            | LabEvent::Workers(_)
            | LabEvent::Error(_)) => vec![other],
        }
    }

    /// The sweep's progress: steps and runs over all its runs, and the predictions of the run
    /// in training of each cell with the lowest seed (as one worker's sweep reports those of
    /// the seed in training).
    pub fn progress(&self) -> LabEvent {
        let mut cells: Vec<CellKind> = Vec::new();
        let mut predictions = Vec::new();
        for s in &self.slots {
            if let Some(p) = &s.predictions {
                if s.state == State::Training && !cells.contains(&s.run.cell) {
                    cells.push(s.run.cell);
                    predictions.push((s.run, p.clone()));
                }
            }
        }
        LabEvent::Progress {
            progress: Progress {
                steps_done: self
                    .slots
                    .iter()
                    .map(|s| match s.state {
                        State::Finished => self.steps,
                        _ => s.steps_done.min(self.steps),
                    })
                    .sum(),
                steps_total: self.steps * self.slots.len() as u64,
                runs_finished: self.slots.len() - self.runs_left(),
                runs_total: self.slots.len(),
            },
            predictions,
        }
    }

    /// The sweep's checkpoint: every run with a checkpoint from the first seed with a run not
    /// finished on, in the plan's order; `None` when there is none.
    pub fn checkpoint(&self) -> Option<SweepCheckpoint> {
        let first = self.slots.iter().find(|s| s.state != State::Finished)?;
        let seed = first.run.seed;
        let runs: Vec<RunCheckpoint> = self
            .slots
            .iter()
            .skip_while(|s| s.run.seed != seed)
            .filter_map(|s| s.checkpoint.clone())
            .collect();
        (!runs.is_empty()).then(|| SweepCheckpoint {
            settings: self.settings.clone(),
            runs,
            turn: 0,
            shares: 1,
        })
    }

    /// The sweep's last events once every run is finished: its progress and `Finished`.
    pub fn finish(&self) -> Vec<LabEvent> {
        vec![self.progress(), LabEvent::Finished]
    }
}
