//! The delay-copy task on the GPU path (natively on lavapipe): the per-token model on the WGSL
//! kernels against the CPU path from the same weights and token stream. Float sums differ
//! between the paths, so training is compared by outcome: the first steps' losses closely, the
//! held-out accuracy after a short run within 0.03.

use crate::gpu_support;

use gpu_support::context;
use unroll_core::config::delay::{CellSet, DelayConfig};
use unroll_core::config::BackendChoice;
use unroll_core::delay::backend;
use unroll_core::delay::run::{Sweep, Tick};
use unroll_core::delay::task::DelayTask;
use unroll_core::delay::trainer::{Backend, CellTrainer, Recipe};
use unroll_core::math::params::CellKind;
use unroll_core::train::session::{BackendKind, CpuReason};

fn small(delay: usize, steps: u64) -> DelayConfig {
    DelayConfig {
        delay,
        length: 16,
        hidden_size: 32,
        batch_size: 16,
        steps,
        seeds: 1,
        cell: CellSet::All,
        ..DelayConfig::default()
    }
}

/// Every cell: step 1 on the GPU has the CPU's loss (relative 1e-4), accuracy and gradient
/// norm, and the losses of the first 20 steps stay close (the weights are read back after each
/// step, so the trainer's parameters follow the GPU's).
#[test]
fn gpu_steps_track_the_cpu_losses() {
    let ctx = context();
    let cfg = small(3, 20);
    let task = DelayTask::new(cfg.vocab, cfg.length, cfg.delay).unwrap();
    let recipe = Recipe::of(&cfg);
    for cell in CellKind::ALL {
        let mut cpu = CellTrainer::new(cell, &task, &recipe, 7);
        let mut gpu = CellTrainer::new_gpu(cell, &task, &recipe, 7, &ctx).unwrap();
        assert_eq!(gpu.backend(), Backend::Gpu);
        assert_eq!(gpu.params(), cpu.params(), "{cell:?}: same initial weights");
        for k in 1..=20 {
            let (a, b) = (cpu.step(), gpu.step());
            assert_eq!((b.step, b.cell, b.seed), (a.step, a.cell, a.seed));
            assert!(!a.skipped && !b.skipped, "{cell:?} step {k}");
            let rel = (a.loss - b.loss).abs() / a.loss.abs();
            let bound = if k == 1 { 1e-4 } else { 2e-2 };
            assert!(
                rel <= bound,
                "{cell:?} step {k}: CPU loss {} GPU loss {}",
                a.loss,
                b.loss
            );
            if k == 1 {
                assert!((a.token_acc - b.token_acc).abs() <= 1.0 / 208.0, "{cell:?}");
                let n = (a.grad_norm - b.grad_norm).abs() / a.grad_norm;
                assert!(n <= 1e-3, "{cell:?}: norms {} {}", a.grad_norm, b.grad_norm);
            }
        }
        assert_eq!(
            gpu.backend(),
            Backend::Gpu,
            "{cell:?}: no fallback happened"
        );
        assert_ne!(
            gpu.params(),
            CellTrainer::new(cell, &task, &recipe, 7).params()
        );
    }
}

/// A short run of every cell at a small size reaches the same held-out accuracy on both paths
/// within 0.03 (same seed, stream and held-out set; the GPU evaluates on the GPU).
#[test]
fn gpu_and_cpu_runs_reach_the_same_heldout_accuracy() {
    let ctx = context();
    let cfg = small(3, 150);
    let finish = |mut sweep: Sweep| {
        while sweep.tick().is_some() {}
        let backends: Vec<Backend> = sweep.runs().iter().map(|r| r.trainer().backend()).collect();
        let accs = sweep
            .results()
            .iter()
            .map(|r| (r.run.cell, r.curve.last().unwrap().acc))
            .collect::<Vec<_>>();
        (accs, backends)
    };
    let (cpu, cpu_backends) = finish(Sweep::with_eval_every(&cfg, 50).unwrap());
    assert!(cpu_backends.iter().all(|b| *b == Backend::Cpu));
    let on_gpu = Sweep::with_eval_every(&cfg, 50)
        .unwrap()
        .on_gpu(&ctx)
        .unwrap();
    let (gpu, gpu_backends) = finish(on_gpu);
    assert!(
        gpu_backends.iter().all(|b| *b == Backend::Gpu),
        "every run stayed on the GPU: {gpu_backends:?}"
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
    let cfg = small(3, 20);
    let task = DelayTask::new(cfg.vocab, cfg.length, cfg.delay).unwrap();
    let recipe = Recipe::of(&cfg);
    for cell in CellKind::ALL {
        let mut cpu = CellTrainer::new(cell, &task, &recipe, 5);
        for _ in 0..5 {
            cpu.step();
        }
        let mut gpu = CellTrainer::new_gpu(cell, &task, &recipe, 5, &ctx).unwrap();
        gpu.restore(&cpu.state()).unwrap();
        let (a, b) = (cpu.step(), gpu.step());
        assert_eq!(gpu.backend(), Backend::Gpu, "{cell:?}");
        assert_eq!(b.step, 6);
        let rel = (a.loss - b.loss).abs() / a.loss.abs();
        assert!(
            rel <= 1e-4,
            "{cell:?}: CPU loss {} GPU loss {}",
            a.loss,
            b.loss
        );
    }
}

fn both(steps: u64) -> DelayConfig {
    DelayConfig {
        cell: CellSet::Both,
        ..small(3, steps)
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
                .find_map(|t| t.step.filter(|s| s.step == 1 && t.run == r.run))
                .unwrap();
            (r.run.cell, first.loss, r.last().unwrap().loss)
        })
        .collect()
}

