//! A delay-copy sweep stopped mid-seed and resumed from its checkpoint: the checkpoint goes
//! through the bytes the page keeps (postcard, as the engine's messages), a sweep of the rest
//! of the configuration restores it, and every tick that follows — steps, losses, held-out
//! evaluations, the finished runs' results — is bit-identical to the uninterrupted sweep's. A
//! checkpoint of other settings, of another seed or of another model is refused and leaves the
//! sweep as it was.

use unroll_core::config::delay::{CellSet, DelayConfig};
use unroll_core::delay::run::{
    eval_every_for, ResumeRefused, RunResult, Sweep, SweepCheckpoint, Tick,
};
use unroll_core::engine::protocol::{decode, encode};

fn config() -> DelayConfig {
    DelayConfig {
        cell: CellSet::Both,
        delay: 3,
        length: 16,
        vocab: 5,
        hidden_size: 8,
        batch_size: 8,
        steps: 40,
        seed: 7,
        seeds: 2,
        ..DelayConfig::default()
    }
}

fn sweep(config: &DelayConfig) -> Sweep {
    Sweep::with_eval_every(config, eval_every_for(config.steps)).expect("valid delay")
}

/// Every tick of a sweep, to its end.
fn drain(sweep: &mut Sweep) -> Vec<Tick> {
    std::iter::from_fn(|| sweep.tick()).collect()
}

/// The rest of `config` from the checkpoint's seed on (what the page resumes with).
fn rest_of(config: &DelayConfig, c: &SweepCheckpoint) -> DelayConfig {
    let seed = c.seed().expect("a checkpoint has runs");
    DelayConfig {
        seed,
        seeds: config.seeds - (seed - config.seed) as usize,
        ..config.clone()
    }
}

/// The checkpoint after `n` ticks, through the bytes the page keeps.
fn checkpoint_after(config: &DelayConfig, n: usize) -> SweepCheckpoint {
    let mut s = sweep(config);
    for _ in 0..n {
        s.tick().expect("the sweep is not finished");
    }
    let c = s.checkpoint().expect("a seed is in training");
    let back: SweepCheckpoint = decode(&encode(&c)).expect("the checkpoint reads back");
    assert_eq!(back, c);
    back
}

#[test]
fn a_sweep_resumed_from_its_checkpoint_gives_the_same_numbers() {
    let config = config();
    let full = drain(&mut sweep(&config));
    // Per seed: two evaluations at step 0, then two cells × 40 steps.
    let per_seed = 2 * (1 + config.steps as usize);
    assert_eq!(full.len(), 2 * per_seed);
    let full_results: Vec<RunResult> = full.iter().filter_map(|t| t.finished.clone()).collect();
    assert_eq!(full_results.len(), 4);
    // Mid first seed (both turns, after the first evaluation, with the RNN finished and the
    // LSTM one step short), and mid second seed.
    for n in [1, 2, 3, 24, 25, per_seed - 1, per_seed + 37] {
        let c = checkpoint_after(&config, n);
        let seed = c.seed().unwrap();
        assert_eq!(seed, config.seed + (n / per_seed) as u32, "after {n} ticks");
        let done = (n % per_seed).saturating_sub(2);
        assert_eq!(c.step(), done as u64 / 2, "after {n} ticks");
        let rest = rest_of(&config, &c);
        c.fits(&rest, eval_every_for(rest.steps)).unwrap();
        let mut resumed = sweep(&rest);
        resumed.restore(&c).unwrap();
        assert_eq!(
            resumed.progress().steps_done,
            c.runs.iter().map(|r| r.trainer.step).sum::<u64>()
        );
        let after = drain(&mut resumed);
        // Bit for bit: every step's loss, accuracy and gradient norm, every evaluation.
        assert_eq!(after, full[n..], "resumed after {n} ticks");
        let results: Vec<RunResult> = after.iter().filter_map(|t| t.finished.clone()).collect();
        // Every run not finished at the checkpoint finishes with the uninterrupted figures.
        let finished_before: Vec<_> = full[..n]
            .iter()
            .filter_map(|t| t.finished.as_ref())
            .map(|r| r.run)
            .collect();
        let expected: Vec<&RunResult> = full_results
            .iter()
            .filter(|r| r.run.seed >= seed && !finished_before.contains(&r.run))
            .collect();
        assert_eq!(expected.len(), 4 - finished_before.len(), "after {n} ticks");
        assert_eq!(results.iter().collect::<Vec<_>>(), expected);
        for (r, e) in results.iter().zip(&expected) {
            let (a, b) = (r.last().unwrap(), e.last().unwrap());
            assert_eq!(
                (a.step, a.acc.to_bits(), a.loss.to_bits()),
                (b.step, b.acc.to_bits(), b.loss.to_bits())
            );
            assert_eq!(r.curve.first().unwrap().step, 0, "the curve from step 0");
        }
    }
    // The training did move: the last held-out loss is below the first.
    let r = &full_results[3];
    assert!(r.last().unwrap().loss < r.curve[0].loss, "{r:?}");
}

#[test]
fn a_finished_seed_leaves_no_checkpoint() {
    let config = config();
    let mut s = sweep(&config);
    assert_eq!(s.checkpoint(), None, "nothing trained yet");
    for _ in 0..2 * (1 + config.steps) {
        s.tick().unwrap();
    }
    assert_eq!(s.checkpoint(), None, "the first seed is finished");
    s.tick().unwrap();
    assert_eq!(s.checkpoint().and_then(|c| c.seed()), Some(config.seed + 1));
    drain(&mut s);
    assert_eq!(s.checkpoint(), None);
}

#[test]
fn a_checkpoint_of_other_settings_is_refused() {
    let config = config();
    let c = checkpoint_after(&config, 30);
    let fresh = drain(&mut sweep(&config));
    let refused = |other: &DelayConfig, c: &SweepCheckpoint| {
        let mut s = sweep(other);
        let e = s.restore(c).expect_err("refused");
        // The sweep is unchanged: it trains as if never asked.
        assert_eq!(drain(&mut s), drain(&mut sweep(other)), "after {e}");
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
    ] {
        assert_eq!(refused(&other, &c), ResumeRefused::Settings, "{other:?}");
        assert!(c.fits(&other, eval_every_for(other.steps)).is_err());
    }
    // Another seed, or other cells.
    let next = DelayConfig {
        seed: config.seed + 1,
        seeds: 1,
        ..config.clone()
    };
    assert!(matches!(refused(&next, &c), ResumeRefused::Runs { .. }));
    let lstm = DelayConfig {
        cell: CellSet::One(unroll_core::math::params::CellKind::Lstm),
        ..config.clone()
    };
    assert!(matches!(refused(&lstm, &c), ResumeRefused::Runs { .. }));
    // Another evaluation interval.
    assert_eq!(c.fits(&config, 3), Err(ResumeRefused::Settings));
    // Vectors of another model.
    let mut short = c.clone();
    short.runs[1].trainer.adam_v.pop();
    let n = c.runs[1].trainer.params.len();
    assert_eq!(
        refused(&config, &short),
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
        refused(&config, &past),
        ResumeRefused::Steps { .. }
    ));
    // A sweep that has trained already.
    let mut started = sweep(&config);
    started.tick().unwrap();
    assert_eq!(started.restore(&c), Err(ResumeRefused::Started));
    // The checkpoint itself still resumes its own sweep.
    let mut s = sweep(&config);
    s.restore(&c).unwrap();
    assert_eq!(drain(&mut s), fresh[30..]);
}
