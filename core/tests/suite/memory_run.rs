//! The long-memory page's plan (defaults and URL values) and its sweep.

use unroll_core::config::delay::{CellSet, DelayConfig, LabTask};
use unroll_core::math::params::CellKind;
use unroll_core::memory::run::{run_summary, MemoryEvent, MemoryPlan, MemorySweep};
use unroll_core::memory::TaskKind;

fn config(task: LabTask) -> DelayConfig {
    DelayConfig {
        task,
        ..DelayConfig::default()
    }
}

#[test]
fn delay_copy_has_no_memory_plan() {
    assert!(MemoryPlan::of(&DelayConfig::default()).is_none());
}

#[test]
fn keys_at_their_delay_default_take_the_task_defaults() {
    let plan = MemoryPlan::of(&config(LabTask::Adding)).unwrap().unwrap();
    assert_eq!(plan.task.kind(), TaskKind::Adding);
    assert_eq!(plan.task.length(), 50);
    assert_eq!(plan.steps, 1500);
    assert_eq!(plan.recipe.hidden_size, 64);
    assert_eq!(plan.seeds, vec![0, 1, 2]);
    assert_eq!(
        plan.cells,
        vec![CellKind::Rnn, CellKind::Lstm, CellKind::Gru]
    );
    assert_eq!(plan.eval_every(), 75);
    assert_eq!(plan.sequences(), 1500 * 32);
    let copy = MemoryPlan::of(&config(LabTask::Copy)).unwrap().unwrap();
    assert_eq!((copy.task.length(), copy.steps), (20, 1000));
    let order = MemoryPlan::of(&config(LabTask::Order)).unwrap().unwrap();
    assert_eq!((order.task.length(), order.steps), (100, 800));
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
    let plan = MemoryPlan::of(&c).unwrap().unwrap();
    assert_eq!(plan.task.length(), 5);
    assert_eq!(plan.steps, 7);
    assert_eq!(plan.seeds, vec![4, 5]);
    assert_eq!(plan.recipe.hidden_size, 8);
    assert_eq!(plan.cells, vec![CellKind::Gru]);
    assert_eq!(plan.run(1), (CellKind::Gru, 5));
}

#[test]
fn a_too_short_order_task_is_refused() {
    let c = DelayConfig {
        length: 20,
        ..config(LabTask::Order)
    };
    let e = MemoryPlan::of(&c).unwrap().unwrap_err();
    assert_eq!((e.length, e.min), (20, 62));
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
    let plan = MemoryPlan::of(&c).unwrap().unwrap();
    let mut sweep = MemorySweep::new(plan);
    assert_eq!(sweep.total(), 9);
    let mut curves = vec![Vec::new(); 3];
    let mut ticks = 0;
    while let Some(events) = sweep.tick() {
        ticks += 1;
        for e in events {
            if let MemoryEvent::Point { run, point } = e {
                curves[run].push(point);
            }
        }
    }
    // One first evaluation and three steps per run.
    assert_eq!(ticks, 12);
    assert_eq!(sweep.done(), 9);
    for curve in &curves {
        let steps: Vec<u64> = curve.iter().map(|p| p.step).collect();
        assert_eq!(steps, vec![0, 1, 2, 3]);
        assert_eq!(curve[3].sequences, 96);
        let (last, solved) = run_summary(curve).unwrap();
        assert_eq!(last.step, 3);
        assert!(last.loss.is_finite() && last.loss > 0.0);
        assert_eq!(solved, None);
    }
}

/// Every held-out point of `sweep`, per run.
fn curves_of(mut sweep: MemorySweep) -> Vec<Vec<unroll_core::memory::HeldOutPoint>> {
    let mut curves = vec![Vec::new(); sweep.plan().runs()];
    while let Some(events) = sweep.tick() {
        for e in events {
            if let MemoryEvent::Point { run, point } = e {
                curves[run].push(point);
            }
        }
    }
    curves
}

#[test]
fn a_sweep_from_a_later_run_gives_the_same_runs() {
    // Two cells × two seeds; a reload after the first run goes on from run 1.
    let c = DelayConfig {
        length: 4,
        steps: 3,
        hidden_size: 8,
        seeds: 2,
        cell: CellSet::Both,
        ..config(LabTask::Copy)
    };
    let plan = MemoryPlan::of(&c).unwrap().unwrap();
    assert_eq!(plan.runs(), 6);
    let whole = curves_of(MemorySweep::new(plan.clone()));
    let later = MemorySweep::from_run(plan.clone(), 1);
    assert_eq!((later.done(), later.total()), (3, 18));
    let rest = curves_of(later);
    assert!(rest[0].is_empty(), "run 0 is not trained again");
    assert_eq!(&rest[1..], &whole[1..]);
    assert!(MemorySweep::from_run(plan, 9).tick().is_none());
}
