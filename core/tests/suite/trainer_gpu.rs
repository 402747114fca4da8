//! The one trainer on the GPU path (natively on lavapipe) for every lab task — delay-copy, the
//! adding problem (dense input, squared error), copy memory (the last 10 steps) and temporal
//! order (packed lengths) — against the CPU path from the same weights and stream. Float sums
//! differ between the paths, so training is compared by outcome: step 1 within 1e-5 relative,
//! the first steps closely, the held-out figures after a short run. Also: a restored GPU
//! trainer goes on from the state, a lost device hands a sweep to the CPU from the step
//! reached, `backend` picks each cell's path, and a model the GPU path does not implement (names
//! generation conditioned on the initial state) trains on the CPU with the reason.

use crate::gpu_support;

use std::sync::Arc;

use gpu_support::context;
use unroll_core::config::delay::{CellSet, DelayConfig, LabTask};
use unroll_core::config::BackendChoice;
use unroll_core::data::{locate_names_dir, NamesDataset};
use unroll_core::math::params::CellKind;
use unroll_core::task::generate::{Conditioning, GenerateTask};
use unroll_core::task::Task;
use unroll_core::train::backend::{self, gpu_sizes, BackendKind, GpuPlan};
use unroll_core::train::messages::CpuReason;
use unroll_core::train::sweep::{Sweep, SweepPlan, Tick};
use unroll_core::train::trainer::{at_once, Backend, Recipe, Trainer};

fn small(task: LabTask, steps: u64) -> DelayConfig {
    let length = match task {
        LabTask::Delay => 16,
        LabTask::Adding => 20,
        LabTask::Copy => 6,
        LabTask::Order => 62,
        LabTask::Generate => unreachable!("names generation trains on the names data"),
    };
    DelayConfig {
        task,
        delay: 3,
        length,
        hidden_size: 32,
        batch_size: 16,
        steps,
        seeds: 1,
        cell: CellSet::All,
        ..DelayConfig::default()
    }
}

const TASKS: [LabTask; 4] = [
    LabTask::Delay,
    LabTask::Adding,
    LabTask::Copy,
    LabTask::Order,
];

fn plan(cfg: &DelayConfig) -> SweepPlan {
    SweepPlan::of_lab(cfg).unwrap()
}

/// A trainer of `cell` for `plan` with `seed`, on the GPU of `ctx`.
fn on_gpu(
    plan: &SweepPlan,
    cell: CellKind,
    seed: u32,
    ctx: &unroll_core::gpu::GpuContext,
) -> Trainer {
    let task = plan.task.as_ref();
    let mut t = Trainer::new(task, cell, &plan.recipe, seed);
    let (max_batch, max_len) = gpu_sizes(task, &plan.recipe);
    t.attach_gpu(ctx, task.shape().input.kind(), max_batch, max_len)
        .unwrap();
    t
}

/// Every task and cell: step 1 on the GPU has the CPU's loss (relative 1e-5), accuracy and
/// gradient norm, and the losses of the first 20 steps stay close.
#[test]
fn gpu_steps_track_the_cpu_losses() {
    let ctx = context();
    for task in TASKS {
        let plan = plan(&small(task, 20));
        for cell in CellKind::ALL {
            let mut cpu = Trainer::new(plan.task.as_ref(), cell, &plan.recipe, 7);
            let mut gpu = on_gpu(&plan, cell, 7, &ctx);
            assert_eq!(gpu.backend(), Backend::Gpu);
            assert_eq!(
                gpu.params(),
                cpu.params(),
                "{task:?} {cell:?}: same initial weights"
            );
            for k in 1..=20 {
                let (a, b) = (at_once(cpu.step()), at_once(gpu.step()));
                assert_eq!(b.step, a.step);
                assert_eq!((a.backend, b.backend), (Backend::Cpu, Backend::Gpu));
                assert!(!a.skipped && !b.skipped, "{task:?} {cell:?} step {k}");
                let rel = (a.loss - b.loss).abs() / a.loss.abs();
                let bound = if k == 1 { 1e-5 } else { 2e-2 };
                assert!(
                    rel <= bound,
                    "{task:?} {cell:?} step {k}: CPU loss {} GPU loss {} ({rel:.1e})",
                    a.loss,
                    b.loss
                );
                if k == 1 {
                    assert!((a.acc - b.acc).abs() <= 1.0 / 160.0, "{task:?} {cell:?}");
                    let n = (a.grad_norm - b.grad_norm).abs() / a.grad_norm;
                    assert!(
                        n <= 1e-3,
                        "{task:?} {cell:?}: norms {} {}",
                        a.grad_norm,
                        b.grad_norm
                    );
                }
            }
            assert!(
                gpu.take_fallback().is_none(),
                "{task:?} {cell:?}: no fallback"
            );
            at_once(gpu.sync());
            let fresh = Trainer::new(plan.task.as_ref(), cell, &plan.recipe, 7);
            assert_ne!(
                gpu.params(),
                fresh.params(),
                "{task:?} {cell:?}: it trained"
            );
        }
    }
}

