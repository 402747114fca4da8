//! A sweep stopped mid-seed and resumed from its checkpoint, for each of the five tasks (names
//! classification, delay-copy, adding, copy memory, temporal order): the checkpoint goes
//! through the bytes the page keeps (postcard, as the engine's messages), a sweep of the rest
//! of the plan restores it, and every tick that follows — steps, losses, held-out
//! evaluations, the finished runs' results — is bit-identical to the uninterrupted sweep's. A
//! checkpoint of other settings, of another seed or of another model is refused and leaves the
//! sweep as it was.

use crate::gpu_support::{self, small_names};

use unroll_core::config::delay::{CellSet, DelayConfig, LabTask};
use unroll_core::config::{Head, TrainConfig};
use unroll_core::engine::protocol::{decode, encode};
use unroll_core::math::params::CellKind;
use unroll_core::train::backend::GpuPlan;
use unroll_core::train::sweep::{
    ResumeRefused, RunResult, Sweep, SweepCheckpoint, SweepPlan, Tick,
};
use unroll_core::train::trainer::at_once;

/// A small lab configuration of `task` with RNN and LSTM, two seeds from 7.
fn lab(task: LabTask) -> DelayConfig {
    let (length, steps) = match task {
        LabTask::Delay => (16, 40),
        LabTask::Adding => (12, 24),
        LabTask::Copy => (4, 24),
        LabTask::Order => (62, 12),
        LabTask::Generate => unreachable!("names generation trains on the names data"),
    };
    DelayConfig {
        task,
        cell: CellSet::Both,
        delay: 3,
        length,
        vocab: 5,
        hidden_size: 8,
        batch_size: 8,
        steps,
        seed: 7,
        seeds: 2,
        ..DelayConfig::default()
    }
}

/// The page's plan of a lab configuration, with a held-out evaluation every quarter of the
/// run instead of the page's twenty a run. The memory tasks evaluate 1,024 held-out sequences
/// (128 of these test batches), so at the page's cadence (every step or two at these budgets)
/// the evaluations were nearly all of this file's time; four a run still put evaluation ticks
/// before, at and after every cut below.
fn plan_of(config: &DelayConfig) -> SweepPlan {
    let plan = SweepPlan::of_lab(config).unwrap();
    SweepPlan {
        eval_every: plan.steps.div_ceil(4),
        ..plan
    }
}

/// The five tasks' plans: RNN and LSTM (the names lab: one cell), two seeds (names: one).
fn plans() -> Vec<(&'static str, SweepPlan)> {
    let mut out: Vec<(&'static str, SweepPlan)> = [
        ("delay", LabTask::Delay),
        ("adding", LabTask::Adding),
        ("copy", LabTask::Copy),
        ("order", LabTask::Order),
    ]
    .into_iter()
    .map(|(tag, t)| (tag, plan_of(&lab(t))))
    .collect();
    let cfg = TrainConfig {
        cell: CellKind::Gru,
        hidden_size: 8,
        batch_size: 16,
        epochs: 3,
        head: Head::Padded,
        seed: 3,
        ..TrainConfig::default()
    };
    out.push(("names", SweepPlan::of_names(&cfg, small_names())));
    out
}

/// A tick without its timing (the clock is not part of the numbers).
fn untimed(mut t: Tick) -> Tick {
    t.ms = 0.0;
    t.eval_ms = 0.0;
    t
}

/// Every tick of a sweep, to its end, untimed.
fn drain(sweep: &mut Sweep) -> Vec<Tick> {
    std::iter::from_fn(|| sweep.tick().map(untimed)).collect()
}

/// The rest of `plan` from the checkpoint's seed on (what the page resumes with).
fn rest_of(plan: &SweepPlan, c: &SweepCheckpoint) -> SweepPlan {
    let seed = c.seed().expect("a checkpoint has runs");
    let from = plan.seeds.iter().position(|&s| s == seed).unwrap();
    SweepPlan {
        seeds: plan.seeds[from..].to_vec(),
        ..plan.clone()
    }
}

