//! A sweep's runs in parallel workers: each run's numbers depend on its cell, its seed and the
//! settings alone, so a sweep ticked in any order, or trained as one-run shares through the
//! engine's loop and merged ([`ParallelSweep`]), gives the results and weights of the
//! sequential sweep, bit for bit; a checkpoint of runs in flight resumes them to those results
//! (in shares, or in one worker's sweep); old one-seed checkpoints still fit.

use unroll_core::config::delay::{CellSet, DelayConfig, LabTask};
use unroll_core::config::query::encode;
use unroll_core::config::BackendChoice;
use unroll_core::engine::parallel::{workers_for, ParallelSweep};
use unroll_core::engine::protocol::{LabEvent, SingleWorker, TrainRequest};
use unroll_core::engine::run::{run, share_of, sweep_of, RunControl};
use unroll_core::math::params::CellKind;
use unroll_core::train::sweep::{
    ResumeRefused, RunId, RunResult, Sweep, SweepCheckpoint, SweepPlan,
};

/// Delay-copy, RNN and LSTM, 2 seeds, a few steps (evaluated every step).
fn config() -> DelayConfig {
    DelayConfig {
        task: LabTask::Delay,
        cell: CellSet::Both,
        delay: 2,
        length: 6,
        vocab: 4,
        hidden_size: 8,
        batch_size: 4,
        steps: 9,
        seeds: 2,
        seed: 5,
        backend: BackendChoice::Cpu,
        ..DelayConfig::default()
    }
}

fn plan() -> SweepPlan {
    SweepPlan::of_lab(&config()).unwrap()
}

fn request(resume: Option<SweepCheckpoint>) -> TrainRequest {
    TrainRequest {
        query: encode(&config(), None),
        data: None,
        resume,
        start_from: None,
        shares: 1,
    }
}

/// Every run's result (untimed) and final weights (as bits), in the plan's order.
type Outcome = Vec<(RunResult, Vec<u32>)>;

fn outcome(sweeps: &[Sweep], order: &[RunId]) -> Outcome {
    order
        .iter()
        .map(|id| {
            let run = sweeps
                .iter()
                .flat_map(|s| s.runs())
                .find(|r| r.id() == *id)
                .expect("every run trained");
            assert!(run.is_finished(), "{id:?}");
            let bits = run.trainer().params().iter().map(|x| x.to_bits()).collect();
            (run.result(), bits)
        })
        .collect()
}

fn sequential() -> Outcome {
    let mut sweep = Sweep::new(plan());
    while sweep.tick().is_some() {}
    outcome(&[sweep], &plan().run_ids())
}

/// Shares of one run each, ticked round-robin from the last run to the first (an order no
/// worker count gives): the sequential sweep's results and weights, bit for bit.
#[test]
fn runs_ticked_in_parallel_order_match_the_sequential_sweep_bit_for_bit() {
    let whole = sequential();
    let ids = plan().run_ids();
    let mut shares: Vec<Sweep> = ids
        .iter()
        .rev()
        .map(|id| {
            let mut s = Sweep::new(plan());
            s.only(&[*id]).unwrap();
            s
        })
        .collect();
    assert!(shares.iter().all(|s| s.runs().len() == 1 && s.is_share()));
    loop {
        let mut ticked = false;
        for s in &mut shares {
            ticked |= s.tick().is_some();
        }
        if !ticked {
            break;
        }
    }
    assert_eq!(outcome(&shares, &ids), whole);
    // Two shares of two runs (as two workers with a static split would train them).
    let mut pairs: Vec<Sweep> = [[ids[0], ids[3]], [ids[1], ids[2]]]
        .iter()
        .map(|pair| {
            let mut s = Sweep::new(plan());
            s.only(pair).unwrap();
            s
        })
        .collect();
    loop {
        // Every share ticks once a round, whether or not the one before it had work left.
        let ticked: Vec<bool> = pairs.iter_mut().map(|s| s.tick().is_some()).collect();
        if !ticked.contains(&true) {
            break;
        }
    }
    assert_eq!(outcome(&pairs, &ids), whole);
}

