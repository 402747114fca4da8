//! Measured runs of the delay-copy task: the fixed held-out set, clipping, seeds, the sweep's
//! schedule, the short learning check, and the typed outcomes and sweep summary (on synthetic
//! results, so every branch is exercised without long runs).

use unroll_core::config::delay::{CellSet, DelayConfig};
use unroll_core::delay::outcome::{
    judge, outcome_of_results, Capacity, CellAccuracies, Outcome, RecordError, SweepSummary,
};
use unroll_core::delay::run::{
    HeldOut, HeldOutSet, ParamCount, RunId, RunResult, Sweep, Tick, HELDOUT_SEQUENCES,
};
use unroll_core::delay::task::DelayTask;
use unroll_core::delay::trainer::{CellTrainer, Recipe};
use unroll_core::math::params::CellKind::{self, Gru, Lstm, Rnn};

fn small(delay: usize, steps: u64, seeds: usize) -> DelayConfig {
    DelayConfig {
        delay,
        length: 24,
        hidden_size: 32,
        batch_size: 16,
        steps,
        seeds,
        ..DelayConfig::default()
    }
}

#[test]
fn the_heldout_set_is_fixed_and_shared_by_every_cell_and_seed() {
    let task = DelayTask::new(10, 96, 8).unwrap();
    let h = HeldOutSet::new(&task);
    assert_eq!(h.batch().batch, HELDOUT_SEQUENCES);
    assert_eq!(h.batch().batch, 256);
    assert_eq!(h.batch().seq_len, 96);
    assert_eq!(h, HeldOutSet::new(&task));
    // Not a training sequence of any seed the page can ask for (its first batches).
    for seed in [0u64, 1, 2, 7, u64::from(u32::MAX)] {
        let train = task.stream(seed).next_batch(HELDOUT_SEQUENCES);
        assert_ne!(train.tokens, h.batch().tokens, "seed {seed}");
    }
    // Every sweep of the same task measures on it, whatever the seed and cells.
    let a = Sweep::new(&DelayConfig::default()).unwrap();
    let b = Sweep::new(&DelayConfig {
        seed: 9,
        cell: CellSet::One(CellKind::Gru),
        ..DelayConfig::default()
    })
    .unwrap();
    assert_eq!(a.heldout(), &h);
    assert_eq!(b.heldout(), &h);
}