/// The held-out evaluation on the GPU gives the CPU's figures for the same weights, for every
/// task's readout and loss.
#[test]
fn gpu_evaluations_give_the_cpu_figures() {
    let ctx = context();
    for task in TASKS {
        let plan = plan(&small(task, 5));
        let heldout = plan.task.heldout(plan.recipe.batch_size);
        let mut cpu = Trainer::new(plan.task.as_ref(), CellKind::Lstm, &plan.recipe, 3);
        let mut gpu = on_gpu(&plan, CellKind::Lstm, 3, &ctx);
        let (a, b) = (
            at_once(cpu.evaluate(&heldout, true)),
            at_once(gpu.evaluate(&heldout, true)),
        );
        assert!(gpu.take_fallback().is_none());
        assert_eq!(a.sums.count, b.sums.count, "{task:?}");
        let rel = (a.sums.mean_loss() - b.sums.mean_loss()).abs() / a.sums.mean_loss();
        assert!(rel <= 1e-5, "{task:?}: {:?} {:?}", a.sums, b.sums);
        assert!(
            (a.sums.accuracy() - b.sums.accuracy()).abs() <= 2.0 / a.sums.count as f64,
            "{task:?}"
        );
    }
}

/// A short run of every cell at a small size reaches the same held-out accuracy on both paths
/// within 0.03 (same seed, stream and held-out set; the GPU evaluates on the GPU).
#[test]
fn gpu_and_cpu_runs_reach_the_same_heldout_accuracy() {
    let cfg = DelayConfig {
        steps: 150,
        ..small(LabTask::Delay, 150)
    };
    let finish = |mut sweep: Sweep| {
        let backends: Vec<Backend> = std::iter::from_fn(|| sweep.tick())
            .flat_map(|t| t.steps.into_iter().map(|s| s.backend))
            .collect();
        let accs = sweep
            .results()
            .iter()
            .map(|r| (r.run.cell, r.curve.last().unwrap().acc))
            .collect::<Vec<_>>();
        (accs, backends)
    };
    let mut p = plan(&cfg);
    p.eval_every = 50;
    let (cpu, cpu_backends) = finish(Sweep::new(p.clone()));
    assert!(cpu_backends.iter().all(|b| *b == Backend::Cpu));
    let mut gpu_sweep = Sweep::new(p.clone());
    gpu_sweep.plan_gpu(GpuPlan {
        ctx: context(),
        cells: p.cells.clone(),
    });
    let (gpu, gpu_backends) = finish(gpu_sweep);
    assert!(
        gpu_backends.iter().all(|b| *b == Backend::Gpu),
        "every run stayed on the GPU"
    );
    eprintln!("held-out accuracy CPU {cpu:?} GPU {gpu:?}");
    assert_eq!(cpu.len(), 3);
    for ((cell, a), (cell_g, b)) in cpu.iter().zip(&gpu) {
        assert_eq!(cell, cell_g);
        // The run learned something (chance is 1/vocab = 0.1).
        assert!(*a > 0.2, "{cell:?}: CPU accuracy {a}");
        assert!((a - b).abs() <= 0.03, "{cell:?}: CPU {a} GPU {b}");
    }
}

