//! Which path each cell of a sweep trains on (`backend`): `cpu` and `gpu` force their path;
//! `auto` measures both.
//!
//! Where WebGPU is offered, the faster path depends on the device and on the run's shapes (a
//! software rasteriser such as SwiftShader can be several times slower than the CPU path; a
//! real GPU is faster at large hidden sizes and batches). So `auto` times a few training steps
//! of each path for each cell at the sweep's shapes (the task, the cell, the recipe's sizes),
//! on throwaway trainers (the runs' own weights, Adam state and streams never see the
//! measurement): one untimed warm-up step, then up to [`MEASURE_BUDGET_MS`] (at most
//! [`MEASURE_MAX_STEPS`]) of each, and takes the faster (a tie keeps the CPU, the reference
//! path); the notice gives both figures ("WebGPU 2.1 ms/step, CPU 6.8 ms/step: using
//! WebGPU"). The timings are kept per shape for the engine's life (in the browser: once per
//! tab, in the engine's worker), so a second run of the same shape is not measured again, and
//! where they found the CPU faster for every cell no GPU device is set up at all. A GPU that
//! cannot be set up, or is lost while measuring, leaves the cells on the CPU, with the reason.
//!
//! - [`choose`]: the pure decision, from the request and the two timings (native tests).
//! - [`measure`]: the timing itself.
//! - [`plan`]: every cell's path, and the GPU the sweep's GPU cells train on.

use std::cell::RefCell;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::clock::{now_ms, yield_now};
use super::trainer::{Recipe, Trainer};
use crate::config::BackendChoice;
use crate::gpu::{GpuContext, GpuError};
use crate::math::params::CellKind;
use crate::task::Task;

/// Milliseconds of timed steps per path (after a warm-up step that is not timed): the two
/// paths together take about 1.5 s at most, warm-ups included, unless one step alone takes
/// longer than a quarter of that.
pub const MEASURE_BUDGET_MS: f64 = 500.0;
/// Most timed steps per path.
pub const MEASURE_MAX_STEPS: usize = 12;

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

/// Why a run that wanted the GPU trains on the CPU
/// ([`BackendKind::Cpu`]'s `notice`; its English in [`super::messages`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CpuReason {
    /// No GPU could be set up.
    GpuUnavailable(GpuError),
    /// The browser offers WebGPU to pages but not to Web Workers, where the engine trains.
    NoWorkerWebGpu(GpuError),
    /// The GPU device was lost during training; the CPU goes on from step `step`.
    DeviceLost {
        /// The GPU's error.
        error: GpuError,
        /// The step training continues from.
        step: u64,
    },
    /// `backend=auto` measured both paths and the CPU was the faster one.
    Measured(StepTimings),
    /// The GPU device was lost while `backend=auto` measured the paths; the run trains on the
    /// CPU.
    LostWhileMeasuring(GpuError),
    /// The GPU path does not train this model yet ([`GpuError::Unsupported`]: e.g. names
    /// generation's initial state computed from the language); the run trains on the CPU.
    NotOnGpuPath(GpuError),
}

impl CpuReason {
    /// Why a model could not be set up on a working GPU: [`CpuReason::NotOnGpuPath`] for what
    /// the GPU path does not implement, else [`CpuReason::GpuUnavailable`].
    pub fn setup(error: GpuError) -> Self {
        match error {
            GpuError::Unsupported(_) => CpuReason::NotOnGpuPath(error),
            e => CpuReason::GpuUnavailable(e),
        }
    }
}

/// The path a run trains on, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum BackendKind {
    /// WGSL kernels; `description` is the adapter's name/driver (may be empty in browsers).
    Gpu {
        /// Adapter description.
        description: String,
        /// The timings of both paths, when `backend=auto` measured them.
        measured: Option<StepTimings>,
    },
    /// The CPU reference; `notice` says why the GPU is not used, when it was wanted.
    Cpu {
        /// Why not the GPU (None when the CPU was chosen explicitly).
        notice: Option<CpuReason>,
    },
}

