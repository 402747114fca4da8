//! The delay-copy task: generator, per-token model (the labs' one model with the task's
//! readout), CPU trainer, URL codec.
//!
//! Positions are 0-based: with delay d the target at position t ≥ d is the token at t − d.
//! The measured runs (held-out set, seeds, outcomes) are tested in `core/tests/suite/delay_runs.rs`.

use unroll_core::config::delay::{check_delay, CellSet, DelayConfig, LabTask, DELAY_FIELDS};
use unroll_core::config::lessons::{route, Route};
use unroll_core::config::query::{decode, encode, markdown_table, Accepted, NoticeKind, TiedBy};
use unroll_core::config::{BackendChoice, Lang};
use unroll_core::delay::task::{batch_of, targets, DelayTask};
use unroll_core::math::model::{SeqBatch, SeqModel};
use unroll_core::math::params::CellKind;
use unroll_core::train::sweep::{Sweep, SweepPlan};
use unroll_core::train::trainer::{at_once, model_of, Recipe, Trainer};

/// The delay model of `cell` over `vocab` tokens with hidden size `hidden`, reading every
/// position from `delay` on.
fn delay_model(cell: CellKind, vocab: usize, hidden: usize, delay: usize) -> SeqModel {
    let task = DelayTask::new(vocab, delay + 1, delay).unwrap();
    let recipe = Recipe {
        hidden_size: hidden,
        ..Recipe::default()
    };
    model_of(&task, cell, &recipe)
}

const CELLS: [CellKind; unroll_core::math::cell::CELL_COUNT] = CellKind::ALL;

#[test]
fn targets_of_the_hand_example() {
    // tokens 3, 8, 2, 5, 1 with delay 2 → targets 3, 8, 2 at positions 2, 3, 4.
    assert_eq!(targets(&[3, 8, 2, 5, 1], 2).unwrap(), vec![3, 8, 2]);
    assert_eq!(targets(&[3, 8, 2, 5, 1], 4).unwrap(), vec![3]);
    // Two sequences, time-major: row i of the targets is position 2 + i.
    let b = batch_of(&[vec![3, 8, 2, 5, 1], vec![0, 1, 2, 3, 4]], 2).unwrap();
    assert_eq!(b.readouts(), 3);
    assert_eq!(b.labels(), &[3, 0, 8, 1, 2, 2]);
    assert_eq!(b.sequence(0).unwrap(), vec![3, 8, 2, 5, 1]);
    assert_eq!(b.sequence(1).unwrap(), vec![0, 1, 2, 3, 4]);
    assert_eq!(b.rows(1..2).labels(), &[0, 1, 2]);
}

#[test]
fn generated_targets_are_the_tokens_delay_steps_back() {
    let task = DelayTask::new(7, 40, 9).unwrap();
    let batch = task.tokens(3, 5).next_batch();
    assert!(batch.tokens().unwrap().iter().all(|&x| x < 7));
    for b in 0..5 {
        let seq = batch.sequence(b).unwrap();
        let want: Vec<u32> = (9..40).map(|t| seq[t - 9]).collect();
        let got: Vec<u32> = (0..31).map(|i| batch.labels()[i * 5 + b]).collect();
        assert_eq!(got, want);
    }
    // Every symbol of the vocabulary occurs (uniform draws), none outside it.
    let big = task.tokens(4, 64).next_batch();
    for v in 0..7 {
        assert!(big.tokens().unwrap().contains(&v), "token {v} never drawn");
    }
}