#[test]
fn the_sweep_runs_seed_after_seed_with_cells_in_turn() {
    let cfg = DelayConfig {
        seed: 5,
        ..small(3, 3, 2)
    };
    let mut sweep = Sweep::with_eval_every(&cfg, 2).unwrap();
    assert_eq!(
        sweep.plan(),
        [(Rnn, 5), (Lstm, 5), (Rnn, 6), (Lstm, 6)].map(|(cell, seed)| RunId { cell, seed })
    );
    let p = sweep.progress();
    assert_eq!(
        (p.steps_done, p.steps_total, p.runs_finished, p.runs_total),
        (0, 12, 0, 4)
    );
    assert_eq!(p.seconds_left(0.0), None);
    let mut ticks: Vec<Tick> = Vec::new();
    while let Some(t) = sweep.tick() {
        ticks.push(t);
        assert!(ticks.len() < 100, "the sweep never ends");
    }
    assert!(sweep.is_finished());
    assert!(sweep.tick().is_none());
    // Per seed: both cells' step-0 evaluation, then steps 1, 2, 3 in turn.
    let order: Vec<(CellKind, u32, u64)> = ticks
        .iter()
        .map(|t| (t.run.cell, t.run.seed, t.step.map_or(0, |s| s.step)))
        .collect();
    let mut want = Vec::new();
    for seed in [5, 6] {
        for step in 0..=3 {
            want.push((Rnn, seed, step));
            want.push((Lstm, seed, step));
        }
    }
    assert_eq!(order, want);
    // Held-out evaluations at step 0, every 2 steps and after the last step.
    for t in &ticks {
        let n = t.step.map_or(0, |s| s.step);
        assert_eq!(t.heldout.is_some(), n == 0 || n == 2 || n == 3, "{t:?}");
        if let (Some(h), Some(s)) = (t.heldout, t.step) {
            assert_eq!((h.cell, h.seed, h.step), (s.cell, s.seed, s.step));
        }
        assert_eq!(t.finished.is_some(), n == 3);
    }
    let results = sweep.results();
    assert_eq!(results.len(), 4);
    for r in &results {
        assert_eq!(
            r.curve.iter().map(|h| h.step).collect::<Vec<_>>(),
            [0, 2, 3]
        );
        assert_eq!((r.steps, r.delay, r.skipped_steps), (3, 3, 0));
        for h in &r.curve {
            assert!((0.0..=1.0).contains(&h.acc) && h.loss.is_finite() && h.loss > 0.0);
        }
    }
    let p = sweep.progress();
    assert_eq!((p.steps_done, p.runs_finished, p.fraction()), (12, 4, 1.0));
    // The finished results are what each tick said.
    let finished: Vec<RunResult> = ticks.iter().filter_map(|t| t.finished.clone()).collect();
    assert_eq!(finished.len(), 4);
    for r in &finished {
        assert!(results.contains(r));
    }
    assert_eq!(
        sweep.param_counts(),
        vec![
            ParamCount {
                cell: Rnn,
                total: 32 * 10 + 32 * 32 + 64 + 330,
                recurrent: 32 * 10 + 32 * 32 + 64
            },
            ParamCount {
                cell: Lstm,
                total: 4 * (32 * 10 + 32 * 32 + 64) + 330,
                recurrent: 4 * (32 * 10 + 32 * 32 + 64)
            },
        ]
    );
    // Seeds differ, the same configuration gives the same numbers.
    let again: Vec<RunResult> = {
        let mut s = Sweep::with_eval_every(&cfg, 2).unwrap();
        while s.tick().is_some() {}
        s.results()
    };
    assert_eq!(again, results);
    assert_ne!(results[0].curve[1..], results[2].curve[1..]);
    // Progress extrapolates the time left from the steps done.
    let mut s = Sweep::with_eval_every(&cfg, 2).unwrap();
    for _ in 0..5 {
        s.tick();
    }
    let p = s.progress();
    assert_eq!(p.steps_done, 3);
    assert_eq!(p.seconds_left(3.0), Some(9.0));
    // Serialisable: the results cross the worker boundary as JSON (floats to within the last
    // digit serde_json writes).
    let json = serde_json::to_string(&ticks).unwrap();
    let back: Vec<Tick> = serde_json::from_str(&json).unwrap();
    assert_eq!(back.len(), ticks.len());
    for (b, t) in back.iter().zip(&ticks) {
        assert_eq!(
            (b.run, b.step.map(|s| s.step), b.finished.is_some()),
            (t.run, t.step.map(|s| s.step), t.finished.is_some())
        );
        let (hb, ht) = (
            b.heldout.unwrap_or(t.heldout.unwrap_or(HeldOut {
                cell: Rnn,
                seed: 0,
                step: 0,
                acc: 0.0,
                loss: 0.0,
            })),
            t.heldout,
        );
        if let Some(ht) = ht {
            assert!((hb.acc - ht.acc).abs() < 1e-12 && (hb.loss - ht.loss).abs() < 1e-12);
            assert_eq!((hb.cell, hb.seed, hb.step), (ht.cell, ht.seed, ht.step));
        } else {
            assert!(b.heldout.is_none());
        }
    }
}

#[test]
fn clipping_changes_training_only_when_the_norm_exceeds_max_norm() {
    let cfg = small(4, 10, 1);
    let task = DelayTask::new(cfg.vocab, cfg.length, cfg.delay).unwrap();
    let run = |max_norm: Option<f32>| {
        let recipe = Recipe {
            max_norm,
            ..Recipe::of(&cfg)
        };
        let mut t = CellTrainer::new(Lstm, &task, &recipe, 0);
        let norms: Vec<f64> = (0..3).map(|_| t.step().grad_norm).collect();
        (t.params().to_vec(), norms)
    };
    let (free, norms) = run(None);
    assert!(norms.iter().all(|n| n.is_finite() && *n > 0.0), "{norms:?}");
    // A threshold above every norm: exactly the unclipped run.
    let (loose, loose_norms) = run(Some(1e6));
    assert_eq!(loose, free);
    assert_eq!(loose_norms, norms);
    // A threshold below them: the same first norm is reported (before clipping) and training
    // differs.
    let tight_max = (norms.iter().copied().fold(f64::INFINITY, f64::min) / 10.0) as f32;
    let (tight, tight_norms) = run(Some(tight_max));
    assert_eq!(tight_norms[0], norms[0]);
    assert_ne!(tight, free);
    // max_norm 0 in the URL is "off".
    assert_eq!(
        Recipe::of(&DelayConfig {
            max_norm: 0.0,
            ..cfg.clone()
        })
        .max_norm,
        None
    );
}

