//! The lab page's plan of a long-memory task (defaults and URL values) and its sweep.

use unroll_core::config::delay::{CellSet, DelayConfig, LabTask};
use unroll_core::math::params::CellKind;
use unroll_core::memory::outcome::{finals, judge, outcome, OutcomeKind};
use unroll_core::task::TaskError;
use unroll_core::train::sweep::{HeldOut, RunId, Sweep, SweepPlan};

fn config(task: LabTask) -> DelayConfig {
    DelayConfig {
        task,
        ..DelayConfig::default()
    }
}

#[test]
fn delay_copy_keeps_its_own_keys() {
    let plan = SweepPlan::of_lab(&DelayConfig::default()).unwrap();
    assert_eq!(plan.task.key(), "delay");
    assert_eq!(plan.task.settings(), "delay:vocab=10:length=96:delay=8");
    assert_eq!((plan.steps, plan.eval_every), (3000, 100));
    assert_eq!((plan.recipe.hidden_size, plan.cells.len()), (128, 2));
}

#[test]
fn keys_at_their_delay_default_take_the_task_defaults() {
    let plan = SweepPlan::of_lab(&config(LabTask::Adding)).unwrap();
    assert_eq!(plan.task.key(), "adding");
    assert_eq!(plan.task.settings(), "adding:length=50");
    assert_eq!(plan.steps, 1500);
    assert_eq!(plan.recipe.hidden_size, 64);
    assert_eq!(plan.seeds, vec![0, 1, 2]);
    assert_eq!(
        plan.cells,
        vec![CellKind::Rnn, CellKind::Lstm, CellKind::Gru]
    );
    assert_eq!(plan.eval_every, 75);
    assert_eq!(plan.sequences(), 1500 * 32);
    let copy = SweepPlan::of_lab(&config(LabTask::Copy)).unwrap();
    assert_eq!(
        (copy.task.settings(), copy.steps),
        ("copy:length=20".into(), 1000)
    );
    let order = SweepPlan::of_lab(&config(LabTask::Order)).unwrap();
    assert_eq!(
        (order.task.settings(), order.steps),
        ("order:length=100".into(), 800)
    );
}

#[test]
fn other_values_are_used_as_given() {
    let c = DelayConfig {
        length: 5,
        steps: 7,
        seeds: 2,
        seed: 4,
        hidden_size: 8,
        cell: CellSet::One(CellKind::Gru),
        ..config(LabTask::Copy)
    };
    let plan = SweepPlan::of_lab(&c).unwrap();
    assert_eq!(plan.task.settings(), "copy:length=5");
    assert_eq!(plan.steps, 7);
    assert_eq!(plan.seeds, vec![4, 5]);
    assert_eq!(plan.recipe.hidden_size, 8);
    assert_eq!(plan.cells, vec![CellKind::Gru]);
    assert_eq!(
        plan.run_ids()[1],
        RunId {
            cell: CellKind::Gru,
            seed: 5
        }
    );
}

#[test]
fn a_too_short_order_task_is_refused() {
    let c = DelayConfig {
        length: 20,
        ..config(LabTask::Order)
    };
    let TaskError::Length(e) = SweepPlan::of_lab(&c).unwrap_err() else {
        panic!("a length error")
    };
    assert_eq!((e.length, e.min), (20, 62));
}

/// Every held-out point of a finished sweep of `plan`, per run in the plan's order.
fn curves_of(plan: &SweepPlan) -> Vec<Vec<HeldOut>> {
    let mut sweep = Sweep::new(plan.clone());
    let ids = plan.run_ids();
    let mut curves = vec![Vec::new(); ids.len()];
    while let Some(t) = sweep.tick() {
        if let Some(h) = t.heldout {
            let k = ids.iter().position(|&id| id == t.run).unwrap();
            curves[k].push(h);
        }
    }
    curves
}

