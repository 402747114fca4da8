//! The lab driver's model for both parts of the sequence page, on real sweeps trained here on
//! the CPU path: the runs a sweep plans, what each part keeps of it at each tick, start, end and
//! reset, and how a sweep a reload stopped is shown again and what is left to train.

use crate::sequence::delay::store::Kept;
use crate::sequence::memory::store::{KeptSweep, ResumePoint};
use crate::sequence::runs::{
    apply_tick, plan, remaining_of, whole_progress, KeptSweeps, Mark, RunView,
};
use crate::sequence::store::{point_bytes, point_of};
use unroll_core::config::delay::{DelayConfig, LabTask};
use unroll_core::config::query::encode;
use unroll_core::math::params::CellKind;
use unroll_core::train::sweep::{Progress, Sweep, SweepCheckpoint, SweepPlan};
use unroll_core::train::trainer::at_once;

/// Trains `ticks` ticks of the sweep of `config`, applying each to the page's runs and
/// recording it in `kept` (after a start); returns the runs and the sweep's checkpoint.
fn train<K: KeptSweeps>(
    config: &DelayConfig,
    ticks: usize,
    kept: &mut K,
) -> (Vec<RunView>, SweepCheckpoint) {
    let query = encode(config, None);
    let mut sweep = Sweep::new(SweepPlan::of_lab(config).unwrap());
    let mut views = plan(config);
    assert!(kept.mark(&query, Mark::Training, &views, 0.0));
    for k in 0..ticks {
        let t = sweep.tick().unwrap();
        apply_tick(&mut views, &t);
        kept.record(config, &query, &t, &views, k as f64);
    }
    (views, at_once(sweep.checkpoint()).unwrap())
}

fn nothing_done() -> Progress {
    Progress {
        steps_done: 0,
        steps_total: 0,
        runs_finished: 0,
        runs_total: 0,
    }
}

/// An adding sweep: T = 10, 4 steps, 2 seeds, the lab's default cells (all three for a
/// long-memory task, where delay-copy's default is RNN and LSTM).
fn adding() -> DelayConfig {
    DelayConfig {
        task: LabTask::Adding,
        length: 10,
        steps: 4,
        seeds: 2,
        seed: 5,
        ..DelayConfig::default()
    }
}

#[test]
fn a_long_memory_sweep_plans_its_tasks_cells_and_goes_on_from_its_checkpoint() {
    let config = adding();
    let query = encode(&config, None);
    // The plan's cells, not the keys' (RNN and LSTM): 3 cells × 2 seeds of 4 steps.
    let views = plan(&config);
    let ids: Vec<_> = views.iter().map(|v| v.id).collect();
    assert_eq!(ids, SweepPlan::of_lab(&config).unwrap().run_ids());
    assert_eq!(ids.len(), 6);
    assert_eq!(config.cell.cells().len(), 2);
    let whole = whole_progress(&config, &config, nothing_done());
    assert_eq!((whole.steps_total, whole.runs_total), (24, 6));

    // The first seed (3 runs × 5 ticks: the evaluation at step 0, then 4 steps), then seed 6's
    // evaluations and one step of each cell.
    let mut kept: Vec<KeptSweep> = Vec::new();
    let (trained, c) = train(&config, 15 + 3 + 3, &mut kept);
    assert_eq!((c.seed(), c.step()), (Some(6), 1));
    assert_eq!(trained[0].loss.first().map(|p| p.0), Some(1));
    assert_eq!(kept.len(), 1);
    assert!(!kept[0].finished);
    assert_eq!(kept[0].curves[0].last().unwrap().step, 4);
    let point = ResumePoint::new(query.clone(), 20.0, c.clone(), &trained);
    // Kept as the bytes earlier versions wrote: the query, the seconds, the checkpoint.
    let bytes = point_bytes(&point);
    assert_eq!(bytes, point_bytes(&(query.clone(), 20.0, c.clone())));
    assert_eq!(point_of::<ResumePoint>(&bytes).unwrap(), point);

    // After the reload: seed 5's runs finished with their curves, seed 6 not started.
    let shown = kept.shown(&config, &query).unwrap();
    assert!(shown.unfinished);
    assert!(shown.results.is_empty());
    // Every step is a held-out point at this budget, each written with the seconds so far.
    assert_eq!(shown.elapsed, 20.0);
    let finished: Vec<bool> = shown.views.iter().map(|v| v.finished).collect();
    assert_eq!(finished, [true, true, true, false, false, false]);
    assert_eq!(shown.views[1].heldout, trained[1].heldout);
    assert!(shown.views[3].heldout.is_empty());
    // What is left: seed 6 alone, which the checkpoint fits (the whole sweep it does not).
    let rest = remaining_of(&config, &shown.views).unwrap();
    assert_eq!((rest.seed, rest.seeds), (6, 1));
    assert!(point.fits(&query, &rest));
    assert!(
        !point.fits(&query, &config),
        "not the first unfinished seed"
    );
    assert!(
        !point.fits("v=1&lesson=delay&task=copy", &rest),
        "another sweep's"
    );
    let longer = DelayConfig {
        steps: 8,
        ..rest.clone()
    };
    assert!(!point.fits(&query, &longer), "other settings");
    let mut views = shown.views.clone();
    point.resume(&mut views);
    for (v, r) in views[3..].iter().zip(&c.runs) {
        assert_eq!((v.id, v.step, v.finished), (r.run, r.trainer.step, false));
        assert_eq!(v.heldout, r.curve);
    }
    let p = whole_progress(&config, &rest, nothing_done());
    assert_eq!((p.steps_done, p.runs_finished), (12, 3));

    // Finished, it is shown finished; reset, it is gone.
    assert!(kept.mark(&query, Mark::Finished, &trained, 30.0));
    let shown = kept.shown(&config, &query).unwrap();
    assert!(!shown.unfinished);
    assert_eq!(shown.elapsed, 30.0);
    assert!(!kept.mark(&query, Mark::Failed, &trained, 31.0));
    assert!(kept.mark(&query, Mark::Reset, &[], 0.0));
    assert_eq!(kept.shown(&config, &query), None);
}

