//! The engine's one training loop (`engine::run`) on the lab page's tasks, as the browser's
//! worker runs it: the events of a sweep in order, a pause that leaves a checkpoint the
//! request resumes from with the uninterrupted numbers, a configuration that gives no task,
//! and `backend=auto` on a long-memory task giving both figures (lavapipe natively).

use unroll_core::config::delay::{CellSet, DelayConfig, LabTask};
use unroll_core::config::query::encode;
use unroll_core::config::BackendChoice;
use unroll_core::engine::protocol::{LabEvent, TrainRequest};
use unroll_core::engine::run::{run, sweep_of, RunControl};
use unroll_core::math::params::CellKind;
use unroll_core::task::TaskError;
use unroll_core::train::backend::BackendKind;
use unroll_core::train::messages::{CpuReason, TrainError};
use unroll_core::train::sweep::{SweepCheckpoint, Tick};

fn config(task: LabTask, backend: BackendChoice) -> DelayConfig {
    DelayConfig {
        task,
        cell: CellSet::All,
        length: if task == LabTask::Order { 62 } else { 6 },
        hidden_size: 8,
        batch_size: 8,
        steps: 12,
        seeds: 2,
        seed: 1,
        backend,
        ..DelayConfig::default()
    }
}

fn request(config: &DelayConfig, resume: Option<SweepCheckpoint>) -> TrainRequest {
    TrainRequest {
        query: encode(config, None),
        data: None,
        resume,
        start_from: None,
        shares: 1,
    }
}

/// The events of the loop on `request`, with `on` called on each as it comes.
fn events(
    request: &TrainRequest,
    control: &RunControl,
    on: &mut dyn FnMut(&LabEvent),
) -> Vec<LabEvent> {
    let (sweep, backend) = sweep_of(request, None).unwrap();
    let mut out = Vec::new();
    pollster::block_on(run(sweep, backend, true, control, &mut |e| {
        on(&e);
        out.push(e)
    }));
    out
}

/// The ticks of `events`, untimed.
fn ticks(events: &[LabEvent]) -> Vec<Tick> {
    events
        .iter()
        .filter_map(|e| match e {
            LabEvent::Tick(t) => Some(Tick {
                ms: 0.0,
                eval_ms: 0.0,
                ..t.as_ref().clone()
            }),
            _ => None,
        })
        .collect()
}

/// A long-memory sweep through the loop: the plan first, the first seed's weights, each cell's
/// path, the ticks of every run to its end with the progress and a checkpoint between them, and
/// `Finished` last.
#[test]
fn a_sweep_reports_its_plan_paths_ticks_progress_and_end() {
    let cfg = config(LabTask::Adding, BackendChoice::Cpu);
    let all = events(&request(&cfg, None), &RunControl::new(), &mut |_| {});
    let LabEvent::Plan(plan) = &all[0] else {
        panic!("{:?}", all[0])
    };
    assert_eq!((plan.steps, plan.eval_every, plan.runs.len()), (12, 1, 6));
    assert_eq!(plan.params.len(), 3);
    // The weights of the first seed's runs (before training), then a path per cell.
    assert!(all[1..4]
        .iter()
        .all(|e| matches!(e, LabEvent::Weights { weights, .. } if weights.step == 0)));
    assert!(all[4..7].iter().all(|e| matches!(
        e,
        LabEvent::Backend(b) if b.kind == BackendKind::Cpu { notice: None }
    )));
    let t = ticks(&all);
    assert_eq!(t.iter().filter(|t| t.finished.is_some()).count(), 6);
    assert_eq!(
        t.iter().map(|t| t.steps.len()).sum::<usize>(),
        6 * 12,
        "every step reported once"
    );
    assert!(all.iter().any(|e| matches!(e, LabEvent::Progress { .. })));
    assert!(all.iter().any(|e| matches!(e, LabEvent::Checkpoint(_))));
    let LabEvent::Progress { progress, .. } = &all[all.len() - 2] else {
        panic!("{:?}", all[all.len() - 2])
    };
    assert_eq!((progress.steps_done, progress.runs_finished), (72, 6));
    assert!(matches!(all.last(), Some(LabEvent::Finished)));
}