/// The short learning check of the measured runs: delay 4, length 24, hidden 32, batch 16,
/// 300 steps, seed 0, recipe R otherwise. Both cells start at chance on the held-out set and
/// end clearly above it.
#[test]
fn both_cells_learn_delay_4_on_the_heldout_set() {
    let cfg = small(4, 300, 1);
    let mut sweep = Sweep::new(&cfg).unwrap();
    while sweep.tick().is_some() {}
    let results = sweep.results();
    assert_eq!(results.len(), 2);
    let chance = 0.1;
    for r in &results {
        let first = r.curve[0];
        let last = *r.last().unwrap();
        assert_eq!(
            r.curve.iter().map(|h| h.step).collect::<Vec<_>>(),
            [0, 100, 200, 300]
        );
        eprintln!(
            "{:?}: held-out accuracy {:.3} → {:.3}, loss {:.3} → {:.3}",
            r.run.cell, first.acc, last.acc, first.loss, last.loss
        );
        assert!(
            (first.acc - chance).abs() < 0.05,
            "{:?} starts at {}",
            r.run.cell,
            first.acc
        );
        assert!((first.loss - 10f64.ln()).abs() < 0.2, "{:?}", first);
        // Clearly above chance: at least three times the chance accuracy, and the loss half a
        // nat below ln 10.
        assert!(
            last.acc > 3.0 * chance,
            "{:?} ends at {}",
            r.run.cell,
            last.acc
        );
        assert!(last.loss < 10f64.ln() - 0.5, "{:?}", last);
    }
    // The outcome sentence may only say what these runs show.
    let outcome = outcome_of_results(&cfg, &results);
    assert!(
        matches!(
            outcome,
            Outcome::AllSolved { .. } | Outcome::Leads { .. } | Outcome::AllLearned { .. }
        ),
        "{outcome:?}"
    );
}

fn accs(cell: CellKind, accs: &[f64]) -> CellAccuracies {
    CellAccuracies {
        cell,
        accs: accs.to_vec(),
    }
}