/// The events of the engine's loop on one share, with `stop_after` ticks at most (then a
/// pause, its checkpoint, and a stop).
fn share_events(
    run_id: RunId,
    resume: Option<SweepCheckpoint>,
    stop_after: usize,
) -> Vec<LabEvent> {
    let (sweep, backend) = share_of(&request(resume), None, Some(&[run_id])).unwrap();
    let control = RunControl::new();
    let mut out = Vec::new();
    let mut ticks = 0;
    pollster::block_on(run(sweep, backend, true, &control, &mut |e| {
        if matches!(e, LabEvent::Tick(_)) {
            ticks += 1;
            if ticks == stop_after {
                control.pause();
            }
        }
        if matches!(e, LabEvent::Checkpoint(_)) && control.is_paused() {
            control.stop();
        }
        out.push(e)
    }));
    out
}

/// Drives a parallel sweep as the page's client does, two workers, through the engine's loop:
/// each worker takes the next run when its run ends; `cut` ticks per share at most, then the
/// share is paused and stopped. The merged events.
fn parallel(resume: Option<SweepCheckpoint>, cut: usize) -> Vec<LabEvent> {
    let plan = plan();
    let mut merged = ParallelSweep::new(&plan, resume.as_ref());
    let mut out = Vec::new();
    let mut stopped = false;
    // Two workers: their shares in turn (the loop is synchronous here; the order of the
    // events differs from the browser's, each run's numbers cannot).
    let mut workers: Vec<Option<(RunId, Option<SweepCheckpoint>)>> =
        vec![merged.take_next(), merged.take_next()];
    while workers.iter().any(Option::is_some) {
        for w in &mut workers {
            let Some((id, from)) = w.take() else { continue };
            let events = share_events(id, from, cut);
            stopped |= !matches!(events.last(), Some(LabEvent::Finished));
            for e in events {
                out.extend(merged.event(id, e));
            }
            if !stopped {
                *w = merged.take_next();
            }
        }
    }
    if merged.is_finished() {
        out.extend(merged.finish());
    }
    out
}

fn results(events: &[LabEvent]) -> Vec<RunResult> {
    let mut r: Vec<RunResult> = events
        .iter()
        .filter_map(|e| match e {
            LabEvent::Tick(t) => t.finished.clone(),
            _ => None,
        })
        .collect();
    let ids = plan().run_ids();
    r.sort_by_key(|r| ids.iter().position(|id| *id == r.run));
    r
}

fn last_checkpoint(events: &[LabEvent]) -> Option<SweepCheckpoint> {
    events.iter().rev().find_map(|e| match e {
        LabEvent::Checkpoint(c) => Some(c.as_ref().clone()),
        _ => None,
    })
}

/// Through the engine's loop: the merged events are one sweep's (one `Plan`, a `Backend` per
/// cell, every run's finished tick, the whole sweep's progress, `Finished` last) and the
/// results are the sequential sweep's.
#[test]
fn shares_through_the_loop_merge_into_one_sweeps_events_and_results() {
    let whole: Vec<RunResult> = sequential().into_iter().map(|(r, _)| r).collect();
    let all = parallel(None, usize::MAX);
    assert_eq!(
        all.iter()
            .filter(|e| matches!(e, LabEvent::Plan(_)))
            .count(),
        1
    );
    assert!(matches!(all[0], LabEvent::Plan(_)));
    assert_eq!(
        all.iter()
            .filter(|e| matches!(e, LabEvent::Backend(_)))
            .count(),
        2
    );
    assert_eq!(results(&all), whole);
    let LabEvent::Progress { progress, .. } = &all[all.len() - 2] else {
        panic!("{:?}", all[all.len() - 2])
    };
    assert_eq!(
        (
            progress.steps_done,
            progress.steps_total,
            progress.runs_finished,
            progress.runs_total
        ),
        (4 * 9, 4 * 9, 4, 4)
    );
    assert!(matches!(all.last(), Some(LabEvent::Finished)));
}

