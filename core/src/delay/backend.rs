//! Which path each cell of a delay-copy sweep trains on, from the configuration's `backend`, as
//! on the names page ([`crate::train::choice`]): `cpu` and `gpu` force their path; `auto` times
//! a few training steps of both paths at the sweep's shapes (vocabulary, length, delay, hidden
//! size, batch) for each cell, on throwaway trainers (the runs' own weights, Adam state and
//! token streams never see the measurement), once per shape in the engine's life, and takes
//! the faster. A GPU that cannot be set up leaves every cell on the CPU, with the reason.

use std::cell::RefCell;
use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::run::Sweep;
use super::task::DelayTask;
use super::trainer::{CellTrainer, Recipe};
use crate::config::delay::DelayConfig;
use crate::config::BackendChoice;
use crate::gpu::{GpuContext, GpuError};
use crate::math::params::CellKind;
use crate::train::choice::{choose, steps_within, wants_measurement, Pick, StepTimings};
use crate::train::clock::{now_ms, yield_now};
use crate::train::session::{BackendKind, CpuReason};

/// The path one cell's runs train on, and why ([`crate::engine::protocol::DelayEvent::Backend`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellBackend {
    /// The cell.
    pub cell: CellKind,
    /// WebGPU (with the adapter and `auto`'s timings) or the CPU (with the reason when the
    /// GPU was wanted).
    pub kind: BackendKind,
}

/// What the timings of a cell's steps depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    cell: CellKind,
    vocab: usize,
    length: usize,
    delay: usize,
    hidden_size: usize,
    batch_size: usize,
}

impl Shape {
    /// The shape of `cell`'s runs in a sweep of `config`.
    pub fn of(config: &DelayConfig, cell: CellKind) -> Shape {
        let recipe = Recipe::of(config);
        Shape {
            cell,
            vocab: config.vocab,
            length: config.length,
            delay: config.delay,
            hidden_size: recipe.hidden_size,
            batch_size: recipe.batch_size,
        }
    }
}

thread_local! {
    static MEASURED: RefCell<HashMap<Shape, StepTimings>> = RefCell::new(HashMap::new());
}

/// Times training steps of `cell` on `task` with `recipe` on both paths (ms per step): one
/// untimed warm-up step each, then the steps that fit the names page's budget
/// ([`steps_within`]), on trainers of their own.
///
/// # Errors
/// The GPU's error when the model cannot be set up there or the device fails meanwhile.
pub async fn measure(
    cell: CellKind,
    task: &DelayTask,
    recipe: &Recipe,
    ctx: &GpuContext,
) -> Result<StepTimings, GpuError> {
    let mut gpu = CellTrainer::new(cell, task, recipe, 0);
    gpu.attach_gpu(ctx, task)?;
    let gpu_ms = time_steps(&mut gpu).await;
    if let Some((e, _)) = gpu.take_fallback() {
        return Err(e);
    }
    drop(gpu);
    yield_now().await;
    let mut cpu = CellTrainer::new(cell, task, recipe, 0);
    let cpu_ms = time_steps(&mut cpu).await;
    Ok(StepTimings { gpu_ms, cpu_ms })
}

/// Milliseconds per step of `trainer` after a warm-up step.
async fn time_steps(trainer: &mut CellTrainer) -> f64 {
    let warm = now_ms();
    trainer.step_async().await;
    let steps = steps_within(now_ms() - warm);
    let start = now_ms();
    for _ in 0..steps {
        trainer.step_async().await;
    }
    (now_ms() - start) / steps as f64
}

/// Decides the path of every cell of `sweep` (of `config`) and gives the GPU cells to the
/// sweep ([`Sweep::plan_gpu`]); returns each cell's path in display order. `webgpu`: whether
/// the engine sees WebGPU at all (always true natively); without it the reason says the
/// browser offers no WebGPU to the engine's worker.
pub async fn plan(config: &DelayConfig, sweep: &mut Sweep, webgpu: bool) -> Vec<CellBackend> {
    let cells = config.cell.cells();
    let every = |kind: BackendKind| -> Vec<CellBackend> {
        cells
            .iter()
            .map(|&cell| CellBackend {
                cell,
                kind: kind.clone(),
            })
            .collect()
    };
    if config.backend == BackendChoice::Cpu {
        return every(BackendKind::Cpu { notice: None });
    }
    let ctx = match GpuContext::new().await {
        Ok(ctx) => ctx,
        Err(e) if !webgpu => {
            return every(BackendKind::Cpu {
                notice: Some(CpuReason::NoWorkerWebGpu(e)),
            })
        }
        Err(e) => {
            return every(BackendKind::Cpu {
                notice: Some(CpuReason::GpuUnavailable(e)),
            })
        }
    };
    let recipe = Recipe::of(config);
    let mut out = Vec::with_capacity(cells.len());
    let mut on_gpu = Vec::new();
    for &cell in cells {
        let shape = Shape::of(config, cell);
        let mut timings = None;
        if wants_measurement(config.backend) {
            timings = MEASURED.with(|m| m.borrow().get(&shape).copied());
            if timings.is_none() {
                match measure(cell, sweep.task(), &recipe, &ctx).await {
                    Ok(t) => {
                        MEASURED.with(|m| m.borrow_mut().insert(shape, t));
                        timings = Some(t);
                    }
                    Err(e) => {
                        let lost =
                            matches!(e, GpuError::DeviceLost(_)) || ctx.lost_reason().is_some();
                        let notice = if lost {
                            CpuReason::LostWhileMeasuring(e)
                        } else {
                            CpuReason::GpuUnavailable(e)
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
        let kind = match choose(config.backend, timings) {
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
    if !on_gpu.is_empty() {
        sweep.plan_gpu(ctx, on_gpu);
    }
    out
}