#[test]
fn same_seed_same_sequences_and_same_training() {
    let task = DelayTask::new(10, 96, 8).unwrap();
    let (mut a, mut b, mut c) = (task.tokens(11, 4), task.tokens(11, 4), task.tokens(12, 4));
    for _ in 0..3 {
        let (x, y, z) = (a.next_batch(), b.next_batch(), c.next_batch());
        assert_eq!(x, y);
        assert_ne!(x, z);
    }
    let cfg = DelayConfig {
        hidden_size: 16,
        length: 24,
        batch_size: 4,
        seed: 5,
        seeds: 1,
        steps: 10,
        ..DelayConfig::default()
    };
    let run = |cfg: &DelayConfig| {
        let mut sweep = Sweep::new(SweepPlan::of_lab(cfg).unwrap());
        let mut out = Vec::new();
        while out.len() < 6 {
            let t = sweep.tick().unwrap();
            for s in &t.steps {
                out.push((t.run.cell, s.step, s.loss, s.acc));
            }
        }
        out
    };
    let first = run(&cfg);
    assert_eq!(first, run(&cfg));
    // Cells take turns: RNN step 1, LSTM step 1, RNN step 2, …
    let order: Vec<_> = first.iter().map(|s| (s.0, s.1)).collect();
    assert_eq!(
        order,
        [
            (CellKind::Rnn, 1),
            (CellKind::Lstm, 1),
            (CellKind::Rnn, 2),
            (CellKind::Lstm, 2),
            (CellKind::Rnn, 3),
            (CellKind::Lstm, 3)
        ]
    );
    let other = run(&DelayConfig {
        seed: 6,
        ..cfg.clone()
    });
    assert_ne!(first, other);
}

#[test]
fn invalid_delays_give_clear_messages_never_a_panic() {
    assert!(check_delay(1, 2).is_ok());
    assert!(check_delay(95, 96).is_ok());
    let zero = check_delay(0, 96).unwrap_err();
    assert!(zero.to_string().contains("at least 1"), "{zero}");
    let long = check_delay(96, 96).unwrap_err();
    let msg = long.to_string();
    assert!(msg.contains("below the sequence length"), "{msg}");
    assert!(msg.contains("delay 96 with length 96"), "{msg}");
    assert!(msg.contains("1–95"), "{msg}");
    assert_eq!(check_delay(200, 96).unwrap_err().allowed(), "1–95");
    assert!(targets(&[1, 2, 3], 3).is_err());
    assert!(targets(&[1, 2, 3], 0).is_err());
    assert!(DelayTask::new(10, 8, 8).is_err());
    assert!(batch_of(&[vec![1, 2]], 2).is_err());

    // From the URL: the values are kept, one notice on `delay` names the allowed range, and the
    // trainer refuses to start.
    for (q, delay, length, allowed) in [
        (
            "v=1&lesson=delay&delay=0",
            0,
            96,
            "1–95 (0 < delay < length 96)",
        ),
        (
            "v=1&lesson=delay&delay=100",
            100,
            96,
            "1–95 (0 < delay < length 96)",
        ),
        (
            "v=1&lesson=delay&delay=64&length=64",
            64,
            64,
            "1–63 (0 < delay < length 64)",
        ),
        (
            "v=1&lesson=delay&delay=8&length=2",
            8,
            2,
            "1–1 (0 < delay < length 2)",
        ),
    ] {
        let d = decode::<DelayConfig>(q);
        assert_eq!((d.config.delay, d.config.length), (delay, length), "{q}");
        assert_eq!(d.notices.len(), 1, "{q}: {:?}", d.notices);
        assert_eq!(d.notices[0].field, "delay");
        let NoticeKind::Inconsistent { allowed: got } = &d.notices[0].kind else {
            panic!("{q}: {:?}", d.notices[0]);
        };
        assert_eq!(
            *got,
            Accepted::Tied {
                min: 1.0,
                max: (length - 1).max(1) as f64,
                rule: TiedBy::DelayBelowLength { length }
            },
            "{q}"
        );
        assert_eq!(got.to_string(), allowed, "{q}");
        assert!(
            d.notices[0].to_string().contains("does not fit"),
            "{}",
            d.notices[0]
        );
        assert!(d.config.check().is_err());
        assert!(SweepPlan::of_lab(&d.config).is_err());
    }
    // Beyond the key's own range: clamped first (one notice), then the rule (another).
    let d = decode::<DelayConfig>("delay=-5&length=1e9");
    assert_eq!((d.config.delay, d.config.length), (0, 256));
    assert!(matches!(d.notices[0].kind, NoticeKind::Clamped { .. }));
    assert!(matches!(
        d.notices.last().unwrap().kind,
        NoticeKind::Inconsistent { .. }
    ));
    // Garbage never panics.
    for q in [
        "delay=NaN",
        "delay=%zz",
        "length=&delay=",
        "delay=1e400&vocab=-1",
    ] {
        let d = decode::<DelayConfig>(q);
        assert!(d.config.vocab >= 2 && d.config.length >= 2, "{q}");
    }
}