#[test]
fn outcomes_claim_only_what_every_seed_shows() {
    let chance = 0.1;
    // Missing seeds: nothing is claimed.
    assert_eq!(
        judge(
            &[accs(Rnn, &[0.99, 0.99, 0.99]), accs(Lstm, &[0.99, 0.99])],
            3,
            chance
        ),
        Outcome::NotEnoughRuns {
            cell: Lstm,
            have: 2,
            need: 3
        }
    );
    assert!(matches!(
        judge(&[], 3, chance),
        Outcome::NotEnoughRuns { have: 0, .. }
    ));
    // Delay 8 with recipe R: both solved.
    let o = judge(
        &[
            accs(Rnn, &[0.995, 0.999, 1.0]),
            accs(Lstm, &[0.99, 0.996, 0.998]),
        ],
        3,
        chance,
    );
    let Outcome::AllSolved { cells } = o else {
        panic!("{o:?}")
    };
    assert_eq!(
        (cells[0].cell, cells[0].min, cells[0].max),
        (Rnn, 0.995, 1.0)
    );
    assert_eq!((cells[1].cell, cells[1].seeds), (Lstm, 3));
    // Delay 16: the LSTM's worst seed beats the RNN's best.
    let o = judge(
        &[
            accs(Rnn, &[0.84, 0.88, 0.91]),
            accs(Lstm, &[0.915, 0.92, 0.93]),
        ],
        3,
        chance,
    );
    let Outcome::Leads { leader, others } = o else {
        panic!("{o:?}")
    };
    assert_eq!(
        (leader.cell, leader.min, others[0].cell, others[0].max),
        (Lstm, 0.915, Rnn, 0.91)
    );
    // Overlapping ranges: no order is claimed.
    let o = judge(
        &[
            accs(Rnn, &[0.84, 0.88, 0.93]),
            accs(Lstm, &[0.91, 0.92, 0.93]),
        ],
        3,
        chance,
    );
    assert!(matches!(o, Outcome::AllLearned { .. }), "{o:?}");
    // One seed: never a ranking.
    let o = judge(&[accs(Rnn, &[0.3]), accs(Lstm, &[0.9])], 1, chance);
    assert!(matches!(o, Outcome::AllLearned { .. }), "{o:?}");
    // Delay 32: the LSTM left chance in every seed, the RNN stayed there.
    let o = judge(
        &[
            accs(Rnn, &[0.097, 0.1, 0.102]),
            accs(Lstm, &[0.32, 0.33, 0.34]),
        ],
        3,
        chance,
    );
    let Outcome::OnlySome {
        learned,
        at_chance,
        chance: c,
    } = o
    else {
        panic!("{o:?}")
    };
    assert_eq!(
        (learned.len(), learned[0].cell, at_chance[0].cell, c),
        (1, Lstm, Rnn, 0.1)
    );
    // Delay 64: both at chance.
    let o = judge(
        &[
            accs(Rnn, &[0.096, 0.106, 0.1]),
            accs(Lstm, &[0.096, 0.099, 0.097]),
        ],
        3,
        chance,
    );
    let Outcome::AllAtChance { cells, .. } = o else {
        panic!("{o:?}")
    };
    assert!((cells[0].max - 0.106).abs() < 1e-12);
    // Seeds that disagree (one left chance, two did not), or sit between the bands.
    let o = judge(
        &[accs(Rnn, &[0.1, 0.1, 0.1]), accs(Lstm, &[0.1, 0.3, 0.1])],
        3,
        chance,
    );
    assert!(
        matches!(o, Outcome::Unclear { cell, .. } if cell.cell == Lstm),
        "{o:?}"
    );
    let o = judge(&[accs(Rnn, &[0.13, 0.13, 0.13])], 3, chance);
    assert!(matches!(o, Outcome::Unclear { .. }), "{o:?}");
    // The bands follow the chance level: vocab 2 (chance 0.5).
    assert!(matches!(
        judge(&[accs(Gru, &[0.505, 0.51])], 2, 0.5),
        Outcome::AllAtChance { .. }
    ));
    assert!(matches!(
        judge(&[accs(Gru, &[0.6, 0.7])], 2, 0.5),
        Outcome::AllLearned { .. }
    ));
    // Three cells: a leader needs to beat both others.
    let o = judge(
        &[
            accs(Rnn, &[0.5, 0.6]),
            accs(Lstm, &[0.8, 0.9]),
            accs(Gru, &[0.7, 0.85]),
        ],
        2,
        chance,
    );
    assert!(matches!(o, Outcome::AllLearned { .. }), "{o:?}");
    let o = judge(
        &[
            accs(Rnn, &[0.5, 0.6]),
            accs(Lstm, &[0.8, 0.9]),
            accs(Gru, &[0.7, 0.75]),
        ],
        2,
        chance,
    );
    assert!(
        matches!(o, Outcome::Leads { leader, .. } if leader.cell == Lstm),
        "{o:?}"
    );
    // Serialisable for the page.
    let json = serde_json::to_string(&o).unwrap();
    assert_eq!(serde_json::from_str::<Outcome>(&json).unwrap(), o);
}

/// A finished synthetic run of `config` whose last held-out accuracy is `acc`.
fn result(config: &DelayConfig, cell: CellKind, seed: u32, acc: f64) -> RunResult {
    let at = |step, acc| HeldOut {
        cell,
        seed,
        step,
        acc,
        loss: 2.0 - acc,
    };
    RunResult {
        run: RunId { cell, seed },
        delay: config.delay,
        steps: config.steps,
        skipped_steps: 0,
        params: ParamCount {
            cell,
            total: 1,
            recurrent: 1,
        },
        curve: vec![at(0, 0.1), at(config.steps, acc)],
        backend: None,
        cpu_from: None,
    }
}