#[test]
fn a_delay_sweep_keeps_its_finished_runs_and_its_sweep_in_progress() {
    let config = crate::sequence::runs::small_delay();
    let query = encode(&config, None);
    let mut kept = Kept::default();
    // The first seed (2 runs × 21 ticks) and 5 steps of seed 4.
    let (trained, c) = train(&config, 2 * 21 + 2 + 10, &mut kept);
    assert_eq!((c.seed(), c.step()), (Some(4), 5));
    assert_eq!(
        kept.unfinished.as_ref().map(|u| u.query.as_str()),
        Some(query.as_str())
    );
    // Each finished run is kept with its figure in the summary, and the seconds with the
    // sweep in progress.
    assert_eq!(kept.runs_of(&query).len(), 2);
    assert_eq!(kept.summaries.len(), 1);
    assert_eq!(kept.summaries[0].figures.len(), 2);
    assert_eq!(kept.unfinished.as_ref().map(|u| u.elapsed), Some(41.0));

    let shown = kept.shown(&config, &query).unwrap();
    assert!(shown.unfinished);
    assert_eq!(shown.results.len(), 2);
    let finished: Vec<bool> = shown.views.iter().map(|v| v.finished).collect();
    assert_eq!(finished, [true, true, false, false]);
    let rest = remaining_of(&config, &shown.views).unwrap();
    assert_eq!((rest.seed, rest.seeds), (4, 1));
    let point: crate::sequence::runs::ResumePoint =
        crate::sequence::runs::ResumePoint::new(query.clone(), 50.0, c, &trained);
    assert!(point.fits(&query, &rest));
    let mut views = shown.views;
    point.resume(&mut views);
    // Delay-copy keeps the training-batch curves with its checkpoint.
    assert_eq!(views[2].loss, trained[2].loss[..5]);
    assert_eq!(views[2].id.cell, CellKind::Rnn);

    // A reset of another sweep leaves this one in progress; its own reset ends it, and then
    // only its finished runs are shown (not offered again).
    assert!(!kept.mark("v=1&lesson=delay&delay=3", Mark::Reset, &[], 0.0));
    assert!(kept.mark(&query, Mark::Reset, &[], 0.0));
    assert_eq!(kept.unfinished, None);
    let shown = kept.shown(&config, &query).unwrap();
    assert!(!shown.unfinished);
    assert_eq!(shown.views.len(), 2);
    assert!(shown.views.iter().all(|v| v.finished));
    // Loaded records merge under what this visit wrote.
    let mut now = Kept::default();
    KeptSweeps::merge_from(&mut now, kept.clone());
    assert_eq!(now.runs_of(&query).len(), 2);
}
