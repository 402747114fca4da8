//! The lab driver's model for both parts of the sequence page, on real sweeps trained here on
//! the CPU path: the runs a sweep plans, what each part keeps of it at each tick, start, end and
//! reset, and how a sweep a reload stopped is shown again and what is left to train; names
//! generation's run, whose plan reads the names and whose final weights are kept with it; the
//! time left, each run's steps weighed by its cell.

use crate::sequence::delay::store::Kept;
use crate::sequence::generate::keep::{pair, training};
use crate::sequence::kept::{keep, KEPT_WEIGHTS};
use crate::sequence::memory::store::{KeptSweep, ResumePoint};
use crate::sequence::runs::RunWeights;
use crate::sequence::runs::{
    apply_tick, plan, remaining_of, whole_progress, KeptSweeps, Mark, RunView,
};
use crate::sequence::store::{point_bytes, point_of, sweeps_of, sweeps_text, GENERATE};
use std::sync::Arc;
use unroll_core::config::delay::{DelayConfig, LabTask};
use unroll_core::config::query::encode;
use unroll_core::data::names::NamesDataset;
use unroll_core::math::params::CellKind;
use unroll_core::train::sweep::{Progress, Sweep, SweepCheckpoint, SweepPlan, Weights};
use unroll_core::train::trainer::at_once;

/// Trains `ticks` ticks of the sweep of `config`, applying each to the page's runs and
/// recording it in `kept` (after a start); returns the runs and the sweep's checkpoint.
fn train<K: KeptSweeps>(
    config: &DelayConfig,
    ticks: usize,
    kept: &mut K,
) -> (Vec<RunView>, SweepCheckpoint) {
    let (views, mut sweep) = train_on(config, None, ticks, kept);
    (views, at_once(sweep.checkpoint()).unwrap())
}