/// A GPU trainer restored from a CPU trainer's state goes on with the CPU's steps: the
/// restored weights and Adam's state reach the GPU (first step after it within 1e-4).
#[test]
fn a_restored_gpu_trainer_goes_on_from_the_state() {
    let ctx = context();
    for task in TASKS {
        let plan = plan(&small(task, 20));
        for cell in CellKind::ALL {
            let mut cpu = Trainer::new(plan.task.as_ref(), cell, &plan.recipe, 5);
            at_once(cpu.steps(5));
            let mut gpu = on_gpu(&plan, cell, 5, &ctx);
            gpu.restore(&cpu.state()).unwrap();
            let (a, b) = (at_once(cpu.step()), at_once(gpu.step()));
            assert_eq!(gpu.backend(), Backend::Gpu, "{task:?} {cell:?}");
            assert_eq!(b.step, 6);
            let rel = (a.loss - b.loss).abs() / a.loss.abs();
            assert!(
                rel <= 1e-4,
                "{task:?} {cell:?}: CPU loss {} GPU loss {}",
                a.loss,
                b.loss
            );
        }
    }
}

/// Every tick of a sweep, awaited.
fn ticks(sweep: &mut Sweep) -> Vec<Tick> {
    std::iter::from_fn(|| pollster::block_on(sweep.tick_async())).collect()
}

/// The first step's loss of every run, by cell, and each run's last held-out loss.
fn figures(ticks: &[Tick]) -> Vec<(CellKind, f64, f64)> {
    ticks
        .iter()
        .filter_map(|t| t.finished.as_ref())
        .map(|r| {
            let first = ticks
                .iter()
                .filter(|t| t.run == r.run)
                .find_map(|t| t.steps.iter().find(|s| s.step == 1).copied())
                .unwrap();
            (r.run.cell, first.loss, r.last().unwrap().loss)
        })
        .collect()
}

/// A sweep of every long-memory task whose cells are planned on the GPU trains every run
/// there from its first tick (moved lazily, as in the browser's worker): step 1 has the CPU
/// sweep's loss (relative 1e-5), the held-out loss after 20 steps stays close, and each result
/// records its path.
#[test]
fn a_sweep_planned_on_the_gpu_tracks_the_cpu_and_records_its_path() {
    for task in TASKS {
        let cfg = DelayConfig {
            cell: CellSet::Both,
            ..small(task, 20)
        };
        let mut p = plan(&cfg);
        p.eval_every = 10;
        let mut cpu = Sweep::new(p.clone());
        let cpu_ticks = ticks(&mut cpu);
        let mut gpu = Sweep::new(p.clone());
        gpu.plan_gpu(GpuPlan {
            ctx: context(),
            cells: p.cells.clone(),
        });
        let gpu_ticks = ticks(&mut gpu);
        assert!(gpu_ticks.iter().all(|t| t.fell_back.is_none()));
        assert!(gpu_ticks
            .iter()
            .flat_map(|t| &t.steps)
            .all(|s| s.backend == Backend::Gpu));
        let (a, b) = (figures(&cpu_ticks), figures(&gpu_ticks));
        eprintln!("{task:?} CPU {a:?}\nGPU {b:?}");
        assert_eq!(a.len(), p.cells.len());
        for ((cell, first, last), (cell_g, first_g, last_g)) in a.iter().zip(&b) {
            assert_eq!(cell, cell_g);
            assert!(
                (first - first_g).abs() / first <= 1e-5,
                "{task:?} {cell:?}: {first} {first_g}"
            );
            assert!(
                (last - last_g).abs() / last <= 2e-2,
                "{task:?} {cell:?}: {last} {last_g}"
            );
        }
        for r in gpu.results() {
            assert_eq!((r.backend, r.cpu_from), (Some(Backend::Gpu), None));
        }
        for r in cpu.results() {
            assert_eq!((r.backend, r.cpu_from), (Some(Backend::Cpu), None));
        }
    }
}