#[test]
fn parameter_counts_follow_pytorch() {
    // nn.RNN(10, 64): 64·10 + 64·64 + 2·64 = 4864; LSTM ×4; GRU ×3; head Linear(64, 10) = 650.
    let counts: Vec<(usize, usize)> = CELLS
        .iter()
        .map(|&c| {
            let m = delay_model(c, 10, 64, 1);
            (m.recurrent_param_count(), m.param_count())
        })
        .collect();
    assert_eq!(counts, [(4864, 5514), (19456, 20106), (14592, 15242)]);
    let m = delay_model(CellKind::Lstm, 10, 64, 1);
    let names: Vec<&str> = m.layout.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, crate::common::ONE_LAYER_CLASSIFIER);
    assert_eq!(m.layout.get("fc.weight").unwrap().shape, vec![10, 64]);
}

/// A deterministic batch of `[B, T]` tokens in `0..v`.
fn small_batch(v: u32, t: usize, b: usize, delay: usize) -> SeqBatch {
    let seqs: Vec<Vec<u32>> = (0..b)
        .map(|s| {
            (0..t)
                .map(|i| ((i * 7 + s * 3 + i * i) as u32) % v)
                .collect()
        })
        .collect();
    batch_of(&seqs, delay).unwrap()
}

#[test]
fn loss_gradient_matches_finite_differences() {
    let batch = small_batch(3, 6, 2, 2);
    for cell in CELLS {
        let m = delay_model(cell, 3, 4, 2);
        // Larger weights than the default init, so every parameter matters.
        let params: Vec<f32> = m.init(9, 0.0).iter().map(|p| p * 3.0).collect();
        let (sums, grads) = m.loss_and_grads(&params, &batch);
        let loss = |p: &[f32]| m.evaluate(p, &batch).mean_loss();
        assert!((sums.mean_loss() - loss(&params)).abs() < 1e-6);
        let eps = 1e-2f32;
        let mut worst = 0.0f64;
        let mut nonzero = 0;
        for i in 0..params.len() {
            let mut p = params.clone();
            p[i] = params[i] + eps;
            let up = loss(&p);
            p[i] = params[i] - eps;
            let down = loss(&p);
            let numeric = (up - down) / (2.0 * eps as f64);
            let analytic = grads[i] as f64;
            let err = (numeric - analytic).abs() / (1e-3 + numeric.abs().max(analytic.abs()));
            worst = worst.max(err);
            assert!(
                (numeric - analytic).abs() <= 2e-3 + 0.03 * numeric.abs(),
                "{cell:?} param {i} ({}): analytic {analytic}, numeric {numeric}",
                m.layout
                    .entries
                    .iter()
                    .find(|e| e.range().contains(&i))
                    .unwrap()
                    .name
            );
            if analytic.abs() > 1e-3 {
                nonzero += 1;
            }
        }
        assert!(
            nonzero > params.len() / 2,
            "{cell:?}: only {nonzero} of {} gradients are non-zero",
            params.len()
        );
        eprintln!("{cell:?}: worst relative error {worst:.2e}");
    }
}

#[test]
fn only_positions_from_the_delay_on_are_supervised() {
    // With delay d the logits cover exactly T − d positions per sequence, and the loss is the
    // mean over B · (T − d) tokens.
    let batch = small_batch(5, 9, 3, 4);
    let m = delay_model(CellKind::Rnn, 5, 6, 4);
    let p = m.init(1, 0.0);
    let fwd = m.forward(&p, &batch);
    assert_eq!(fwd.outputs.len(), (9 - 4) * 3 * 5);
    let stats = m.evaluate(&p, &batch);
    assert_eq!(stats.count, 15);
}