/// [`train`] of a task that reads the names `data`; returns the runs and the sweep itself.
fn train_on<K: KeptSweeps>(
    config: &DelayConfig,
    data: Option<Arc<NamesDataset>>,
    ticks: usize,
    kept: &mut K,
) -> (Vec<RunView>, Sweep) {
    let query = encode(config, None);
    let mut sweep = Sweep::new(SweepPlan::of_lab_on(config, data).unwrap());
    let mut views = plan(config);
    assert!(kept.mark(&query, Mark::Training, &views, 0.0));
    for k in 0..ticks {
        let t = sweep.tick().unwrap();
        apply_tick(&mut views, &t);
        kept.record(config, &query, &t, &views, k as f64);
    }
    (views, sweep)
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

/// Two languages of a few names.
fn names() -> Arc<NamesDataset> {
    Arc::new(
        NamesDataset::from_class_files([
            ("X", "ab\nba\nabc\naab\nbb\nbab\naba\n"),
            ("Y", "c\ncc\nca\ncab\nbc\ncca\nacc\n"),
        ])
        .unwrap(),
    )
}

/// The final weights of the sweep's run, as the engine hands them to the page.
fn weights_of(sweep: &mut Sweep) -> RunWeights {
    let (_, w): (_, Weights) = at_once(sweep.current_weights()).remove(0);
    RunWeights(Arc::new(w))
}

#[test]
// long: one keep-reload-resume scenario, checked step by step in the order a person would see it
fn a_generation_run_is_kept_with_its_final_weights_and_goes_on_from_its_checkpoint() {
    let data = names();
    // The sampler's keys are not the run's: its key is that of its training settings.
    let config = training(&DelayConfig {
        task: LabTask::Generate,
        hidden_size: 8,
        steps: 6,
        batch_size: 4,
        temperature: 1.5,
        ..DelayConfig::default()
    });
    assert_eq!(config.temperature, DelayConfig::default().temperature);
    assert_eq!(
        pair(&config)[1],
        DelayConfig {
            bidirectional: true,
            ..config.clone()
        }
    );
    let query = encode(&config, None);
    // Its plan, without the names: one GRU run of 6 steps (the key `seeds` at the lab's
    // default is names generation's one seed).
    let views = plan(&config);
    assert_eq!(
        views.iter().map(|v| v.id.cell).collect::<Vec<_>>(),
        [CellKind::Gru]
    );
    let whole = whole_progress(&config, &config, nothing_done());
    assert_eq!((whole.steps_total, whole.runs_total), (6, 1));

    // Uninterrupted: its curve and final weights.
    let mut kept: Vec<KeptSweep> = Vec::new();
    let (mut views, mut sweep) = train_on(&config, Some(data.clone()), 7, &mut kept);
    assert!(views[0].finished && views[0].step == 6);
    views[0].weights = Some(weights_of(&mut sweep));
    assert_eq!(views[0].final_weights(), views[0].weights.as_ref());
    assert!(kept.mark(&query, Mark::Finished, &views, 3.0));
    assert!(kept[0].weights[0].is_some());

    // A reload: the record read back holds the same curve and the same weights, bit for bit.
    let text = sweeps_text(&kept).unwrap();
    let read: Vec<KeptSweep> = sweeps_of(GENERATE.sweeps, &text).unwrap();
    assert_eq!(read, kept);
    let shown = read.shown(&config, &query).unwrap();
    assert!(!shown.unfinished);
    assert_eq!(shown.views[0].heldout, views[0].heldout);
    assert_eq!(shown.views[0].weights, views[0].weights);
    assert_eq!(remaining_of(&config, &shown.views), None);

    // Stopped after its evaluation at step 0 and 3 steps: shown as far as it went, and what
    // is left is the same run, from the checkpoint that fits it on the names alone.
    let mut stopped: Vec<KeptSweep> = Vec::new();
    let (part, mut cut) = train_on(&config, Some(data.clone()), 4, &mut stopped);
    assert!(
        part[0].weights.is_none(),
        "the weights of a run in training are not kept"
    );
    let c = at_once(cut.checkpoint()).unwrap();
    assert_eq!(c.step(), 3);
    let point =
        crate::sequence::memory::store::ResumePoint::new(query.clone(), 1.0, c.clone(), &part);
    let shown = stopped.shown(&config, &query).unwrap();
    assert!(shown.unfinished);
    let rest = remaining_of(&config, &shown.views).unwrap();
    assert_eq!(
        plan(&rest).iter().map(|v| v.id).collect::<Vec<_>>(),
        [views[0].id]
    );
    assert!(point.fits_on(&query, &rest, Some(data.clone())));
    assert!(!point.fits(&query, &rest), "no plan without the names");
    let other = DelayConfig {
        bidirectional: true,
        ..rest.clone()
    };
    assert!(
        !point.fits_on(&query, &other, Some(data.clone())),
        "the other direction's"
    );
    // Going on from it gives the run that never stopped.
    let mut resumed = Sweep::new(SweepPlan::of_lab_on(&rest, Some(data)).unwrap());
    resumed.restore(&c).unwrap();
    let mut views_after = shown.views.clone();
    point.resume(&mut views_after);
    while let Some(t) = resumed.tick() {
        apply_tick(&mut views_after, &t);
    }
    assert_eq!(views_after[0].heldout, views[0].heldout);
    assert_eq!(Some(weights_of(&mut resumed)), views[0].weights);

    // Reset forgets it; a record without weights is written as before (no `weights` key).
    assert!(kept.mark(&query, Mark::Reset, &[], 0.0));
    assert!(kept.is_empty());
    let memory = vec![KeptSweep {
        query: "v=1&lesson=delay&task=adding".into(),
        ..KeptSweep::default()
    }];
    assert!(!sweeps_text(&memory).unwrap().contains("weights"));
}

#[test]
fn only_the_newest_sweeps_keep_their_weights() {
    let w = |step| {
        let mut sweep = Sweep::new(
            SweepPlan::of_lab_on(
                &DelayConfig {
                    task: LabTask::Generate,
                    hidden_size: 4,
                    steps: 1,
                    ..DelayConfig::default()
                },
                Some(names()),
            )
            .unwrap(),
        );
        let mut r = weights_of(&mut sweep);
        Arc::get_mut(&mut r.0).unwrap().step = step;
        r
    };
    let one = w(1);
    let mut kept: Vec<KeptSweep> = Vec::new();
    for q in 0..KEPT_WEIGHTS + 2 {
        keep(
            &mut kept,
            KeptSweep {
                query: q.to_string(),
                weights: vec![Some(one.clone())],
                ..KeptSweep::default()
            },
        );
    }
    let with: Vec<bool> = kept.iter().map(|k| !k.weights.is_empty()).collect();
    assert_eq!(with.iter().filter(|&&b| b).count(), KEPT_WEIGHTS);
    assert_eq!(
        with[..2],
        [false, false],
        "the oldest lose their weights first"
    );
    assert_ne!(w(2), one, "weights compare by their step");
}

/// A sweep of 2 seeds × RNN and LSTM (100 steps a run) after 30 s, each LSTM run half done and
/// the RNN runs not started (2 workers, the longest runs first): the work done is 2 × 50 LSTM
/// steps of 4 gate blocks = 400 of 2 × 100 × (4 + 1) = 1,000, so 30 s / 400 × 600 = 45 s are
/// left; counted in steps (100 of 400) it would be 90 s. A finished run counts its budget.
#[test]
fn the_time_left_weighs_each_runs_steps_by_its_cell() {
    use crate::sequence::runs::seconds_left;
    use unroll_core::train::sweep::RunId;
    let run = |cell, seed, step, finished| RunView {
        step,
        finished,
        ..RunView::new(RunId { cell, seed })
    };
    let mut runs = vec![
        run(CellKind::Rnn, 0, 0, false),
        run(CellKind::Lstm, 0, 50, false),
        run(CellKind::Rnn, 1, 0, false),
        run(CellKind::Lstm, 1, 50, false),
    ];
    assert_eq!(seconds_left(&runs, 100, 30.0), Some(45.0));
    assert_eq!(seconds_left(&runs, 100, 0.0), None, "no time spent yet");
    runs[1] = run(CellKind::Lstm, 0, 100, true);
    runs[0].step = 20;
    // Done: 400 + 200 + 20 = 620 of 1,000.
    let left = seconds_left(&runs, 100, 62.0).unwrap();
    assert!((left - 38.0).abs() < 1e-9, "{left}");
    let none: Vec<RunView> = runs
        .iter()
        .map(|r| run(r.id.cell, r.id.seed, 0, false))
        .collect();
    assert_eq!(seconds_left(&none, 100, 5.0), None, "before the first step");
}
