//! The "compared with the handout" notes: the app's value in each note is the lessons' own
//! computation of the same example, the handout's printed value differs from it at the printed
//! precision, and the reason given (a 2-layer count, another W_hh, one bias vector, rounding)
//! reproduces the printed value.

use unroll::config::lessons::{LstmConfig, ShapesConfig, UnrollConfig};
use unroll::config::CellKind;
use unroll::lessons::handout::{self, Figure};
use unroll::lessons::{lstm, shapes, unroll as unroll_lesson};

fn count(
    cell: CellKind,
    input_size: usize,
    hidden_size: usize,
    num_layers: usize,
    bidirectional: bool,
) -> (f64, f64) {
    let s = shapes::shapes(&ShapesConfig {
        cell,
        input_size,
        hidden_size,
        num_layers,
        bidirectional,
        ..ShapesConfig::default()
    })
    .unwrap();
    (s.shapes.param_count as f64, s.one_bias_count as f64)
}

/// The two values differ at `digits` decimals (the handout's precision).
#[track_caller]
fn differs(f: Figure, digits: i32) {
    let scale = 10f64.powi(digits);
    assert_ne!(
        (f.printed * scale).round(),
        (f.app * scale).round(),
        "{f:?}"
    );
}

#[test]
fn rnn_ten_eight_is_a_two_layer_count() {
    let n = handout::rnn_ten_eight();
    let d = ShapesConfig::default();
    assert_eq!(
        (d.input_size, d.hidden_size, d.cell),
        (10, 8, CellKind::Rnn),
        "the note is about the lesson's default example"
    );
    assert_eq!(n.rnn.app, count(CellKind::Rnn, 10, 8, 1, false).0);
    assert_eq!(n.bidirectional.app, count(CellKind::Rnn, 10, 8, 1, true).0);
    assert_eq!(n.lstm.app, count(CellKind::Lstm, 10, 8, 1, false).0);
    assert_eq!(
        n.rnn.app,
        shapes::shapes(&d).unwrap().shapes.param_count as f64,
        "the lesson's own figure"
    );
    for f in [n.rnn, n.bidirectional, n.lstm] {
        differs(f, 0);
    }
    // The reason: 304 is the 2-layer count; 608 and 1216 are it × 2 directions and × 4 gates.
    assert_eq!(n.two_layers as f64, n.rnn.printed);
    assert_eq!(n.two_layers as f64, count(CellKind::Rnn, 10, 8, 2, false).0);
    assert_eq!(n.bidirectional.printed, 2.0 * n.two_layers as f64);
    assert_eq!(
        n.lstm.printed,
        CellKind::Lstm.gates() as f64 * n.two_layers as f64
    );
    assert_eq!(
        (n.rnn.app, n.bidirectional.app, n.lstm.app),
        (160.0, 320.0, 640.0)
    );
}

#[test]
fn per_layer_counts_use_one_bias_vector_in_the_handout() {
    let n = handout::per_layer();
    assert_eq!((n.input_size, n.hidden_size), (57, 128));
    let lstm = count(CellKind::Lstm, 57, 128, 1, false);
    let gru = count(CellKind::Gru, 57, 128, 1, false);
    let rnn = count(CellKind::Rnn, 57, 128, 1, false);
    assert_eq!((n.lstm.app, n.gru.app, n.rnn.app), (lstm.0, gru.0, rnn.0));
    assert_eq!(n.one_bias.map(|c| c as f64), [lstm.1, gru.1, rnn.1]);
    for f in [n.lstm, n.gru, n.rnn] {
        differs(f, 0);
    }
    assert_eq!(
        n.lstm.printed, lstm.1,
        "the handout's LSTM figure is the one-bias count"
    );
    assert_eq!(
        n.gru.printed, gru.1,
        "the handout's GRU figure is the one-bias count"
    );
    assert_eq!(
        n.rnn.printed,
        2.0 * rnn.1,
        "the handout's RNN figure is twice the one-bias count"
    );
    assert_eq!(
        (n.lstm.app, n.gru.app, n.rnn.app),
        (95_744.0, 71_808.0, 23_936.0)
    );
}

#[test]
fn unroll_share_belongs_to_another_w_hh() {
    let n = handout::unroll_share();
    let example = UnrollConfig::default();
    let u = unroll_lesson::unroll(&example).unwrap();
    assert_eq!(
        n.share.app,
        f64::from(u.steps[1].from_x1[0]),
        "the lesson's own x₁ share of z₂"
    );
    assert_eq!(n.w_hh, example.w_hh);
    differs(n.share, 4);
    let at = unroll_lesson::unroll(&UnrollConfig {
        w_hh: n.handout_w_hh,
        ..example
    })
    .unwrap();
    assert_eq!(n.at_handout_w_hh, f64::from(at.steps[1].from_x1[0]));
    assert_eq!(
        (n.at_handout_w_hh * 1e4).round(),
        (n.share.printed * 1e4).round(),
        "0.2311 is the share at W_hh = 0.5"
    );
    assert_eq!((n.share.app * 1e4).round(), 4621.0);
}

#[test]
fn lstm_h2_differs_by_rounding() {
    let n = handout::lstm_h2();
    let l = lstm::lstm(&LstmConfig::default()).unwrap();
    assert_eq!(n.h2.app, f64::from(l.steps[1].h), "the lesson's own h₂");
    assert_eq!(
        (n.c2, n.o2),
        (f64::from(l.steps[1].c), f64::from(l.steps[1].o))
    );
    differs(n.h2, 4);
    assert!(
        (n.h2.app - n.h2.printed).abs() < 1e-3,
        "a rounding-sized difference"
    );
    assert!(
        (n.h2.app - n.o2 * n.c2.tanh()).abs() < 1e-6,
        "h₂ = o₂·tanh(C₂)"
    );
    assert_eq!((n.h2.app * 1e4).round(), -2779.0);
}