#[test]
fn micro_batches_sum_to_the_batch_gradient() {
    let batch = small_batch(4, 10, 5, 3);
    let m = delay_model(CellKind::Lstm, 4, 5, 3);
    let p = m.init(2, 0.0);
    let (sums, whole) = m.loss_and_grads(&p, &batch);
    let loss = sums.mean_loss();
    let mut parts = vec![0.0f32; whole.len()];
    let divisor = batch.labels().len();
    let mut loss_sum = 0.0;
    for r in [0..2, 2..3, 3..5] {
        loss_sum += m
            .accumulate(&p, &batch.rows(r), divisor, &mut parts)
            .sums
            .loss_sum;
    }
    assert!((loss_sum / divisor as f64 - loss).abs() < 1e-5);
    for (a, b) in whole.iter().zip(&parts) {
        assert!((a - b).abs() <= 1e-6 + 1e-4 * a.abs(), "{a} vs {b}");
    }
}

/// Mean of the first and of the last `n` losses of one cell's run.
fn first_and_last(losses: &[f64], n: usize) -> (f64, f64) {
    let mean = |s: &[f64]| s.iter().sum::<f64>() / s.len() as f64;
    (mean(&losses[..n]), mean(&losses[losses.len() - n..]))
}

/// Training-batch loss falls well below chance within 150 steps at delay 4 (recipe R's lr,
/// clipping and forget-gate bias, smaller sizes so the test stays short).
#[test]
fn training_loss_falls_below_chance_for_rnn_and_lstm() {
    let cfg = DelayConfig {
        delay: 4,
        length: 24,
        hidden_size: 32,
        batch_size: 16,
        ..DelayConfig::default()
    };
    let task = DelayTask::new(cfg.vocab, cfg.length, cfg.delay).unwrap();
    let chance = task.chance_loss();
    for cell in [CellKind::Rnn, CellKind::Lstm] {
        let mut t = Trainer::new(&task, cell, &Recipe::of(&cfg), cfg.seed);
        let mut losses = Vec::new();
        for _ in 0..150 {
            let s = at_once(t.step());
            assert!(!s.skipped);
            assert!(s.grad_norm.is_finite() && s.grad_norm > 0.0);
            losses.push(s.loss);
        }
        let (first, last) = first_and_last(&losses, 20);
        eprintln!("{cell:?}: loss {first:.3} → {last:.3} after 150 steps");
        // Starts at chance (a uniform guess costs ln 10 ≈ 2.303 nats) …
        assert!((first - chance).abs() < 0.2, "{cell:?}: first {first}");
        // … and goes well below it: only memory of the token 4 steps back can do that.
        assert!(last < chance - 0.5, "{cell:?}: loss {first} → {last}");
    }
}

#[test]
fn a_preset_sets_the_delay_and_keeps_the_other_settings() {
    let mine = decode::<DelayConfig>(
        "v=1&lesson=delay&cell=all&hidden_size=32&vocab=5&lr=0.002&batch_size=4&seed=9&length=120",
    )
    .config;
    let p64 = mine.with_preset_delay(64);
    assert_eq!(
        p64,
        DelayConfig {
            delay: 64,
            ..mine.clone()
        }
    );
    assert_eq!(
        encode(&p64, None),
        "v=1&lesson=delay&cell=all&delay=64&length=120&vocab=5&hidden_size=32&lr=0.002&batch_size=4&seed=9"
    );
    assert_eq!(
        mine.with_preset_delay(8),
        DelayConfig {
            delay: 8,
            ..mine.clone()
        }
    );
    // A length too short for the delay becomes the default length; nothing else changes.
    let short = decode::<DelayConfig>("v=1&lesson=delay&hidden_size=8&length=24&delay=4").config;
    let p = short.with_preset_delay(64);
    assert_eq!((p.delay, p.length, p.hidden_size), (64, 96, 8));
    assert!(p.check().is_ok());
    assert_eq!(short.with_preset_delay(8).length, 24);
    // Exactly at the limit (delay = length) is too short; delays beyond the default length get
    // delay + 1.
    let at = DelayConfig {
        length: 64,
        ..DelayConfig::default()
    };
    assert_eq!(at.with_preset_delay(64).length, 96);
    assert_eq!(at.with_preset_delay(200).length, 201);
    assert!(at.with_preset_delay(200).check().is_ok());
    // From the defaults, the buttons give the presets: the sweep's delays at length 96.
    let presets = DelayConfig::presets();
    assert_eq!(presets.each_ref().map(|p| p.delay), [8, 16, 32, 64]);
    for p in presets {
        assert_eq!(DelayConfig::default().with_preset_delay(p.delay), p);
        assert_eq!(p.length, 96);
        assert!(p.check().is_ok());
    }
}

