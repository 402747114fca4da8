//! The delay page's verdict: the outcome of a delay's runs with its caveats (a budget below
//! recipe R's, a pointer to the forget-bias note when the LSTM stayed at chance with
//! `forget_bias` ≤ 0), the sentences in both languages, and the labels of sweep summaries of
//! other settings shown side by side.

use crate::sequence::delay::text::{
    forget_bias_sentence, outcome_sentence, short_budget_sentence, verdict_text,
};
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::Lang;
use unroll_core::delay::outcome::{
    judge, recipe_r_steps, settings_labels, verdict, CellAccuracies, Outcome, ShortBudget, SweepKey,
};
use unroll_core::math::params::CellKind;

fn accs(cell: CellKind, accs: &[f64]) -> CellAccuracies {
    CellAccuracies {
        cell,
        accs: accs.to_vec(),
    }
}

fn key(config: &DelayConfig) -> SweepKey {
    SweepKey::of(config)
}

/// The delay-16 preset at 600 steps: the RNN's worst seed beats every LSTM seed (runs of the
/// page at that budget); recipe R's 3000 steps give the opposite order.
fn short_run_outcome() -> Outcome {
    judge(
        &[
            accs(CellKind::Rnn, &[0.64, 0.67, 0.71]),
            accs(CellKind::Lstm, &[0.58, 0.58, 0.58]),
        ],
        3,
        0.1,
    )
}

#[test]
fn recipe_r_is_the_default_budget() {
    assert_eq!(recipe_r_steps(), DelayConfig::default().steps);
    assert_eq!(recipe_r_steps(), 3000);
    assert_eq!(ShortBudget::of(3000), None);
    assert_eq!(ShortBudget::of(5000), None);
    let b = ShortBudget::of(600).unwrap();
    assert_eq!((b.steps, b.recipe_steps), (600, 3000));
    assert!((b.fraction() - 0.2).abs() < 1e-12);
}

#[test]
fn a_budget_below_recipe_r_qualifies_the_verdict() {
    let short = DelayConfig {
        delay: 16,
        steps: 600,
        ..DelayConfig::default()
    };
    let o = short_run_outcome();
    assert!(matches!(&o, Outcome::Leads { leader, .. } if leader.cell == CellKind::Rnn));
    let v = verdict(o.clone(), 16, &key(&short));
    assert_eq!(
        v.short_budget,
        Some(ShortBudget {
            steps: 600,
            recipe_steps: 3000
        })
    );
    assert_eq!(v.forget_bias, None, "forget_bias 1: no pointer");
    let en = verdict_text(&v, Lang::En);
    assert!(en.starts_with(&outcome_sentence(&o, 16, Lang::En)), "{en}");
    assert!(
        en.contains("trained 600 steps each, 20% of recipe R's 3,000: the outcome may change with more training"),
        "{en}"
    );
    let zh = verdict_text(&v, Lang::Zh);
    assert!(zh.contains("600 步，是配方 R 的 3,000 步的 20%"), "{zh}");
    assert!(zh.contains("结果可能不同"), "{zh}");
    // Recipe R's budget: no caveat, the outcome's sentence alone.
    let full = verdict(
        o.clone(),
        16,
        &key(&DelayConfig {
            delay: 16,
            ..DelayConfig::default()
        }),
    );
    assert_eq!(full.short_budget, None);
    assert_eq!(short_budget_sentence(&full, Lang::En), None);
    assert_eq!(
        verdict_text(&full, Lang::En),
        outcome_sentence(&o, 16, Lang::En)
    );
    // No claim yet, no caveat.
    let waiting = judge(&[accs(CellKind::Rnn, &[0.6])], 3, 0.1);
    assert!(matches!(waiting, Outcome::NotEnoughRuns { .. }));
    assert_eq!(verdict(waiting, 16, &key(&short)).short_budget, None);
    // Another budget, another share.
    let v = verdict(
        o,
        16,
        &key(&DelayConfig {
            steps: 1000,
            ..short
        }),
    );
    assert!(short_budget_sentence(&v, Lang::En)
        .unwrap()
        .contains("1,000 steps each, 33% of recipe R's 3,000"));
}

