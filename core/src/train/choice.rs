//! How `backend=auto` picks the path a run trains on: by measuring both.
//!
//! Where WebGPU is offered, the faster path depends on the device and on the run's shapes (a
//! software rasteriser such as SwiftShader can be several times slower than the CPU path; a
//! real GPU is faster at large hidden sizes and batches). So `auto` times a few training steps
//! of each path at the run's shapes, on throwaway copies of the model (the run's own weights,
//! Adam state and batch order never see the measurement), and trains on the faster one.
//! `backend=gpu` and `backend=cpu` force their path and measure nothing.
//!
//! - [`choose`]: the pure decision, from the request and the two timings (native tests).
//! - [`measure`]: the timing itself, at most about [`MEASURE_BUDGET_MS`] per path.
//! - [`cached`] / [`remember`]: the timings of each shape, measured once per session of the
//!   engine (in the browser: once per tab, in the engine's worker).

use std::cell::RefCell;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::clock::now_ms;
use super::cpu::CpuTrainer;
use super::{messages::CpuReason, Hyper};
use crate::config::{BackendChoice, Head, TrainConfig};
use crate::gpu::classifier::GpuClassifier;
use crate::gpu::GpuError;
use crate::math::classifier::ClassifierBatch;
use crate::math::params::CellKind;

/// Milliseconds of timed steps per path (after a warm-up step that is not timed): the two
/// paths together take about 1.5 s at most, warm-ups included, unless one step alone takes
/// longer than a quarter of that.
pub const MEASURE_BUDGET_MS: f64 = 500.0;
/// Most timed steps per path.
pub const MEASURE_MAX_STEPS: usize = 12;
/// GPU steps enqueued before the measurement waits for their results (as training does).
const MEASURE_IN_FLIGHT: usize = 4;

/// Milliseconds per training step of each path, measured at one run's shapes.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct StepTimings {
    /// WebGPU (the WGSL kernels), ms per step.
    pub gpu_ms: f64,
    /// The CPU path, ms per step.
    pub cpu_ms: f64,
}

impl StepTimings {
    /// Whether the GPU path is the faster one (a tie or an unreadable figure keeps the CPU,
    /// the reference path).
    pub fn gpu_faster(&self) -> bool {
        self.gpu_ms.is_finite() && self.cpu_ms.is_finite() && self.gpu_ms < self.cpu_ms
    }
}

/// The path a run trains on, and what its backend notice says.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    /// The WGSL kernels; `measured` when `auto` measured both paths.
    Gpu {
        /// The timings that chose it.
        measured: Option<StepTimings>,
    },
    /// The CPU path; `notice` says why, when the run did not ask for it.
    Cpu {
        /// Why the CPU (the timings, when `auto` measured the CPU faster).
        notice: Option<CpuReason>,
    },
}

/// Whether the request measures both paths: only `auto`, and only where a GPU was set up.
pub fn wants_measurement(request: BackendChoice) -> bool {
    request == BackendChoice::Auto
}

/// The path for `request`, given the timings `auto` measured (`None`: nothing was measured, as
/// for the forced paths). Assumes a GPU was set up; a GPU that could not be set up is the
/// caller's `GpuUnavailable`.
pub fn choose(request: BackendChoice, timings: Option<StepTimings>) -> Pick {
    match (request, timings) {
        (BackendChoice::Cpu, _) => Pick::Cpu { notice: None },
        (BackendChoice::Gpu, _) | (BackendChoice::Auto, None) => Pick::Gpu { measured: None },
        (BackendChoice::Auto, Some(t)) if t.gpu_faster() => Pick::Gpu { measured: Some(t) },
        (BackendChoice::Auto, Some(t)) => Pick::Cpu {
            notice: Some(CpuReason::Measured(t)),
        },
    }
}

/// What the timings of a run depend on: the architecture and the batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    cell: CellKind,
    hidden_size: usize,
    num_layers: usize,
    bidirectional: bool,
    batch_size: usize,
    head: Head,
    num_classes: usize,
}

impl Shape {
    /// The shape of a run of `cfg` with `num_classes` classes.
    pub fn of(cfg: &TrainConfig, num_classes: usize) -> Shape {
        Shape {
            cell: cfg.cell,
            hidden_size: cfg.hidden_size,
            num_layers: cfg.num_layers,
            bidirectional: cfg.bidirectional,
            batch_size: cfg.batch_size,
            head: cfg.head,
            num_classes,
        }
    }
}

thread_local! {
    static MEASURED: RefCell<HashMap<Shape, StepTimings>> = RefCell::new(HashMap::new());
}

/// The timings measured earlier in this engine's life for `shape`.
pub fn cached(shape: &Shape) -> Option<StepTimings> {
    MEASURED.with(|m| m.borrow().get(shape).copied())
}

/// Keeps `timings` for later runs of `shape`.
pub fn remember(shape: Shape, timings: StepTimings) {
    MEASURED.with(|m| m.borrow_mut().insert(shape, timings));
}

/// Timed steps that fit [`MEASURE_BUDGET_MS`] when the warm-up step took `warm_ms` (the
/// warm-up is the slowest step, so this errs towards fewer): 1 to [`MEASURE_MAX_STEPS`].
pub fn steps_within(warm_ms: f64) -> usize {
    if warm_ms.is_nan() || warm_ms <= 0.0 {
        return MEASURE_MAX_STEPS;
    }
    ((MEASURE_BUDGET_MS / warm_ms).floor() as usize).clamp(1, MEASURE_MAX_STEPS)
}