#[test]
fn url_round_trips() {
    assert_eq!(encode(&DelayConfig::default(), None), "v=1&lesson=delay");
    let [p8, p16, p32, p64] = DelayConfig::presets();
    assert_eq!(encode(&p8, None), "v=1&lesson=delay");
    assert_eq!(encode(&p16, None), "v=1&lesson=delay&delay=16");
    assert_eq!(encode(&p32, None), "v=1&lesson=delay&delay=32");
    assert_eq!(encode(&p64, None), "v=1&lesson=delay&delay=64");
    assert_eq!(route("v=1&lesson=delay&delay=64"), Route::Delay);
    assert_eq!(route("lesson=DELAY"), Route::Delay);
    let configs = [
        DelayConfig::default(),
        p64,
        DelayConfig {
            task: LabTask::Order,
            cell: CellSet::All,
            delay: 200,
            length: 256,
            vocab: 64,
            hidden_size: 128,
            lr: 0.0003,
            batch_size: 1,
            max_norm: 0.0,
            forget_bias: -5.0,
            steps: 20_000,
            seed: u32::MAX,
            seeds: 5,
            backend: BackendChoice::Gpu,
            workers: 8,
            ..DelayConfig::default()
        },
        DelayConfig {
            task: LabTask::Adding,
            cell: CellSet::One(CellKind::Gru),
            delay: 1,
            length: 2,
            vocab: 2,
            hidden_size: 4,
            lr: 1.0,
            batch_size: 256,
            max_norm: 100.0,
            forget_bias: 0.0,
            steps: 1,
            seed: 0,
            seeds: 1,
            backend: BackendChoice::Cpu,
            workers: 1,
            ..DelayConfig::default()
        },
    ];
    for c in configs {
        for lang in [None, Some(Lang::Zh)] {
            let q = encode(&c, lang);
            let d = decode::<DelayConfig>(&q);
            assert_eq!(d.config, c, "{q}");
            assert_eq!(d.lang, lang);
            assert!(d.notices.is_empty(), "{q}: {:?}", d.notices);
            assert_eq!(encode(&d.config, d.lang), q);
        }
    }
    // `workers`: last in canonical order, 0 (the machine's cores less one) left out, 1
    // included; out of range is clamped with a notice.
    let two = decode::<DelayConfig>("v=1&lesson=delay&workers=2&backend=cpu");
    assert_eq!(
        (two.config.workers, two.config.backend),
        (2, BackendChoice::Cpu)
    );
    assert_eq!(
        encode(&two.config, None),
        "v=1&lesson=delay&backend=cpu&workers=2"
    );
    let one = DelayConfig {
        workers: 1,
        ..DelayConfig::default()
    };
    assert_eq!(encode(&one, None), "v=1&lesson=delay&workers=1");
    assert_eq!(
        decode::<DelayConfig>("v=1&lesson=delay&workers=1").config,
        one
    );
    assert_eq!(encode(&DelayConfig::default(), None), "v=1&lesson=delay");
    let many = decode::<DelayConfig>("v=1&lesson=delay&workers=64");
    assert_eq!(many.config.workers, 8);
    assert_eq!(many.notices.len(), 1, "{:?}", many.notices);
    let q = "v=1&lesson=delay&cell=lstm&delay=64&length=96&vocab=10&hidden_size=32&lr=0.01&batch_size=8&seed=7";
    let d = decode::<DelayConfig>(q);
    assert_eq!(d.config.cell, CellSet::One(CellKind::Lstm));
    assert_eq!(d.config.cell.cells(), &[CellKind::Lstm]);
    assert_eq!(
        encode(&d.config, None),
        "v=1&lesson=delay&cell=lstm&delay=64&hidden_size=32&lr=0.01&batch_size=8&seed=7"
    );
    // The new keys in canonical order, after batch_size.
    let c = DelayConfig {
        max_norm: 0.0,
        forget_bias: 0.0,
        steps: 2000,
        seeds: 1,
        delay: 16,
        ..DelayConfig::default()
    };
    assert_eq!(
        encode(&c, None),
        "v=1&lesson=delay&delay=16&max_norm=0&forget_bias=0&steps=2000&seeds=1"
    );
    assert_eq!(decode::<DelayConfig>(&encode(&c, None)).config, c);
}