/// Stopped mid-run in both workers, the merged checkpoint holds every run in flight (and the
/// finished ones beside them); resumed in shares, or in one worker's sweep, it gives the
/// uninterrupted results, bit for bit.
#[test]
fn a_parallel_checkpoint_resumes_to_the_uninterrupted_results() {
    let whole: Vec<RunResult> = sequential().into_iter().map(|(r, _)| r).collect();
    let cut = parallel(None, 4);
    let c = last_checkpoint(&cut).expect("a checkpoint");
    let ids = plan().run_ids();
    let held: Vec<RunId> = c.runs.iter().map(|r| r.run).collect();
    // The longest runs first: both seeds' LSTM runs are in flight.
    let lstm: Vec<RunId> = ids
        .iter()
        .copied()
        .filter(|r| r.cell == CellKind::Lstm)
        .collect();
    assert_eq!(held, lstm, "the two LSTM runs, in flight");
    assert!(c
        .runs
        .iter()
        .all(|r| r.trainer.step > 0 && r.trainer.step < 9));
    assert_eq!(c.fits(&plan()), Ok(()));
    // In shares (the page reloaded with two workers).
    let mut resumed = results(&cut);
    resumed.extend(results(&parallel(Some(c.clone()), usize::MAX)));
    let mut resumed_sorted = resumed.clone();
    resumed_sorted.sort_by_key(|r| ids.iter().position(|id| *id == r.run));
    assert_eq!(resumed_sorted, whole);
    // In one worker's sweep (the page reloaded with `workers=1`).
    let (mut one, _) = sweep_of(&request(Some(c)), None).unwrap();
    let mut finished = Vec::new();
    while let Some(t) = one.tick() {
        finished.extend(t.finished);
    }
    // The LSTM runs were further on: they may end first; the page files results by run.
    finished.sort_by_key(|r| ids.iter().position(|id| *id == r.run));
    assert_eq!(finished, whole);
}

/// A checkpoint of runs of two seeds (the second seed's first run started while the first
/// seed's second run trained) fits; runs out of order, of another sweep, or not starting at
/// the plan's first seed are refused; runs of seeds before the plan's are passed over.
#[test]
fn checkpoints_of_runs_in_flight_fit_their_sweep() {
    let ids = plan().run_ids();
    let mut shares: Vec<Sweep> = ids
        .iter()
        .map(|id| {
            let mut s = Sweep::new(plan());
            s.only(&[*id]).unwrap();
            s
        })
        .collect();
    for s in &mut shares {
        for _ in 0..3 {
            s.tick();
        }
    }
    let run_of = |i: usize, shares: &mut Vec<Sweep>| {
        pollster::block_on(shares[i].checkpoint_all()).unwrap().runs[0].clone()
    };
    let c = SweepCheckpoint {
        settings: plan().settings(),
        runs: vec![run_of(1, &mut shares), run_of(2, &mut shares)],
        turn: 0,
        shares: 1,
    };
    assert_eq!(c.fits(&plan()), Ok(()));
    let (mut sweep, _) = sweep_of(&request(Some(c.clone())), None).unwrap();
    // The first seed's RNN starts from scratch, the others go on: the same results.
    let mut finished = Vec::new();
    while let Some(t) = sweep.tick() {
        finished.extend(t.finished);
    }
    finished.sort_by_key(|r| ids.iter().position(|id| *id == r.run));
    let whole: Vec<RunResult> = sequential().into_iter().map(|(r, _)| r).collect();
    assert_eq!(finished, whole);
    let swapped = SweepCheckpoint {
        runs: vec![c.runs[1].clone(), c.runs[0].clone()],
        ..c.clone()
    };
    assert!(matches!(
        swapped.fits(&plan()),
        Err(ResumeRefused::Runs { .. })
    ));
    let later = SweepCheckpoint {
        runs: vec![c.runs[1].clone()],
        ..c.clone()
    };
    assert!(matches!(
        later.fits(&plan()),
        Err(ResumeRefused::Runs { .. })
    ));
    // The rest of the sweep from its second seed: the first seed's run is passed over.
    let rest = SweepPlan::of_lab(&DelayConfig {
        seed: 6,
        seeds: 1,
        ..config()
    })
    .unwrap();
    assert_eq!(c.fits(&rest), Ok(()));
    let other = SweepPlan::of_lab(&DelayConfig {
        lr: 0.01,
        ..config()
    })
    .unwrap();
    assert_eq!(c.fits(&other), Err(ResumeRefused::Settings));
    assert_eq!(
        SweepCheckpoint { runs: vec![], ..c }.fits(&plan()),
        Err(ResumeRefused::Runs {
            saved: vec![],
            planned: ids[..2].to_vec()
        })
    );
}

