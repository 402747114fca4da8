//! What the names page shows of a run, made from the engine's events of its sweep
//! ([`LabEvent`]): the page counts in epochs (the held-out evaluation of the names task is the
//! end of an epoch), names per step and seconds per epoch, so [`NamesEvents`] turns each lab
//! event into the page's [`NamesEvent`]s. Plain data, no Leptos; the tests below check it.

use std::rc::Rc;

use unroll_core::engine::protocol::{LabEvent, Workers};
use unroll_core::gpu::GpuError;
use unroll_core::task::names::{EpochReport, ValReport};
use unroll_core::train::backend::BackendKind;
use unroll_core::train::messages::{CpuReason, TrainError, TrainNotice};
use unroll_core::train::sweep::{SweepCheckpoint, Weights};

/// One thing the names page shows of its run, in the run's order.
#[derive(Clone, Debug)]
pub enum NamesEvent {
    /// The path the run trains on (again after a lost GPU).
    Backend(BackendKind),
    /// How many workers the run's batches are split across, and why one where it is not.
    Workers(Workers),
    /// An optimisation step.
    Step {
        /// Global 1-based step count.
        step: u64,
        /// 1-based epoch of this step.
        epoch: u32,
        /// This step's mean batch loss.
        loss: f32,
        /// Names in this step's batch (fewer than `batch_size` in the epoch's one smaller
        /// batch).
        names: u32,
    },
    /// An epoch's end: its training loss, validation figures and seconds of training.
    Epoch(EpochReport),
    /// Right after each `Epoch`: the validation confusion matrix of that epoch.
    Validation(Rc<ValReport>),
    /// `‖∂L/∂h_t‖` per step before the read-out, with the weights of `step`.
    GradFlow {
        /// The step of the weights used.
        step: u64,
        /// Mean norm per step before the read-out.
        norms: Rc<Vec<f32>>,
    },
    /// The GPU device was lost; training goes on on the CPU (a `Backend` follows).
    DeviceLost(GpuError),
    /// New weights.
    Weights(Rc<Weights>),
    /// Where the run could resume.
    Checkpoint(Rc<SweepCheckpoint>),
    /// Something the user should know that does not stop training (a skipped step).
    Notice(TrainNotice),
    /// All epochs done.
    Finished,
    /// Training stopped because of an error (after a non-finite loss, the weights from before
    /// the bad step follow).
    Error(TrainError),
}

/// Turns the lab events of one names run into the page's events (see the module docs).
#[derive(Debug, Default)]
pub struct NamesEvents {
    /// Steps per epoch (the run's evaluation interval, from its plan).
    per_epoch: u64,
    /// Milliseconds of training (not validation) since the last epoch's end.
    train_ms: f64,
    /// Classes of the confusion matrices.
    classes: usize,
}

impl NamesEvents {
    /// The translator of a run on `classes` languages.
    pub fn new(classes: usize) -> Self {
        NamesEvents {
            per_epoch: 1,
            train_ms: 0.0,
            classes,
        }
    }

    /// The epoch of `step` (from 1).
    fn epoch_of(&self, step: u64) -> u32 {
        (step.max(1) - 1).div_euclid(self.per_epoch.max(1)) as u32 + 1
    }