/// The checkpoint of `sweep` after `n` more ticks, through the bytes the page keeps.
fn checkpoint_after(sweep: &mut Sweep, n: usize) -> SweepCheckpoint {
    for _ in 0..n {
        sweep.tick().expect("the sweep is not finished");
    }
    let c = at_once(sweep.checkpoint()).expect("a seed is in training");
    let back: SweepCheckpoint = decode(&encode(&c)).expect("the checkpoint reads back");
    assert_eq!(back, c);
    back
}

/// Resumes `plan` after `n` ticks of `start` and checks the ticks that follow against `full`.
fn check_resume(tag: &str, plan: &SweepPlan, full: &[Tick], n: usize, mut start: Sweep) {
    let c = checkpoint_after(&mut start, n);
    let rest = rest_of(plan, &c);
    c.fits(&rest).unwrap();
    let mut resumed = Sweep::new(rest);
    resumed.restore(&c).unwrap();
    assert_eq!(
        resumed.progress().steps_done,
        c.runs.iter().map(|r| r.trainer.step).sum::<u64>()
    );
    let after = drain(&mut resumed);
    // Bit for bit: every step's loss, accuracy and gradient norm, every evaluation.
    assert_eq!(after, full[n..], "{tag}: resumed after {n} ticks");
    let results: Vec<RunResult> = after.iter().filter_map(|t| t.finished.clone()).collect();
    for r in &results {
        let e = full
            .iter()
            .filter_map(|t| t.finished.as_ref())
            .find(|e| e.run == r.run)
            .unwrap();
        assert_eq!(r, e, "{tag}: {:?}", r.run);
        let (a, b) = (r.last().unwrap(), e.last().unwrap());
        assert_eq!(
            (a.step, a.acc.to_bits(), a.loss.to_bits()),
            (b.step, b.acc.to_bits(), b.loss.to_bits())
        );
    }
}

#[test]
fn every_task_resumed_from_its_checkpoint_gives_the_same_numbers() {
    for (tag, plan) in plans() {
        let full = drain(&mut Sweep::new(plan.clone()));
        let results = full.iter().filter(|t| t.finished.is_some()).count();
        assert_eq!(results, plan.runs(), "{tag}");
        let ticks = full.len();
        // Right after the first tick, mid first seed (both cells' turns), at the last tick of
        // the first seed, and mid second seed.
        let per_seed = ticks / plan.seeds.len();
        let cuts = [
            1,
            2,
            3,
            per_seed / 2,
            per_seed / 2 + 1,
            per_seed - 1,
            per_seed + 3,
        ];
        for n in cuts.into_iter().filter(|&n| n < ticks) {
            check_resume(tag, &plan, &full, n, Sweep::new(plan.clone()));
        }
        // The training did move: a run's last held-out loss is below its first (the names lab
        // evaluates at each epoch's end: below the first epoch's).
        let last = full.iter().rev().find_map(|t| t.finished.clone()).unwrap();
        assert!(
            last.last().unwrap().loss < last.curve[0].loss,
            "{tag}: {last:?}"
        );
        eprintln!(
            "{tag}: {} ticks, final held-out loss {:.4}",
            full.len(),
            last.last().unwrap().loss
        );
    }
}

/// On the GPU path the resumed sweep goes on bit for bit too: the checkpoint holds the state
/// read back from the device, and the device computes the same steps from it.
#[test]
fn a_sweep_on_the_gpu_resumes_bit_for_bit() {
    for task in [LabTask::Delay, LabTask::Adding] {
        let plan = plan_of(&lab(task));
        let on_gpu = |plan: &SweepPlan| {
            let mut s = Sweep::new(plan.clone());
            s.plan_gpu(GpuPlan {
                ctx: gpu_support::context(),
                cells: plan.cells.clone(),
            });
            s
        };
        let full = drain(&mut on_gpu(&plan));
        assert!(full
            .iter()
            .flat_map(|t| &t.steps)
            .all(|s| s.backend == unroll_core::train::trainer::Backend::Gpu));
        for n in [3, 9] {
            let mut start = on_gpu(&plan);
            let c = checkpoint_after(&mut start, n);
            let mut resumed = on_gpu(&rest_of(&plan, &c));
            resumed.restore(&c).unwrap();
            assert_eq!(drain(&mut resumed), full[n..], "{task:?} after {n} ticks");
        }
    }
}