/// The path one cell's runs train on, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellBackend {
    /// The cell.
    pub cell: CellKind,
    /// WebGPU (with the adapter and `auto`'s timings) or the CPU (with the reason when the
    /// GPU was wanted).
    pub kind: BackendKind,
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

/// Timed steps that fit [`MEASURE_BUDGET_MS`] when the warm-up step took `warm_ms` (the
/// warm-up is the slowest step, so this errs towards fewer): 1 to [`MEASURE_MAX_STEPS`].
pub fn steps_within(warm_ms: f64) -> usize {
    if warm_ms.is_nan() || warm_ms <= 0.0 {
        return MEASURE_MAX_STEPS;
    }
    ((MEASURE_BUDGET_MS / warm_ms).floor() as usize).clamp(1, MEASURE_MAX_STEPS)
}

/// What the timings of a cell's steps depend on: the task, the cell and the recipe's sizes.
fn shape_key(task: &dyn Task, cell: CellKind, recipe: &Recipe) -> String {
    format!(
        "{}|{}|h{}|l{}|b{}|n{}",
        task.settings(),
        cell.as_str(),
        recipe.hidden_size,
        recipe.num_layers,
        recipe.bidirectional,
        recipe.batch_size
    )
}

thread_local! {
    static MEASURED: RefCell<HashMap<String, StepTimings>> = RefCell::new(HashMap::new());
}

/// The timings measured earlier in this engine's life for `cell` on `task` with `recipe`.
pub fn cached(task: &dyn Task, cell: CellKind, recipe: &Recipe) -> Option<StepTimings> {
    MEASURED.with(|m| m.borrow().get(&shape_key(task, cell, recipe)).copied())
}

/// Keeps `timings` for later runs of `cell` on `task` with `recipe`.
pub fn remember(task: &dyn Task, cell: CellKind, recipe: &Recipe, timings: StepTimings) {
    MEASURED.with(|m| {
        m.borrow_mut()
            .insert(shape_key(task, cell, recipe), timings)
    });
}

/// The GPU buffers' sizes for runs of `task` with `recipe`: the larger of a training batch and
/// a held-out slice, and the longest sequence.
pub fn gpu_sizes(task: &dyn Task, recipe: &Recipe) -> (usize, usize) {
    let slice = task
        .heldout(recipe.batch_size)
        .iter()
        .map(|b| b.batch)
        .max()
        .unwrap_or(0);
    (
        recipe.batch_size.max(slice).max(1),
        task.shape().max_seq_len,
    )
}

/// Times training steps of `cell` on `task` with `recipe` on both paths (ms per step): one
/// untimed warm-up step each, then the steps that fit [`MEASURE_BUDGET_MS`]
/// ([`steps_within`]), on trainers of their own (seed 0).
///
/// # Errors
/// The GPU's error when the model cannot be set up there or the device fails meanwhile.
pub async fn measure(
    task: &dyn Task,
    cell: CellKind,
    recipe: &Recipe,
    ctx: &GpuContext,
) -> Result<StepTimings, GpuError> {
    let (max_batch, max_len) = gpu_sizes(task, recipe);
    let mut gpu = Trainer::new(task, cell, recipe, 0);
    gpu.attach_gpu(ctx, task.shape().input.kind(), max_batch, max_len)?;
    let gpu_ms = time_steps(&mut gpu).await;
    if let Some((e, _)) = gpu.take_fallback() {
        return Err(e);
    }
    drop(gpu);
    yield_now().await;
    let mut cpu = Trainer::new(task, cell, recipe, 0);
    let cpu_ms = time_steps(&mut cpu).await;
    Ok(StepTimings { gpu_ms, cpu_ms })
}

/// Milliseconds per step of `trainer` after a warm-up step (the timed steps in one burst, as
/// training submits them).
async fn time_steps(trainer: &mut Trainer) -> f64 {
    let warm = now_ms();
    trainer.step().await;
    let steps = steps_within(now_ms() - warm);
    let start = now_ms();
    trainer.steps(steps).await;
    (now_ms() - start) / steps as f64
}

/// The GPU of a sweep and the cells whose runs train on it.
pub struct GpuPlan {
    /// The device.
    pub ctx: GpuContext,
    /// The cells on it.
    pub cells: Vec<CellKind>,
}