#[test]
fn the_sweep_summary_fills_in_per_delay_and_cell() {
    let base = DelayConfig::default();
    let mut summary = SweepSummary::new(&base);
    let d8 = base.with_preset_delay(8);
    let d32 = base.with_preset_delay(32);
    for (seed, acc) in [(0, 0.3), (1, 0.34), (2, 0.32)] {
        summary
            .record(&d32, &result(&d32, Lstm, seed, acc))
            .unwrap();
        summary.record(&d32, &result(&d32, Rnn, seed, 0.1)).unwrap();
    }
    summary.record(&d8, &result(&d8, Rnn, 0, 0.99)).unwrap();
    // A rerun of the same seed replaces its figure.
    summary.record(&d8, &result(&d8, Rnn, 0, 0.995)).unwrap();
    let rows = summary.rows();
    assert_eq!(rows.iter().map(|r| r.delay).collect::<Vec<_>>(), [8, 32]);
    assert_eq!(rows[0].cells.len(), 1);
    assert_eq!(rows[0].cells[0].accs, vec![(0, 0.995)]);
    let lstm = rows[1].cell(Lstm).unwrap();
    assert_eq!(lstm.accs, vec![(0, 0.3), (1, 0.34), (2, 0.32)]);
    assert_eq!((lstm.min, lstm.max, lstm.seeds()), (0.3, 0.34, 3));
    assert!((lstm.mean - 0.32).abs() < 1e-12);
    assert_eq!(rows[1].cells[0].cell, Rnn);
    // The row's outcome: at delay 32 the LSTM only; at delay 8 not enough runs yet.
    let o = rows[1].outcome(&[Rnn, Lstm], 3, summary.key.chance());
    assert!(matches!(o, Outcome::OnlySome { .. }), "{o:?}");
    let o = rows[0].outcome(&[Rnn, Lstm], 3, 0.1);
    assert_eq!(
        o,
        Outcome::NotEnoughRuns {
            cell: Rnn,
            have: 1,
            need: 3
        }
    );
    // Other settings or an unfinished run are refused (nothing mixes silently).
    let other = DelayConfig {
        forget_bias: 0.0,
        ..d32.clone()
    };
    assert!(!summary.accepts(&other));
    assert_eq!(
        summary.record(&other, &result(&other, Lstm, 0, 0.1)),
        Err(RecordError::OtherSettings)
    );
    let mut unfinished = result(&d32, Lstm, 0, 0.2);
    unfinished.curve.pop();
    assert_eq!(
        summary.record(&d32, &unfinished),
        Err(RecordError::Unfinished)
    );
    assert_eq!(summary.figures.len(), 7);
    // Kept across reloads as JSON.
    let json = serde_json::to_string(&summary).unwrap();
    assert_eq!(
        serde_json::from_str::<SweepSummary>(&json).unwrap(),
        summary
    );
    // The outcome of a configuration's own results ignores other delays.
    let results: Vec<RunResult> = (0..3)
        .flat_map(|s| [result(&d32, Rnn, s, 0.1), result(&d32, Lstm, s, 0.3)])
        .chain([result(&d8, Lstm, 0, 1.0)])
        .collect();
    assert!(matches!(
        outcome_of_results(&d32, &results),
        Outcome::OnlySome { .. }
    ));
    assert!(matches!(
        outcome_of_results(&d8, &results),
        Outcome::NotEnoughRuns {
            cell: Rnn,
            have: 0,
            need: 3
        }
    ));
}

#[test]
fn capacity_figures_come_from_the_page_state() {
    let c = Capacity::of(&DelayConfig::default().with_preset_delay(64));
    assert_eq!((c.delay, c.vocab, c.hidden_size), (64, 10, 128));
    assert!((c.bits - 64.0 * 10f64.log2()).abs() < 1e-9);
    assert!((c.bits - 212.6).abs() < 0.1, "{}", c.bits);
    assert_eq!((c.state_floats(Rnn), c.state_floats(Lstm)), (128, 256));
    let c = Capacity::of(&DelayConfig {
        delay: 5,
        vocab: 2,
        hidden_size: 16,
        ..DelayConfig::default()
    });
    assert_eq!((c.bits, c.hidden_size), (5.0, 16));
}