#[test]
fn the_sweep_trains_every_run_and_evaluates_each() {
    let c = DelayConfig {
        length: 4,
        steps: 3,
        hidden_size: 8,
        seeds: 1,
        ..config(LabTask::Adding)
    };
    let plan = SweepPlan::of_lab(&c).unwrap();
    assert_eq!(plan.eval_every, 1);
    let mut sweep = Sweep::new(plan.clone());
    assert_eq!(sweep.progress().steps_total, 9);
    let mut ticks = 0;
    while sweep.tick().is_some() {
        ticks += 1;
    }
    // One first evaluation and three steps per run.
    assert_eq!(ticks, 12);
    assert_eq!(sweep.progress().steps_done, 9);
    let curves = curves_of(&plan);
    for curve in &curves {
        let steps: Vec<u64> = curve.iter().map(|p| p.step).collect();
        assert_eq!(steps, vec![0, 1, 2, 3]);
        let last = curve.last().unwrap();
        assert!(last.loss.is_finite() && last.loss > 0.0);
        assert!(last.train_loss.is_some() && last.train_acc.is_some());
        assert!(!last.solved);
    }
    // The outcome of the finished runs: every run, its final loss, nothing claimed beyond the
    // seeds' spread with one seed each.
    let fin = finals(&plan, &curves);
    assert_eq!(fin.len(), 3);
    assert_eq!(fin[0].loss, curves[0][3].loss);
    let o = outcome(&plan, &curves);
    assert!(!matches!(o.kind, OutcomeKind::Unfinished { .. }), "{o:?}");
    assert_eq!(o.baseline, 1.0 / 6.0);
}

#[test]
fn an_unfinished_sweep_says_nothing_final() {
    let c = DelayConfig {
        length: 4,
        steps: 3,
        hidden_size: 8,
        seeds: 2,
        cell: CellSet::Both,
        ..config(LabTask::Copy)
    };
    // `both` is delay-copy's default: a long-memory task trains the three cells.
    let plan = SweepPlan::of_lab(&c).unwrap();
    assert_eq!(plan.runs(), 6);
    let mut curves = curves_of(&plan);
    curves[3].pop();
    assert_eq!(finals(&plan, &curves).len(), 5);
    assert_eq!(
        outcome(&plan, &curves).kind,
        OutcomeKind::Unfinished {
            finished: 5,
            runs: 6
        }
    );
}

/// The adding problem at the page's defaults (`?v=1&lesson=delay&task=adding`: T = 50, 1500
/// steps, hidden 64, RNN, LSTM and GRU × seeds 0, 1, 2, held-out evaluations every 75 steps)
/// comes out as in PyTorch (docs/memory-tasks.md, Report): LSTM and GRU beat the baseline and
/// solve the task on every seed, the RNN on none, so the outcome is a split. The page's sweep
/// trains the same plan with the same `Sweep`; a run's numbers depend only on its cell, its seed
/// and the plan's settings, so each seed trains on a thread of its own here.
///
/// About 180 CPU-seconds in the test profile, so `scripts/test.sh` runs it on its own beside the
/// end-to-end tests, where the machine has idle time (`cargo test --test suite -- --ignored`).
#[test]
#[ignore = "a learning check of about 3 CPU-minutes: scripts/test.sh runs it beside the e2e tests; alone: cargo test --test suite -- --ignored"]
fn adding_at_its_defaults_splits_the_cells_as_in_pytorch() {
    let plan = SweepPlan::of_lab(&config(LabTask::Adding)).unwrap();
    assert_eq!(plan.seeds, vec![0, 1, 2]);
    assert_eq!(
        (plan.steps, plan.eval_every, plan.recipe.hidden_size),
        (1500, 75, 64)
    );
    let runs: Vec<_> = std::thread::scope(|s| {
        let seeds: Vec<_> = plan
            .seeds
            .iter()
            .map(|&seed| {
                let one = SweepPlan {
                    seeds: vec![seed],
                    ..plan.clone()
                };
                s.spawn(move || finals(&one, &curves_of(&one)))
            })
            .collect();
        seeds.into_iter().flat_map(|t| t.join().unwrap()).collect()
    });
    assert_eq!(runs.len(), 9);
    let o = judge(&plan.cells, 3, &runs, plan.task.baseline().loss);
    let cells: Vec<_> = o
        .cells
        .iter()
        .map(|c| (c.cell, c.seeds, c.beat, c.solved))
        .collect();
    assert_eq!(
        cells,
        vec![
            (CellKind::Rnn, 3, 0, 0),
            (CellKind::Lstm, 3, 3, 3),
            (CellKind::Gru, 3, 3, 3)
        ],
        "{runs:?}"
    );
    assert_eq!(o.kind, OutcomeKind::Split);
}