/// Decides the path of each of `cells` for runs of `task` with `recipe` and the request
/// `request`; returns each cell's path in the given order and, when any cell trains on the
/// GPU, the device. `webgpu`: whether the engine sees WebGPU at all (always true natively);
/// without it the reason says the browser offers no WebGPU to the engine's worker.
pub async fn plan(
    task: &dyn Task,
    cells: &[CellKind],
    recipe: &Recipe,
    request: BackendChoice,
    webgpu: bool,
) -> (Vec<CellBackend>, Option<GpuPlan>) {
    let every = |kind: &dyn Fn(CellKind) -> BackendKind| -> Vec<CellBackend> {
        cells
            .iter()
            .map(|&cell| CellBackend {
                cell,
                kind: kind(cell),
            })
            .collect()
    };
    if request == BackendChoice::Cpu {
        return (every(&|_| BackendKind::Cpu { notice: None }), None);
    }
    // Timings from earlier in the engine's life that found the CPU faster for every cell: no
    // device is set up.
    if wants_measurement(request) {
        let known: Vec<Option<StepTimings>> = cells
            .iter()
            .map(|&c| cached(task, c, recipe).filter(|t| !t.gpu_faster()))
            .collect();
        if known.iter().all(Option::is_some) {
            let kinds = every(&|c| {
                let i = cells.iter().position(|&x| x == c).unwrap_or(0);
                BackendKind::Cpu {
                    notice: known[i].map(CpuReason::Measured),
                }
            });
            return (kinds, None);
        }
    }
    let ctx = match GpuContext::new().await {
        Ok(ctx) => ctx,
        Err(e) => {
            let reason = |e: &GpuError| {
                if webgpu {
                    CpuReason::GpuUnavailable(e.clone())
                } else {
                    CpuReason::NoWorkerWebGpu(e.clone())
                }
            };
            return (
                every(&|_| BackendKind::Cpu {
                    notice: Some(reason(&e)),
                }),
                None,
            );
        }
    };
    let mut out = Vec::with_capacity(cells.len());
    let mut on_gpu = Vec::new();
    for &cell in cells {
        let mut timings = None;
        if wants_measurement(request) {
            timings = cached(task, cell, recipe);
            if timings.is_none() {
                match measure(task, cell, recipe, &ctx).await {
                    Ok(t) => {
                        remember(task, cell, recipe, t);
                        timings = Some(t);
                    }
                    Err(e) => {
                        // A lost device may surface as another error (a failed read-back).
                        let lost =
                            matches!(e, GpuError::DeviceLost(_)) || ctx.lost_reason().is_some();
                        let notice = if lost {
                            CpuReason::LostWhileMeasuring(e)
                        } else {
                            CpuReason::setup(e)
                        };
                        out.push(CellBackend {
                            cell,
                            kind: BackendKind::Cpu {
                                notice: Some(notice),
                            },
                        });
                        continue;
                    }
                }
            }
        }
        let kind = match choose(request, timings) {
            Pick::Cpu { notice } => BackendKind::Cpu { notice },
            Pick::Gpu { measured } => {
                on_gpu.push(cell);
                BackendKind::Gpu {
                    description: ctx.description(),
                    measured,
                }
            }
        };
        out.push(CellBackend { cell, kind });
    }
    let gpu = (!on_gpu.is_empty()).then_some(GpuPlan { ctx, cells: on_gpu });
    (out, gpu)
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

    /// Timings are kept per task, cell and size.
    #[test]
    fn cache_is_per_shape() {
        let task = crate::task::delay::DelayTask::new(10, 20, 5).unwrap();
        let recipe = Recipe::default();
        let wider = Recipe {
            hidden_size: recipe.hidden_size + 1,
            ..recipe
        };
        remember(&task, CellKind::Lstm, &recipe, t(1.0, 2.0));
        assert_eq!(cached(&task, CellKind::Lstm, &recipe), Some(t(1.0, 2.0)));
        assert_eq!(cached(&task, CellKind::Lstm, &wider), None);
        assert_eq!(cached(&task, CellKind::Gru, &recipe), None);
    }
}