/// Paused mid-seed, the loop sends a checkpoint; a request with it goes on with the ticks of
/// the sweep that never stopped, bit for bit.
#[test]
fn a_paused_sweep_resumes_from_its_checkpoint_with_the_same_numbers() {
    for task in [LabTask::Copy, LabTask::Order] {
        let cfg = config(task, BackendChoice::Cpu);
        let whole = ticks(&events(
            &request(&cfg, None),
            &RunControl::new(),
            &mut |_| {},
        ));
        let control = RunControl::new();
        let ctl = control.clone();
        let mut seen = 0;
        let mut checkpoint = None;
        events(&request(&cfg, None), &control, &mut |e| match e {
            LabEvent::Tick(_) => {
                seen += 1;
                if seen == 9 {
                    ctl.pause();
                }
            }
            LabEvent::Checkpoint(c) if ctl.is_paused() => {
                checkpoint = Some(c.as_ref().clone());
                ctl.stop();
            }
            _ => {}
        });
        let c = checkpoint.expect("a checkpoint on pause");
        assert_eq!(c.seed(), Some(1));
        assert!(c.step() > 0 && c.step() < 12, "mid-seed: step {}", c.step());
        let resumed = ticks(&events(
            &request(&cfg, Some(c)),
            &RunControl::new(),
            &mut |_| {},
        ));
        assert_eq!(resumed, whole[9..], "{task:?}");
    }
}

/// Held at a step (the debug hook), a sweep whose three cells take turns pauses once every cell
/// of the seed reached it: its checkpoint names that step, and once resumed the sweep ends with
/// the ticks of one never held.
#[test]
fn a_held_sweep_pauses_when_every_cell_reached_the_step() {
    let cfg = config(LabTask::Adding, BackendChoice::Cpu);
    let whole = ticks(&events(
        &request(&cfg, None),
        &RunControl::new(),
        &mut |_| {},
    ));
    let control = RunControl::new();
    control.hold_at(5);
    let ctl = control.clone();
    let mut held = None;
    let all = events(&request(&cfg, None), &control, &mut |e| {
        if let LabEvent::Checkpoint(c) = e {
            if ctl.is_paused() && held.is_none() {
                held = Some((c.seed(), c.step()));
                ctl.resume();
            }
        }
    });
    assert_eq!(
        held,
        Some((Some(1), 5)),
        "held when every cell of seed 1 reached step 5"
    );
    assert_eq!(ticks(&all), whole);
}

/// A configuration that gives no task is refused before anything trains, with the task's error.
#[test]
fn a_configuration_without_a_task_is_an_error() {
    let short = DelayConfig {
        length: 20,
        ..config(LabTask::Order, BackendChoice::Cpu)
    };
    let Err(e) = sweep_of(&request(&short, None), None) else {
        panic!("a sweep of T = 20")
    };
    assert!(matches!(e, TrainError::Task(TaskError::Length(l)) if l.min == 62));
    let delay = DelayConfig {
        delay: 30,
        length: 20,
        ..DelayConfig::default()
    };
    assert!(matches!(
        sweep_of(&request(&delay, None), None),
        Err(TrainError::Task(TaskError::Delay(_)))
    ));
}

/// `backend=auto` on a long-memory task measures both paths for each cell and says so with both
/// figures; the cells train on the faster.
#[test]
fn auto_measures_both_paths_for_a_long_memory_task() {
    let cfg = DelayConfig {
        cell: CellSet::One(CellKind::Lstm),
        seeds: 1,
        steps: 4,
        ..config(LabTask::Copy, BackendChoice::Auto)
    };
    let all = events(&request(&cfg, None), &RunControl::new(), &mut |_| {});
    let backends: Vec<&BackendKind> = all
        .iter()
        .filter_map(|e| match e {
            LabEvent::Backend(b) => Some(&b.kind),
            _ => None,
        })
        .collect();
    assert_eq!(backends.len(), 1);
    let (timings, on_gpu) = match backends[0] {
        BackendKind::Gpu { measured, .. } => (measured.expect("measured"), true),
        BackendKind::Cpu {
            notice: Some(CpuReason::Measured(t)),
        } => (*t, false),
        other => panic!("{other:?}"),
    };
    eprintln!("copy, LSTM: {timings}");
    assert!(timings.gpu_ms > 0.0 && timings.cpu_ms > 0.0);
    assert_eq!(on_gpu, timings.gpu_faster());
    assert!(matches!(all.last(), Some(LabEvent::Finished)));
}