/// How many workers a sweep gets: the URL's number, or the cores less one; at most 8 and at
/// most its runs; one where its runs may train on WebGPU; a sweep of one run is split instead.
#[test]
fn workers_follow_the_url_the_cores_and_the_path() {
    let cpu = config();
    let w = |c: &DelayConfig, cores, webgpu, runs| {
        let w = workers_for(c, cores, webgpu, runs, None);
        assert_eq!(w.shares, 1);
        (w.used, w.wanted, w.single)
    };
    assert_eq!(w(&cpu, 2, None, 4), (1, 1, None));
    assert_eq!(w(&cpu, 4, None, 4), (3, 3, None));
    assert_eq!(w(&cpu, 64, None, 4), (4, 8, None));
    assert_eq!(w(&cpu, 64, None, 15), (8, 8, None));
    assert_eq!(w(&cpu, 1, None, 4), (1, 1, None));
    let two = DelayConfig {
        workers: 2,
        ..cpu.clone()
    };
    assert_eq!(w(&two, 1, None, 4), (2, 2, None));
    let split = workers_for(&two, 8, None, 1, None);
    assert_eq!((split.used, split.shares, split.single), (2, 2, None));
    let one = DelayConfig {
        workers: 1,
        ..cpu.clone()
    };
    assert_eq!(w(&one, 8, None, 4), (1, 1, None));
    let auto = DelayConfig {
        backend: BackendChoice::Auto,
        ..two.clone()
    };
    assert_eq!(w(&auto, 8, Some(false), 4), (2, 2, None));
    assert_eq!(w(&auto, 8, Some(true), 4), (1, 2, Some(SingleWorker::Gpu)));
    assert_eq!(w(&auto, 8, None, 4), (1, 2, Some(SingleWorker::Gpu)));
    let gpu = DelayConfig {
        backend: BackendChoice::Gpu,
        ..two
    };
    assert_eq!(w(&gpu, 8, Some(false), 4), (1, 2, Some(SingleWorker::Gpu)));
}