#[test]
fn defaults_are_recipe_r_and_old_links_open_with_it() {
    let c = DelayConfig::default();
    assert_eq!((c.hidden_size, c.batch_size, c.lr), (128, 32, 0.003));
    assert_eq!(
        (c.max_norm, c.forget_bias, c.steps, c.seeds),
        (1.0, 1.0, 3000, 3)
    );
    assert_eq!((c.delay, c.length, c.vocab, c.seed), (8, 96, 10, 0));
    assert_eq!(c.clip_norm(), Some(1.0));
    assert_eq!(c.run_seeds(), vec![0, 1, 2]);
    let r = Recipe::default();
    assert_eq!(
        (r.hidden_size, r.lr, r.batch_size, r.max_norm, r.forget_bias),
        (128, 0.003, 32, Some(1.0), 1.0)
    );
    // A link written before the recipe keys existed: its own keys stay, the rest is recipe R.
    let old = decode::<DelayConfig>("v=1&lesson=delay&delay=64&seed=4").config;
    assert_eq!(
        old,
        DelayConfig {
            delay: 64,
            seed: 4,
            ..DelayConfig::default()
        }
    );
    assert_eq!(old.run_seeds(), vec![4, 5, 6]);
    // Ranges: seeds 1–5, steps 1–20000, forget_bias −5 to 5, max_norm 0–100 (0 = off).
    let d = decode::<DelayConfig>("seeds=0&steps=1e9&forget_bias=-9&max_norm=0");
    assert_eq!(
        (d.config.seeds, d.config.steps, d.config.forget_bias),
        (1, 20_000, -5.0)
    );
    assert_eq!(d.config.clip_norm(), None);
    assert_eq!(d.notices.len(), 3, "{:?}", d.notices);
    assert_eq!(decode::<DelayConfig>("seeds=9").config.seeds, 5);
    // Seeds wrap past u32::MAX.
    let top = DelayConfig {
        seed: u32::MAX,
        seeds: 2,
        ..DelayConfig::default()
    };
    assert_eq!(top.run_seeds(), vec![u32::MAX, 0]);
}

#[test]
fn recipe_r_parameter_counts_match_the_reference() {
    // nn.RNN(10, 128) + Linear(128, 10) = 19,210; nn.LSTM(10, 128) + Linear = 72,970.
    let c = DelayConfig::default();
    let counts: Vec<usize> = [CellKind::Rnn, CellKind::Lstm]
        .iter()
        .map(|&cell| delay_model(cell, c.vocab, c.hidden_size, c.delay).param_count())
        .collect();
    assert_eq!(counts, [19_210, 72_970]);
}

#[test]
fn docs_url_md_lists_every_delay_key() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/url.md"))
        .expect("docs/url.md");
    assert!(doc.contains("`lesson=delay`"));
    let table = markdown_table(DELAY_FIELDS);
    assert!(
        doc.contains(&table),
        "docs/url.md is out of date; the delay page's table is:\n{table}"
    );
}