/// A sweep whose cells are planned on the GPU trains every run there from its first tick
/// (moved lazily, as in the browser's worker): step 1 has the CPU sweep's loss (relative
/// 1e-4), the held-out loss after 20 steps stays close, and each result records its path.
#[test]
fn a_sweep_planned_on_the_gpu_tracks_the_cpu_and_records_its_path() {
    let cfg = both(20);
    let mut cpu = Sweep::with_eval_every(&cfg, 10).unwrap();
    let cpu_ticks = ticks(&mut cpu);
    let mut gpu = Sweep::with_eval_every(&cfg, 10).unwrap();
    gpu.plan_gpu(context(), vec![CellKind::Rnn, CellKind::Lstm]);
    let gpu_ticks = ticks(&mut gpu);
    assert_eq!(cpu_ticks.len(), gpu_ticks.len());
    assert!(gpu_ticks.iter().all(|t| t.fell_back.is_none()));
    assert!(gpu_ticks
        .iter()
        .filter_map(|t| t.step)
        .all(|s| s.backend == Backend::Gpu));
    let (a, b) = (figures(&cpu_ticks), figures(&gpu_ticks));
    eprintln!("CPU {a:?}\nGPU {b:?}");
    assert_eq!(a.len(), 2);
    for ((cell, first, last), (cell_g, first_g, last_g)) in a.iter().zip(&b) {
        assert_eq!(cell, cell_g);
        assert!(
            (first - first_g).abs() / first <= 1e-4,
            "{cell:?}: {first} {first_g}"
        );
        assert!(
            (last - last_g).abs() / last <= 1e-2,
            "{cell:?}: {last} {last_g}"
        );
    }
    for r in gpu.results() {
        assert_eq!((r.backend, r.cpu_from), (Some(Backend::Gpu), None));
    }
    for r in cpu.results() {
        assert_eq!((r.backend, r.cpu_from), (Some(Backend::Cpu), None));
    }
}

/// A device lost in the middle of a sweep: the tick after it says so, the steps go on on the
/// CPU without a gap or a repeat, and the results record from which step.
#[test]
fn a_lost_device_hands_the_sweep_to_the_cpu_from_the_same_step() {
    let cfg = both(12);
    let mut sweep = Sweep::with_eval_every(&cfg, 6).unwrap();
    sweep.plan_gpu(context(), vec![CellKind::Rnn, CellKind::Lstm]);
    // The evaluation at step 0 of each cell, then 5 steps of each.
    let mut before = Vec::new();
    for _ in 0..12 {
        before.push(pollster::block_on(sweep.tick_async()).unwrap());
    }
    assert!(before
        .iter()
        .filter_map(|t| t.step)
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
            .filter_map(|t| t.step.filter(|s| s.cell == cell))
            .map(|s| s.step)
            .collect();
        assert_eq!(steps, (1..=12).collect::<Vec<u64>>(), "{cell:?}");
        assert!(after
            .iter()
            .filter_map(|t| t.step.filter(|s| s.cell == cell))
            .all(|s| s.backend == Backend::Cpu && s.loss.is_finite()));
    }
    for r in sweep.results() {
        assert_eq!(
            (r.backend, r.cpu_from),
            (Some(Backend::Gpu), Some(5)),
            "{:?}",
            r.run
        );
    }
}

/// The configuration's `backend` decides each cell's path: `cpu` sets up no GPU, `gpu` puts
/// every cell there unmeasured, `auto` measures both paths for each cell and takes the faster
/// (both figures finite and positive, the choice theirs).
#[test]
fn the_backend_key_picks_each_cells_path() {
    let plan = |backend: BackendChoice| {
        let cfg = DelayConfig { backend, ..both(4) };
        let mut sweep = Sweep::with_eval_every(&cfg, 2).unwrap();
        let picked = pollster::block_on(backend::plan(&cfg, &mut sweep, true));
        let ticks = ticks(&mut sweep);
        (picked, ticks)
    };
    let (cpu, ticks) = plan(BackendChoice::Cpu);
    assert!(cpu
        .iter()
        .all(|b| b.kind == BackendKind::Cpu { notice: None }));
    assert!(ticks
        .iter()
        .filter_map(|t| t.step)
        .all(|s| s.backend == Backend::Cpu));

    let (gpu, ticks) = plan(BackendChoice::Gpu);
    assert_eq!(
        gpu.iter().map(|b| b.cell).collect::<Vec<_>>(),
        [CellKind::Rnn, CellKind::Lstm]
    );
    assert!(gpu
        .iter()
        .all(|b| matches!(b.kind, BackendKind::Gpu { measured: None, .. })));
    assert!(ticks
        .iter()
        .filter_map(|t| t.step)
        .all(|s| s.backend == Backend::Gpu));

    let (auto, ticks) = plan(BackendChoice::Auto);
    for b in &auto {
        let (t, on_gpu) = match &b.kind {
            BackendKind::Gpu { measured, .. } => (measured.unwrap(), true),
            BackendKind::Cpu {
                notice: Some(CpuReason::Measured(t)),
            } => (*t, false),
            other => panic!("{:?}: {other:?}", b.cell),
        };
        eprintln!("{:?}: {t}", b.cell);
        assert!(t.gpu_ms > 0.0 && t.cpu_ms > 0.0, "{t:?}");
        assert_eq!(on_gpu, t.gpu_faster());
        let path = if on_gpu { Backend::Gpu } else { Backend::Cpu };
        assert!(ticks
            .iter()
            .filter_map(|t| t.step.filter(|s| s.cell == b.cell))
            .all(|s| s.backend == path));
    }
}