/// A single run's split: the URL's number; for `0` the cores less one (at most 4) from 3
/// cores on, at most one share per 32 sequences and only from hidden size 128 (the step
/// measured to pay), unsplit otherwise, saying why; unsplit where it may train on WebGPU; a
/// resumed run keeps its checkpoint's count whatever the URL and the cores say.
#[test]
fn a_single_run_is_split_where_it_pays() {
    use unroll_core::engine::parallel::{
        split_for, AUTO_SHARES, SPLIT_MIN_CORES, SPLIT_MIN_HIDDEN, SPLIT_MIN_ROWS,
    };
    // The names recipe's step: hidden 128, 64 names.
    let names = (128, 64);
    let s = |asked, backend, cores, webgpu, resume| {
        let w = split_for(asked, backend, cores, webgpu, resume, names);
        assert_eq!(w.used, w.shares);
        (w.shares, w.single)
    };
    let cpu = BackendChoice::Cpu;
    assert_eq!(
        (SPLIT_MIN_CORES, SPLIT_MIN_HIDDEN, SPLIT_MIN_ROWS),
        (3, 128, 32)
    );
    assert_eq!(
        s(0, cpu, 2, None, None),
        (1, Some(SingleWorker::SplitDoesNotPay { cores: 2 }))
    );
    assert_eq!(s(0, cpu, 3, None, None), (2, None));
    // 64 names make 2 shares of 32 at most, whatever the cores.
    assert_eq!(s(0, cpu, 4, None, None), (2, None));
    assert_eq!(s(0, cpu, 16, None, None), (2, None));
    let at = |cores, step| split_for(0, cpu, cores, None, None, step);
    assert_eq!(at(16, (128, 256)).shares, AUTO_SHARES);
    assert_eq!(at(4, (256, 96)).shares, 3);
    // Steps smaller than the one measured to pay stay on one worker, saying why.
    for (hidden, batch) in [(16, 4), (64, 64), (128, 63), (127, 512)] {
        let w = at(16, (hidden, batch));
        assert_eq!(
            (w.shares, w.single),
            (1, Some(SingleWorker::StepTooSmall { hidden, batch })),
            "hidden {hidden}, batch {batch}"
        );
    }
    // The URL's number is the URL's, at any size.
    assert_eq!(split_for(2, cpu, 16, None, None, (16, 4)).shares, 2);
    assert_eq!(s(1, cpu, 16, None, None), (1, None));
    assert_eq!(s(2, cpu, 2, None, None), (2, None));
    assert_eq!(s(8, cpu, 1, None, None), (8, None));
    let auto = BackendChoice::Auto;
    assert_eq!(s(0, auto, 8, Some(false), None), (2, None));
    assert_eq!(
        s(0, auto, 8, Some(true), None),
        (1, Some(SingleWorker::Gpu))
    );
    assert_eq!(s(0, auto, 8, None, None), (1, Some(SingleWorker::Gpu)));
    assert_eq!(s(1, auto, 8, None, None), (1, None));
    // Resume: the checkpoint's count.
    assert_eq!(s(1, cpu, 16, None, Some(3)), (3, None));
    assert_eq!(s(0, cpu, 2, None, Some(2)), (2, None));
    assert_eq!(s(0, cpu, 16, None, Some(1)), (1, None));
}

#[test]
fn the_longest_runs_are_handed_out_first() {
    // RNN (1 gate block) and LSTM (4): the LSTM runs first, seed by seed, then the RNN runs.
    let plan = plan();
    let mut merged = ParallelSweep::new(&plan, None);
    let order: Vec<RunId> = std::iter::from_fn(|| merged.take_next().map(|(id, _)| id)).collect();
    let id = |cell, seed| RunId { cell, seed };
    let seeds: Vec<u32> = plan.run_ids().iter().map(|r| r.seed).collect();
    let (s0, s1) = (seeds[0], *seeds.last().unwrap());
    assert_eq!(
        order,
        vec![
            id(CellKind::Lstm, s0),
            id(CellKind::Lstm, s1),
            id(CellKind::Rnn, s0),
            id(CellKind::Rnn, s1)
        ]
    );
    // A run that comes back (its worker stopped) with fewer steps left than a waiting run of
    // the same cell goes after it.
    let mut merged = ParallelSweep::new(&plan, None);
    let (first, _) = merged.take_next().unwrap();
    assert_eq!(first, id(CellKind::Lstm, s0));
    merged.requeue(first);
    assert_eq!(
        merged.take_next().unwrap().0,
        id(CellKind::Lstm, s0),
        "nothing trained: the same run again"
    );
}