/// A device lost in the middle of a sweep: the tick after it says so, the steps go on on the
/// CPU without a gap or a repeat, and the results record from which step.
#[test]
fn a_lost_device_hands_the_sweep_to_the_cpu_from_the_same_step() {
    let cfg = DelayConfig {
        cell: CellSet::Both,
        ..small(LabTask::Delay, 12)
    };
    let mut p = plan(&cfg);
    p.eval_every = 6;
    let mut sweep = Sweep::new(p);
    sweep.plan_gpu(GpuPlan {
        ctx: context(),
        cells: vec![CellKind::Rnn, CellKind::Lstm],
    });
    // The evaluation at step 0 of each cell, then a burst of 6 steps of each (to the
    // evaluation at step 6).
    let before: Vec<Tick> = (0..4)
        .map(|_| pollster::block_on(sweep.tick_async()).unwrap())
        .collect();
    assert!(before
        .iter()
        .flat_map(|t| &t.steps)
        .all(|s| s.backend == Backend::Gpu));
    sweep.lose_device();
    let after = ticks(&mut sweep);
    let lost: Vec<CellKind> = after
        .iter()
        .filter(|t| t.fell_back.is_some())
        .map(|t| t.run.cell)
        .collect();
    assert_eq!(lost, [CellKind::Rnn, CellKind::Lstm]);
    for cell in [CellKind::Rnn, CellKind::Lstm] {
        let steps: Vec<u64> = before
            .iter()
            .chain(&after)
            .filter(|t| t.run.cell == cell)
            .flat_map(|t| t.steps.iter().map(|s| s.step))
            .collect();
        assert_eq!(steps, (1..=12).collect::<Vec<u64>>(), "{cell:?}");
        assert!(after
            .iter()
            .filter(|t| t.run.cell == cell)
            .flat_map(|t| &t.steps)
            .all(|s| s.backend == Backend::Cpu && s.loss.is_finite()));
    }
    for r in sweep.results() {
        assert_eq!(
            (r.backend, r.cpu_from),
            (Some(Backend::Gpu), Some(6)),
            "{:?}",
            r.run
        );
    }
}

/// The configuration's `backend` decides each cell's path: `cpu` sets up no GPU, `gpu` puts
/// every cell there unmeasured, `auto` measures both paths for each cell and takes the faster
/// (both figures finite and positive, the choice theirs) — for a long-memory task too.
#[test]
fn the_backend_key_picks_each_cells_path() {
    for task in [LabTask::Delay, LabTask::Order] {
        let run = |backend: BackendChoice| {
            let cfg = DelayConfig {
                backend,
                cell: CellSet::Both,
                ..small(task, 4)
            };
            let mut p = plan(&cfg);
            p.eval_every = 2;
            let (picked, gpu) = pollster::block_on(backend::plan(
                p.task.as_ref(),
                &p.cells,
                &p.recipe,
                backend,
                true,
            ));
            let mut sweep = Sweep::new(p);
            if let Some(gpu) = gpu {
                sweep.plan_gpu(gpu);
            }
            (picked, ticks(&mut sweep))
        };
        // `both` is RNN and LSTM for delay-copy, the three cells for a long-memory task.
        let cells = plan(&DelayConfig {
            cell: CellSet::Both,
            ..small(task, 4)
        })
        .cells;
        let path_of = |ticks: &[Tick], cell: CellKind| -> Vec<Backend> {
            ticks
                .iter()
                .filter(|t| t.run.cell == cell)
                .flat_map(|t| t.steps.iter().map(|s| s.backend))
                .collect()
        };
        let (cpu, ticks) = run(BackendChoice::Cpu);
        assert!(cpu
            .iter()
            .all(|b| b.kind == BackendKind::Cpu { notice: None }));
        assert!(ticks
            .iter()
            .flat_map(|t| &t.steps)
            .all(|s| s.backend == Backend::Cpu));

        let (gpu, ticks) = run(BackendChoice::Gpu);
        assert_eq!(gpu.iter().map(|b| b.cell).collect::<Vec<_>>(), cells);
        assert!(gpu
            .iter()
            .all(|b| matches!(b.kind, BackendKind::Gpu { measured: None, .. })));
        assert!(ticks
            .iter()
            .flat_map(|t| &t.steps)
            .all(|s| s.backend == Backend::Gpu));

        let (auto, ticks) = run(BackendChoice::Auto);
        for b in &auto {
            let (t, on_gpu) = match &b.kind {
                BackendKind::Gpu { measured, .. } => (measured.unwrap(), true),
                BackendKind::Cpu {
                    notice: Some(CpuReason::Measured(t)),
                } => (*t, false),
                other => panic!("{task:?} {:?}: {other:?}", b.cell),
            };
            eprintln!("{task:?} {:?}: {t}", b.cell);
            assert!(t.gpu_ms > 0.0 && t.cpu_ms > 0.0, "{t:?}");
            assert_eq!(on_gpu, t.gpu_faster());
            let path = if on_gpu { Backend::Gpu } else { Backend::Cpu };
            assert!(path_of(&ticks, b.cell).iter().all(|&p| p == path));
        }
    }
}