/// Times training steps of both paths on `batch`: `gpu` and `cpu` are throwaway trainers (their
/// weights and Adam state change; the run's own do not). Each path runs one untimed warm-up
/// step, then the steps that fit [`MEASURE_BUDGET_MS`] ([`steps_within`]).
///
/// # Errors
/// The GPU's error (a device lost during the measurement).
pub async fn measure(
    gpu: &mut GpuClassifier,
    cpu: &mut CpuTrainer,
    batch: &ClassifierBatch,
    hyper: &Hyper,
) -> Result<StepTimings, GpuError> {
    let warm = now_ms();
    gpu.train_step_clipped(batch, hyper.lr, hyper.max_norm)?;
    gpu.drain_results().await?;
    let steps = steps_within(now_ms() - warm);
    let start = now_ms();
    for _ in 0..steps {
        gpu.train_step_clipped(batch, hyper.lr, hyper.max_norm)?;
        if gpu.steps_in_flight() >= MEASURE_IN_FLIGHT {
            gpu.drain_results().await?;
        }
    }
    gpu.drain_results().await?;
    let gpu_ms = (now_ms() - start) / steps as f64;

    let warm = now_ms();
    cpu.step(batch, hyper);
    let steps = steps_within(now_ms() - warm);
    let start = now_ms();
    for _ in 0..steps {
        cpu.step(batch, hyper);
    }
    let cpu_ms = (now_ms() - start) / steps as f64;
    Ok(StepTimings { gpu_ms, cpu_ms })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(gpu_ms: f64, cpu_ms: f64) -> StepTimings {
        StepTimings { gpu_ms, cpu_ms }
    }

    /// `auto` takes the faster path and says so with both figures.
    #[test]
    fn auto_takes_the_faster_path() {
        assert_eq!(
            choose(BackendChoice::Auto, Some(t(2.1, 6.8))),
            Pick::Gpu {
                measured: Some(t(2.1, 6.8))
            }
        );
        assert_eq!(
            choose(BackendChoice::Auto, Some(t(21.0, 6.8))),
            Pick::Cpu {
                notice: Some(CpuReason::Measured(t(21.0, 6.8)))
            }
        );
    }

    /// A tie or an unreadable figure keeps the CPU, the reference path.
    #[test]
    fn ties_and_bad_figures_keep_the_cpu() {
        for timings in [t(5.0, 5.0), t(f64::NAN, 5.0), t(1.0, f64::INFINITY)] {
            assert!(
                matches!(
                    choose(BackendChoice::Auto, Some(timings)),
                    Pick::Cpu {
                        notice: Some(CpuReason::Measured(_))
                    }
                ),
                "{timings:?}"
            );
        }
    }

    /// `gpu` and `cpu` force their path whatever was measured, with no figures.
    #[test]
    fn forced_paths_ignore_timings() {
        for timings in [None, Some(t(1.0, 9.0)), Some(t(9.0, 1.0))] {
            assert_eq!(
                choose(BackendChoice::Gpu, timings),
                Pick::Gpu { measured: None }
            );
            assert_eq!(
                choose(BackendChoice::Cpu, timings),
                Pick::Cpu { notice: None }
            );
        }
        assert!(wants_measurement(BackendChoice::Auto));
        assert!(!wants_measurement(BackendChoice::Gpu));
        assert!(!wants_measurement(BackendChoice::Cpu));
        assert_eq!(
            choose(BackendChoice::Auto, None),
            Pick::Gpu { measured: None }
        );
    }

    /// The English notice carries both figures and the path taken.
    #[test]
    fn notice_has_both_figures() {
        assert_eq!(
            CpuReason::Measured(t(21.04, 6.8)).to_string(),
            "WebGPU 21.0 ms/step, CPU 6.8 ms/step: using the CPU"
        );
        assert_eq!(
            t(2.1, 6.84).to_string(),
            "WebGPU 2.1 ms/step, CPU 6.8 ms/step: using WebGPU"
        );
    }

    /// The timed steps fit the budget by the warm-up's time: at least one, at most the cap.
    #[test]
    fn timed_steps_fit_the_budget() {
        assert_eq!(steps_within(100.0), 5);
        assert_eq!(steps_within(2000.0), 1);
        assert_eq!(steps_within(1.0), MEASURE_MAX_STEPS);
        assert_eq!(steps_within(0.0), MEASURE_MAX_STEPS);
        assert_eq!(steps_within(f64::NAN), MEASURE_MAX_STEPS);
    }

    /// Timings are kept per shape.
    #[test]
    fn cache_is_per_shape() {
        let cfg = TrainConfig::default();
        let a = Shape::of(&cfg, 18);
        let b = Shape::of(
            &TrainConfig {
                hidden_size: cfg.hidden_size + 1,
                ..cfg.clone()
            },
            18,
        );
        remember(a, t(1.0, 2.0));
        assert_eq!(cached(&a), Some(t(1.0, 2.0)));
        assert_eq!(cached(&b), None);
    }
}
