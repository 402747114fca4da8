//! What a training run tells its user besides numbers: why it stopped, what it skipped, why it
//! runs on the CPU. Each message is a typed value with its numbers as data (the failing step,
//! the loss, the GPU's error), so the page writes it in its own language; `Display` writes the
//! English used by the terminal (`train-names`) and the tests.

use std::fmt;

use serde::{Deserialize, Serialize};

pub use super::backend::{CpuReason, StepTimings};
use super::sweep::ResumeRefused;
use crate::task::TaskError;

/// Why a run ended with an error (the engine's `LabEvent::Error`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TrainError {
    /// The loss of step `step` was not finite (NaN or ±∞): training stopped, and the weights
    /// from before that step are kept.
    BadLoss {
        /// The loss (NaN or ±∞).
        loss: f32,
        /// The 1-based step whose loss it is.
        step: u64,
        /// Whether gradient clipping (`max_norm` > 0) was on (otherwise the message suggests it).
        clipping: bool,
    },
    /// The checkpoint to go on from does not fit the sweep (its settings, runs or sizes).
    Resume(ResumeRefused),
    /// The configuration gives no task (a delay outside the length, a length below the
    /// task's).
    Task(TaskError),
    /// The training engine (the Web Worker that runs the session) failed.
    Engine(EngineFault),
}

/// How the training engine that runs the sessions failed. The detail strings are the
/// browser's or the decoder's own words, kept for the record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EngineFault {
    /// The engine has no data set for the run (the page did not send it).
    NoData,
    /// The engine stopped (a panic inside it, or an error event of its worker).
    Stopped(String),
    /// The engine's worker could not load.
    CouldNotStart(String),
    /// A message between the page and the engine could not be read.
    Unreadable(String),
}

/// A message of a run that does not stop it (the engine's `LabEvent::Notice`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum TrainNotice {
    /// The loss or the gradient norm of step `step` was not finite: its update was skipped.
    SkippedStep {
        /// The 1-based step.
        step: u64,
    },
}

impl fmt::Display for StepTimings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "WebGPU {:.1} ms/step, CPU {:.1} ms/step: using {}",
            self.gpu_ms,
            self.cpu_ms,
            if self.gpu_faster() {
                "WebGPU"
            } else {
                "the CPU"
            }
        )
    }
}

impl fmt::Display for TrainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainError::BadLoss {
                loss,
                step,
                clipping,
            } => write!(
                f,
                "The loss became {loss} at step {step}, so training stopped. Lower the learning \
                 rate{} and train again; the weights from before step {step} are kept.",
                if *clipping {
                    ""
                } else {
                    " or turn on gradient clipping (max_norm, e.g. 5)"
                }
            ),
            TrainError::Resume(e) => write!(f, "The saved run cannot be resumed: {e}."),
            TrainError::Task(e) => e.fmt(f),
            TrainError::Engine(e) => e.fmt(f),
        }
    }
}

impl fmt::Display for EngineFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineFault::NoData => f.write_str("The training engine has no data set for this run."),
            EngineFault::Stopped(m) => write!(f, "The training engine stopped: {m}"),
            EngineFault::CouldNotStart(m) => write!(f, "The training engine could not start: {m}"),
            EngineFault::Unreadable(m) => {
                write!(f, "The training engine sent an unreadable message: {m}")
            }
        }
    }
}

impl fmt::Display for TrainNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainNotice::SkippedStep { step } => write!(
                f,
                "Step {step}: the gradient norm was not finite, so the update was skipped."
            ),
        }
    }
}

impl fmt::Display for CpuReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CpuReason::GpuUnavailable(e) => {
                write!(f, "GPU unavailable ({e}); training on the CPU instead.")
            }
            CpuReason::NoWorkerWebGpu(e) => write!(
                f,
                "This browser offers no WebGPU to Web Workers, where Unroll trains ({e}); training \
                 runs on the CPU."
            ),
            CpuReason::DeviceLost { error, step } => write!(
                f,
                "The GPU device was lost ({error}); training continues on the CPU from step {step}."
            ),
            CpuReason::Measured(t) => t.fmt(f),
            CpuReason::LostWhileMeasuring(e) => write!(
                f,
                "The GPU device was lost while the paths were measured ({e}); training runs on the \
                 CPU."
            ),
            CpuReason::NotOnGpuPath(e) => write!(
                f,
                "The GPU path does not train this model yet ({e}); training runs on the CPU."
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::GpuError;

    /// The terminal's English keeps the numbers and the suggestion.
    #[test]
    fn english_messages_carry_their_numbers() {
        let e = TrainError::BadLoss {
            loss: f32::NAN,
            step: 42,
            clipping: false,
        };
        let text = e.to_string();
        assert!(
            text.contains("NaN at step 42") && text.contains("max_norm"),
            "{text}"
        );
        let clipped = TrainError::BadLoss {
            loss: f32::INFINITY,
            step: 7,
            clipping: true,
        };
        assert!(!clipped.to_string().contains("max_norm"));
        assert!(clipped.to_string().contains("inf at step 7"));
        let lost = CpuReason::DeviceLost {
            error: GpuError::DeviceLost("destroyed".into()),
            step: 30,
        };
        assert_eq!(
            lost.to_string(),
            "The GPU device was lost (the GPU device was lost: destroyed); training continues on \
             the CPU from step 30."
        );
        assert_eq!(
            GpuError::DeviceLost("x".into()).summary(),
            "the GPU device was lost"
        );
        assert_eq!(GpuError::TooLarge("x".into()).detail(), "x");
    }
}