/// Names generation on the real names data (split seed 0), conditioned by `conditioning`.
fn names_generation(conditioning: Conditioning) -> GenerateTask {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let data = NamesDataset::load_dir(&locate_names_dir(&root).unwrap()).unwrap();
    GenerateTask::new(Arc::new(data), 0, conditioning)
}

/// The names generator (dense input: letters, start marker and language; every step read;
/// batches of one length each) on the GPU path: step 1 has the CPU's loss within 1e-5
/// relative for every cell, one and two directions, and the held-out figures agree.
#[test]
fn the_names_generator_steps_on_the_gpu_as_on_the_cpu() {
    let ctx = context();
    let task = names_generation(Conditioning::Input);
    let heldout = task.heldout(16);
    for bidirectional in [false, true] {
        let recipe = Recipe {
            hidden_size: 16,
            batch_size: 16,
            bidirectional,
            ..Recipe::default()
        };
        for cell in CellKind::ALL {
            let what = format!("{cell:?} bidirectional={bidirectional}");
            let mut cpu = Trainer::new(&task, cell, &recipe, 5);
            let mut gpu = Trainer::new(&task, cell, &recipe, 5);
            let (max_batch, max_len) = gpu_sizes(&task, &recipe);
            gpu.attach_gpu(&ctx, task.shape().input.kind(), max_batch, max_len)
                .unwrap();
            for k in 1..=5 {
                let (a, b) = (at_once(cpu.step()), at_once(gpu.step()));
                assert_eq!(b.backend, Backend::Gpu, "{what}");
                let rel = (a.loss - b.loss).abs() / a.loss.abs();
                let bound = if k == 1 { 1e-5 } else { 2e-2 };
                assert!(
                    rel <= bound,
                    "{what} step {k}: CPU {} GPU {}",
                    a.loss,
                    b.loss
                );
            }
            let (a, b) = (
                at_once(cpu.evaluate(&heldout, false)),
                at_once(gpu.evaluate(&heldout, false)),
            );
            assert!(gpu.take_fallback().is_none(), "{what}: no fallback");
            assert_eq!(a.sums.count, b.sums.count, "{what}");
            let rel = (a.sums.mean_loss() - b.sums.mean_loss()).abs() / a.sums.mean_loss();
            assert!(rel <= 1e-3, "{what}: {:?} {:?}", a.sums, b.sums);
        }
    }
}

/// Names generation conditioned on the initial state: the GPU path does not take the
/// language's map to h₀ yet, so `auto` keeps its cells on the CPU and says why
/// ([`CpuReason::NotOnGpuPath`], not an unavailable GPU), and a forced GPU run falls back at
/// its first step with the same error, its steps on the CPU.
#[test]
fn a_state_conditioned_generator_trains_on_the_cpu_and_says_why() {
    use unroll_core::gpu::GpuError;

    let ctx = context();
    let task = names_generation(Conditioning::State);
    let recipe = Recipe {
        hidden_size: 8,
        batch_size: 16,
        ..Recipe::default()
    };
    let (picked, gpu) = pollster::block_on(backend::plan(
        &task,
        &[CellKind::Gru],
        &recipe,
        BackendChoice::Auto,
        true,
    ));
    assert!(gpu.is_none(), "no cell on the GPU");
    match &picked[0].kind {
        BackendKind::Cpu {
            notice: Some(CpuReason::NotOnGpuPath(GpuError::Unsupported(why))),
        } => assert!(why.contains("initial state"), "{why}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        CpuReason::NotOnGpuPath(GpuError::Unsupported("an initial state".into())).to_string(),
        "The GPU path does not train this model yet (not supported on the GPU path yet: an \
         initial state); training runs on the CPU."
    );
    let mut t = Trainer::new(&task, CellKind::Gru, &recipe, 5);
    let (max_batch, max_len) = gpu_sizes(&task, &recipe);
    let e = t
        .attach_gpu(&ctx, task.shape().input.kind(), max_batch, max_len)
        .unwrap_err();
    assert!(matches!(
        CpuReason::setup(e),
        CpuReason::NotOnGpuPath(GpuError::Unsupported(_))
    ));
    assert_eq!(at_once(t.step()).backend, Backend::Cpu);
}