#[test]
fn a_finished_seed_leaves_no_checkpoint() {
    let plan = plan_of(&lab(LabTask::Delay));
    let mut s = Sweep::new(plan.clone());
    assert_eq!(at_once(s.checkpoint()), None, "nothing trained yet");
    let per_seed = 2 * (1 + plan.steps);
    for _ in 0..per_seed {
        s.tick().unwrap();
    }
    assert_eq!(at_once(s.checkpoint()), None, "the first seed is finished");
    s.tick().unwrap();
    assert_eq!(
        at_once(s.checkpoint()).and_then(|c| c.seed()),
        Some(plan.seeds[1])
    );
    drain(&mut s);
    assert_eq!(at_once(s.checkpoint()), None);
}

#[test]
fn a_checkpoint_of_other_settings_is_refused() {
    let config = lab(LabTask::Delay);
    let plan = plan_of;
    let c = checkpoint_after(&mut Sweep::new(plan(&config)), 30);
    let fresh = drain(&mut Sweep::new(plan(&config)));
    let refused = |other: &SweepPlan, c: &SweepCheckpoint| {
        let mut s = Sweep::new(other.clone());
        let e = s.restore(c).expect_err("refused");
        // The sweep is unchanged: it trains as if never asked.
        assert_eq!(
            drain(&mut s),
            drain(&mut Sweep::new(other.clone())),
            "after {e}"
        );
        e
    };
    for other in [
        DelayConfig {
            lr: 0.01,
            ..config.clone()
        },
        DelayConfig {
            steps: 41,
            ..config.clone()
        },
        DelayConfig {
            hidden_size: 9,
            ..config.clone()
        },
        DelayConfig {
            delay: 4,
            ..config.clone()
        },
        DelayConfig {
            vocab: 6,
            ..config.clone()
        },
        DelayConfig {
            batch_size: 4,
            ..config.clone()
        },
        DelayConfig {
            forget_bias: 0.0,
            ..config.clone()
        },
        DelayConfig {
            max_norm: 0.0,
            ..config.clone()
        },
        DelayConfig {
            task: LabTask::Copy,
            ..config.clone()
        },
    ] {
        let other = plan(&other);
        assert_eq!(refused(&other, &c), ResumeRefused::Settings, "{other:?}");
        assert!(c.fits(&other).is_err());
    }
    // Another seed, or other cells.
    let next = DelayConfig {
        seed: config.seed + 1,
        seeds: 1,
        ..config.clone()
    };
    assert!(matches!(
        refused(&plan(&next), &c),
        ResumeRefused::Runs { .. }
    ));
    let lstm = DelayConfig {
        cell: CellSet::One(CellKind::Lstm),
        ..config.clone()
    };
    assert!(matches!(
        refused(&plan(&lstm), &c),
        ResumeRefused::Runs { .. }
    ));
    // Another evaluation interval.
    let mut other_eval = plan(&config);
    other_eval.eval_every += 1;
    assert_eq!(c.fits(&other_eval), Err(ResumeRefused::Settings));
    // Vectors of another model.
    let mut short = c.clone();
    short.runs[1].trainer.adam_v.pop();
    let n = c.runs[1].trainer.params.len();
    assert_eq!(
        refused(&plan(&config), &short),
        ResumeRefused::Shape {
            run: c.runs[1].run,
            saved: n - 1,
            expected: n
        }
    );
    // Past the budget.
    let mut past = c.clone();
    past.runs[0].trainer.step = config.steps + 1;
    assert!(matches!(
        refused(&plan(&config), &past),
        ResumeRefused::Steps { .. }
    ));
    // A sweep that has trained already.
    let mut started = Sweep::new(plan(&config));
    started.tick().unwrap();
    assert_eq!(started.restore(&c), Err(ResumeRefused::Started));
    // The checkpoint itself still resumes its own sweep.
    let mut s = Sweep::new(plan(&config));
    s.restore(&c).unwrap();
    assert_eq!(drain(&mut s), fresh[30..]);
}