#[test]
fn an_lstm_at_chance_without_forget_bias_points_to_the_note() {
    let no_bias = DelayConfig {
        delay: 16,
        forget_bias: 0.0,
        steps: 2000,
        ..DelayConfig::default()
    };
    // The LSTM stays at chance, the RNN learns (as PyTorch shows with forget_bias 0).
    let only_rnn = judge(
        &[
            accs(CellKind::Rnn, &[0.84, 0.88, 0.91]),
            accs(CellKind::Lstm, &[0.10, 0.101, 0.099]),
        ],
        3,
        0.1,
    );
    assert!(matches!(only_rnn, Outcome::OnlySome { .. }));
    let v = verdict(only_rnn.clone(), 16, &key(&no_bias));
    assert_eq!(v.forget_bias, Some(0.0));
    assert!(v.short_budget.is_some(), "2000 < 3000 steps");
    let en = forget_bias_sentence(&v, Lang::En).unwrap();
    assert_eq!(
        en,
        "The LSTM stayed at chance with forget_bias = 0: see “LSTM forget-gate bias” below (recipe R uses 1)."
    );
    let zh = forget_bias_sentence(&v, Lang::Zh).unwrap();
    assert!(
        zh.contains("forget_bias = 0")
            && zh.contains("“LSTM 遗忘门偏置”")
            && zh.contains("配方 R 用 1"),
        "{zh}"
    );
    assert!(verdict_text(&v, Lang::En).ends_with(&en));
    // Every cell at chance: the LSTM among them.
    let all = judge(
        &[
            accs(CellKind::Rnn, &[0.1, 0.1]),
            accs(CellKind::Lstm, &[0.1, 0.1]),
        ],
        2,
        0.1,
    );
    assert!(matches!(all, Outcome::AllAtChance { .. }));
    assert_eq!(
        verdict(all.clone(), 16, &key(&no_bias)).forget_bias,
        Some(0.0)
    );
    // A negative bias too.
    let negative = DelayConfig {
        forget_bias: -1.0,
        ..no_bias.clone()
    };
    assert_eq!(
        verdict(all.clone(), 16, &key(&negative)).forget_bias,
        Some(-1.0)
    );
    // With the bias on, or with the LSTM off chance, or without an LSTM: no pointer.
    let on = DelayConfig {
        forget_bias: 1.0,
        ..no_bias.clone()
    };
    assert_eq!(verdict(only_rnn, 16, &key(&on)).forget_bias, None);
    let learned = judge(
        &[
            accs(CellKind::Rnn, &[0.5, 0.6]),
            accs(CellKind::Lstm, &[0.7, 0.8]),
        ],
        2,
        0.1,
    );
    let v = verdict(learned, 16, &key(&no_bias));
    assert_eq!(v.forget_bias, None);
    assert_eq!(forget_bias_sentence(&v, Lang::En), None);
    let rnn_only = judge(&[accs(CellKind::Rnn, &[0.1, 0.1])], 2, 0.1);
    assert_eq!(verdict(rnn_only, 16, &key(&no_bias)).forget_bias, None);
}

#[test]
fn side_by_side_summaries_are_labelled_by_the_settings_that_differ() {
    let on = DelayConfig {
        hidden_size: 16,
        steps: 100,
        ..DelayConfig::default()
    };
    let off = DelayConfig {
        forget_bias: 0.0,
        ..on.clone()
    };
    let small_lr = DelayConfig {
        lr: 0.01,
        forget_bias: 0.0,
        ..on.clone()
    };
    assert_eq!(settings_labels(&[key(&on)]), vec![Vec::<String>::new()]);
    assert_eq!(
        settings_labels(&[key(&on), key(&off)]),
        vec![
            vec!["forget_bias=1".to_owned()],
            vec!["forget_bias=0".to_owned()]
        ]
    );
    assert_eq!(
        settings_labels(&[key(&on), key(&off), key(&small_lr)]),
        vec![
            vec!["lr=0.003".to_owned(), "forget_bias=1".to_owned()],
            vec!["lr=0.003".to_owned(), "forget_bias=0".to_owned()],
            vec!["lr=0.01".to_owned(), "forget_bias=0".to_owned()],
        ]
    );
    // The seeds and the delay are not settings of a summary.
    let other_seed = DelayConfig {
        seed: 9,
        seeds: 2,
        delay: 32,
        ..on.clone()
    };
    assert_eq!(key(&other_seed), key(&on));
}
