//! Compare mode's model: each cell's run as the panel shows it (parameter count, accuracy per
//! epoch, seconds per epoch, its error), built from the session's events, and the chart's
//! curves and the progress over the three runs. Plain data, no Leptos; the panel (`compare`)
//! renders it.

use crate::charts::compare::Curve;
use crate::charts::style::cell_colour;
use unroll_core::math::cell::CELL_COUNT;
use unroll_core::math::params::CellKind;
use unroll_core::train::session::{BackendKind, TrainError, TrainEvent};

/// The cells compared, in training order.
pub const CELLS: [CellKind; CELL_COUNT] = CellKind::ALL;

/// One cell's run in the comparison.
#[derive(Clone, Debug, PartialEq)]
pub struct CompareRun {
    /// The cell.
    pub cell: CellKind,
    /// Parameters of its classifier (PyTorch's count, `fc` head included).
    pub params: usize,
    /// `(epoch, validation accuracy)` per finished epoch.
    pub points: Vec<(u32, f32)>,
    /// Training seconds of each finished epoch (`EpochReport::sec`).
    pub secs: Vec<f64>,
    /// The session's error, if it ended with one.
    pub error: Option<TrainError>,
    /// The path it trained on (`webgpu` or `cpu`, the last one reported: after a device loss
    /// the CPU), so a reproduction can force it with `backend=`.
    pub backend: Option<&'static str>,
}

impl CompareRun {
    /// A run of `cell` with `params` parameters, before its first epoch.
    pub fn new(cell: CellKind, params: usize) -> Self {
        CompareRun {
            cell,
            params,
            points: Vec::new(),
            secs: Vec::new(),
            error: None,
            backend: None,
        }
    }

    /// Takes what the table and the chart show from one event of the run's session: its
    /// backend, an epoch's accuracy and seconds, or the error it ended with.
    pub fn apply(&mut self, event: &TrainEvent) {
        match event {
            TrainEvent::Backend(BackendKind::Gpu { .. }) => self.backend = Some("webgpu"),
            TrainEvent::Backend(BackendKind::Cpu { .. }) => self.backend = Some("cpu"),
            TrainEvent::Epoch(rep) => {
                self.points.push((rep.epoch, rep.val_acc));
                self.secs.push(rep.sec);
            }
            TrainEvent::Error(e) => self.error = Some(e.clone()),
            _ => {}
        }
    }

    /// Mean seconds per epoch (None before the first epoch).
    pub fn sec_per_epoch(&self) -> Option<f64> {
        (!self.secs.is_empty()).then(|| self.secs.iter().sum::<f64>() / self.secs.len() as f64)
    }

    /// Best validation accuracy so far.
    pub fn best(&self) -> Option<f32> {
        self.points.iter().map(|p| p.1).reduce(f32::max)
    }

    /// The run's curve on the compare chart (the cell's name and colour).
    pub fn curve(&self) -> Curve {
        Curve {
            label: self.cell.name().to_owned(),
            points: self.points.clone(),
            colour: cell_colour(self.cell),
        }
    }
}

/// Fraction (0–1) of the comparison's steps done while it runs: `steps` done by each cell's
/// run (in [`CELLS`] order), each counted up to `per_run` (all epochs of one run).
pub fn running_fraction(steps: &[u64], per_run: u64) -> f64 {
    let per = per_run.max(1) as f64;
    let done: f64 = steps.iter().map(|&s| (s as f64).min(per)).sum();
    (done / (per * CELLS.len() as f64)).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::train::session::EpochReport;

    fn epoch(epoch: u32, val_acc: f32, sec: f64) -> TrainEvent {
        TrainEvent::Epoch(EpochReport {
            epoch,
            train_loss: 2.0,
            train_acc: 0.4,
            val_loss: 1.5,
            val_acc,
            sec,
        })
    }

    #[test]
    fn a_run_keeps_its_epochs_best_accuracy_and_mean_seconds() {
        let mut run = CompareRun::new(CellKind::Lstm, 1234);
        assert_eq!((run.best(), run.sec_per_epoch()), (None, None));
        for e in [epoch(1, 0.5, 2.0), epoch(2, 0.7, 4.0), epoch(3, 0.6, 3.0)] {
            run.apply(&e);
        }
        run.apply(&TrainEvent::Finished);
        assert_eq!(run.points, [(1, 0.5), (2, 0.7), (3, 0.6)]);
        assert_eq!(run.best(), Some(0.7));
        assert_eq!(run.sec_per_epoch(), Some(3.0));
        assert_eq!(run.error, None);
        let curve = run.curve();
        assert_eq!(curve.label, CellKind::Lstm.name());
        assert_eq!(curve.points, run.points);
        assert_eq!(curve.colour, cell_colour(CellKind::Lstm));
    }

    #[test]
    fn a_run_keeps_the_error_it_ended_with() {
        let mut run = CompareRun::new(CellKind::Rnn, 10);
        let error = TrainError::BadLoss {
            loss: f32::NAN,
            step: 3,
            clipping: false,
        };
        run.apply(&TrainEvent::Error(error));
        assert!(matches!(
            run.error,
            Some(TrainError::BadLoss { step: 3, .. })
        ));
    }

    /// The path each run trained on is kept; after a device loss it is the CPU.
    #[test]
    fn a_run_keeps_the_backend_it_trained_on() {
        let mut run = CompareRun::new(CellKind::Gru, 10);
        assert_eq!(run.backend, None);
        run.apply(&TrainEvent::Backend(BackendKind::Gpu {
            description: String::new(),
            measured: None,
        }));
        assert_eq!(run.backend, Some("webgpu"));
        run.apply(&TrainEvent::Backend(BackendKind::Cpu { notice: None }));
        assert_eq!(run.backend, Some("cpu"));
    }

    #[test]
    fn progress_counts_each_run_up_to_its_steps() {
        let n = CELLS.len() as f64;
        assert_eq!(running_fraction(&[0; CELL_COUNT], 100), 0.0);
        assert_eq!(running_fraction(&[100, 50], 100), 1.5 / n);
        // Steps past a run's total (the last batch's rounding) do not count twice.
        assert_eq!(running_fraction(&[150, 0], 100), 1.0 / n);
        assert_eq!(running_fraction(&[100; CELL_COUNT], 100), 1.0);
    }
}