    /// The page's events of one lab event, in order.
    pub fn translate(&mut self, event: LabEvent) -> Vec<NamesEvent> {
        match event {
            LabEvent::Plan(plan) => {
                self.per_epoch = plan.eval_every.max(1);
                Vec::new()
            }
            LabEvent::Backend(b) => match b.kind {
                BackendKind::Cpu {
                    notice: Some(CpuReason::DeviceLost { ref error, .. }),
                } => vec![
                    NamesEvent::DeviceLost(error.clone()),
                    NamesEvent::Backend(b.kind),
                ],
                kind => vec![NamesEvent::Backend(kind)],
            },
            LabEvent::Tick(t) => {
                self.train_ms += t.ms - t.eval_ms;
                let mut out: Vec<NamesEvent> = t
                    .steps
                    .iter()
                    .map(|s| NamesEvent::Step {
                        step: s.step,
                        epoch: self.epoch_of(s.step),
                        loss: s.loss as f32,
                        names: s.sequences,
                    })
                    .collect();
                if let (Some(h), Some(confusion)) = (t.heldout, t.confusion) {
                    let epoch = self.epoch_of(h.step);
                    let report = ValReport {
                        epoch,
                        num_classes: self.classes,
                        confusion,
                    };
                    out.push(NamesEvent::Epoch(EpochReport {
                        epoch,
                        train_loss: h.train_loss.map_or(f32::NAN, |l| l as f32),
                        train_acc: h.train_acc.map_or(f32::NAN, |a| a as f32),
                        val_loss: h.loss as f32,
                        val_acc: report.accuracy(),
                        sec: self.train_ms / 1e3,
                    }));
                    out.push(NamesEvent::Validation(Rc::new(report)));
                    self.train_ms = 0.0;
                }
                out
            }
            LabEvent::Weights { weights, .. } => vec![NamesEvent::Weights(weights)],
            LabEvent::GradFlow { step, norms, .. } => vec![NamesEvent::GradFlow { step, norms }],
            LabEvent::Checkpoint(c) => vec![NamesEvent::Checkpoint(Rc::new(*c))],
            LabEvent::Notice(n) => vec![NamesEvent::Notice(n)],
            LabEvent::Finished => vec![NamesEvent::Finished],
            LabEvent::Error(e) => vec![NamesEvent::Error(e)],
            LabEvent::Workers(w) => vec![NamesEvent::Workers(w)],
            LabEvent::Progress { .. } => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::engine::protocol::PlanInfo;
    use unroll_core::math::params::CellKind;
    use unroll_core::train::backend::CellBackend;
    use unroll_core::train::sweep::{HeldOut, RunId, Tick};
    use unroll_core::train::trainer::{Backend, StepRecord};

    fn step(n: u64, loss: f64, sequences: u32) -> StepRecord {
        StepRecord {
            step: n,
            loss,
            acc: 0.5,
            grad_norm: 1.0,
            skipped: false,
            sequences,
            backend: Backend::Cpu,
        }
    }

    // long: one run's events in the order the engine sends them, each mapped event checked in turn
    /// Steps carry their epoch and names; the evaluation that ends an epoch gives its report
    /// (training loss, validation figures from the confusion matrix, training seconds without
    /// the validation) and the matrix; a lost device gives its notice before the new path.
    #[test]
    fn lab_events_become_the_pages_events() {
        let run = RunId {
            cell: CellKind::Lstm,
            seed: 0,
        };
        let mut t = NamesEvents::new(2);
        assert!(t
            .translate(LabEvent::Plan(PlanInfo {
                runs: vec![run],
                params: Vec::new(),
                steps: 6,
                eval_every: 3,
            }))
            .is_empty());
        let tick = |steps: Vec<StepRecord>, heldout: Option<HeldOut>, confusion| {
            LabEvent::Tick(Box::new(Tick {
                run,
                steps,
                heldout,
                confusion,
                finished: None,
                fell_back: None,
                bad_loss: None,
                ms: 250.0,
                eval_ms: 50.0,
            }))
        };
        let first = t.translate(tick(vec![step(1, 2.5, 64), step(2, 2.25, 64)], None, None));
        assert!(matches!(
            first[..],
            [
                NamesEvent::Step {
                    step: 1,
                    epoch: 1,
                    names: 64,
                    ..
                },
                NamesEvent::Step {
                    step: 2,
                    epoch: 1,
                    ..
                }
            ]
        ));
        let held = HeldOut {
            cell: run.cell,
            seed: 0,
            step: 3,
            acc: 0.75,
            loss: 1.5,
            solved: false,
            train_loss: Some(2.0),
            train_acc: Some(0.375),
        };
        let end = t.translate(tick(
            vec![step(3, 1.25, 17)],
            Some(held),
            Some(vec![2, 1, 0, 1]),
        ));
        let [NamesEvent::Step {
            step: 3,
            epoch: 1,
            names: 17,
            ..
        }, NamesEvent::Epoch(r), NamesEvent::Validation(v)] = &end[..]
        else {
            panic!("{end:?}")
        };
        assert_eq!(
            (r.epoch, r.train_loss, r.train_acc, r.val_loss, r.val_acc),
            (1, 2.0, 0.375, 1.5, 0.75)
        );
        assert!(
            (r.sec - 0.4).abs() < 1e-12,
            "two ticks of 200 ms of training"
        );
        assert_eq!((v.epoch, v.total()), (1, 4));
        let next = t.translate(tick(vec![step(4, 1.0, 64)], None, None));
        assert!(matches!(next[..], [NamesEvent::Step { epoch: 2, .. }]));
        let lost = t.translate(LabEvent::Backend(CellBackend {
            cell: run.cell,
            kind: BackendKind::Cpu {
                notice: Some(CpuReason::DeviceLost {
                    error: GpuError::DeviceLost("gone".into()),
                    step: 4,
                }),
            },
        }));
        assert!(matches!(
            lost[..],
            [
                NamesEvent::DeviceLost(_),
                NamesEvent::Backend(BackendKind::Cpu { .. })
            ]
        ));
    }
}
