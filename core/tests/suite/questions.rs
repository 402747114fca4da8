//! The lessons' questions: every answer follows the state it is computed from (changing the
//! state changes the answer the way the lesson's maths says), and the gap of a prediction.

use unroll_core::config::lessons::{
    BidirConfig, BpttAct, BpttConfig, GruConfig, LessonId, LstmConfig, LstmMode, ParallelConfig,
    ShapesConfig, SoftmaxConfig, UnrollConfig,
};
use unroll_core::config::CellKind;
use unroll_core::lessons::questions::{
    bidir_last, bptt_product, gru_nearer, keys, lstm_c, lstm_range, parallel_growth,
    shapes_seq_len, softmax_lowest, unroll_h, Answer, Gap, Prediction, QUESTIONS,
};

#[test]
fn every_lesson_has_a_question_and_keys_are_distinct() {
    for id in LessonId::ALL {
        assert!(keys(id).count() >= 1, "{id:?} has no question");
    }
    let mut all: Vec<&str> = QUESTIONS.iter().map(|(_, k)| *k).collect();
    all.sort_unstable();
    all.dedup();
    assert_eq!(all.len(), QUESTIONS.len());
}

#[test]
fn gap_of_a_prediction() {
    assert_eq!(
        Answer::Number(0.25).gap(Prediction::Number(0.75)),
        Gap::Number(0.5)
    );
    assert_eq!(
        Answer::Choice(1).gap(Prediction::Choice(1)),
        Gap::Choice(true)
    );
    assert_eq!(
        Answer::Choice(1).gap(Prediction::Choice(0)),
        Gap::Choice(false)
    );
    assert_eq!(Answer::Choice(1).gap(Prediction::Number(1.0)), Gap::None);
    assert_eq!(Answer::Choice(2).value(), 2.0);
}

#[test]
fn unroll_h_follows_the_step_and_the_weights() {
    // The course's example: h_1 = tanh(0.5) = 0.4621, h_2 = tanh(0.5·2 + 1·h_1) = 0.8981.
    let c = UnrollConfig::default();
    let a = unroll_h(&c).unwrap();
    assert_eq!(a.t, 2);
    assert!((a.h - (1.0 + 0.5f32.tanh()).tanh()).abs() < 1e-6, "{}", a.h);
    assert!((a.h - 0.8981).abs() < 5e-5, "{}", a.h);
    assert!((a.z - (a.input_term + a.recurrent_term + a.bias)).abs() < 1e-6);
    assert_eq!(a.answer(), Answer::Number(f64::from(a.h)));
    // Step 1 instead.
    let one = unroll_h(&UnrollConfig { t: 1, ..c.clone() }).unwrap();
    assert!((one.h - 0.5f32.tanh()).abs() < 1e-6);
    // W_hh = 0: h_2 no longer depends on h_1.
    let cut = unroll_h(&UnrollConfig {
        w_hh: 0.0,
        ..c.clone()
    })
    .unwrap();
    assert!((cut.h - 1.0f32.tanh()).abs() < 1e-6);
    assert_eq!(cut.recurrent_term, 0.0);
}

#[test]
fn shapes_answer_is_the_count_at_two_lengths() {
    let c = ShapesConfig::default();
    let a = shapes_seq_len(&c).unwrap();
    // nn.RNN(10, 8): 8·10 + 8·8 + 8 + 8 = 160, at any length.
    assert_eq!((a.count, a.other_count), (160, 160));
    assert_eq!((a.seq_len, a.other_len), (3, 6));
    assert_eq!(a.answer(), Answer::Choice(1));
    // A second layer nn.RNN(8, 8) adds 8·8 + 8·8 + 16 = 144.
    assert_eq!(a.layer_adds, Some(144));
    let lstm = shapes_seq_len(&ShapesConfig {
        cell: CellKind::Lstm,
        seq_len: 4096,
        num_layers: 8,
        ..c
    })
    .unwrap();
    assert_eq!(lstm.count, 4 * 160 + 7 * 4 * 144);
    assert_eq!(lstm.other_len, 2048);
    assert_eq!(lstm.layer_adds, None);
}

#[test]
fn bptt_answer_follows_w_hh_and_steps() {
    let base = BpttConfig {
        x: vec![0.3],
        steps: 20,
        act: BpttAct::Tanh,
        ..BpttConfig::default()
    };
    // W_hh = 0.5: each factor is at most 0.5, 0.5^20 ≈ 9.5e-7 < 1e-3.
    let small = bptt_product(&BpttConfig {
        w_hh: 0.5,
        ..base.clone()
    });
    assert!(small.product.abs() < 0.5f32.powi(20) * 1.0001);
    assert_eq!(small.answer(), Answer::Choice(1));
    // Linear, W_hh = 1: the product is exactly 1.
    let one = bptt_product(&BpttConfig {
        w_hh: 1.0,
        act: BpttAct::Linear,
        ..base.clone()
    });
    assert_eq!(one.product, 1.0);
    assert_eq!(one.answer(), Answer::Choice(0));
    // Fewer steps at W_hh = 0.5: 0.5^3 · tanh' ≥ 1e-3.
    let short = bptt_product(&BpttConfig {
        w_hh: 0.5,
        steps: 3,
        ..base
    });
    assert_eq!(short.steps, 3);
    assert!(short.product.abs() > 1e-3 && short.product.abs() <= 0.125);
    assert_eq!(short.answer(), Answer::Choice(0));
    assert!((short.mean_factor.powi(3) - short.product.abs()).abs() < 1e-6);
}

#[test]
fn lstm_answer_follows_the_gates() {
    // The course's example: C_1 = 0.9·0 + 0.5·0.8 = 0.4, C_2 = 0.3·0.4 + 0.9·(−0.6) = −0.42.
    let c = LstmConfig::default();
    let a = lstm_c(&c).unwrap();
    assert_eq!(a.t, 2);
    assert!((a.c - (-0.42)).abs() < 1e-6, "{}", a.c);
    assert!((a.c_prev - 0.4).abs() < 1e-6);
    // f = 1, i = 0 held for 20 steps: the belt keeps C_0.
    let keep = LstmConfig {
        mode: LstmMode::Run,
        f: vec![1.0],
        i: vec![0.0],
        g: vec![0.5],
        o: vec![0.5],
        c0: 1.5,
        n: 20,
        ..c.clone()
    };
    let k = lstm_c(&keep).unwrap();
    assert_eq!((k.t, k.c), (20, 1.5));
    // f = 0.5, i = 1, g = 1: C_t → i·g / (1 − f) = 2.
    let fill = lstm_c(&LstmConfig {
        f: vec![0.5],
        i: vec![1.0],
        g: vec![1.0],
        c0: 0.0,
        ..keep
    })
    .unwrap();
    assert!((fill.c - 2.0).abs() < 1e-4 && fill.c < 2.0, "{}", fill.c);
    let range = lstm_range(&LstmConfig { c0: -2.5, ..c });
    assert_eq!((range.min, range.max), (-5.0, 5.0));
}

#[test]
fn gru_answer_follows_z() {
    let c = GruConfig::default();
    // z = 0.3 (the course's): h_t = 0.7·0.2 + 0.3·0.7 = 0.35, nearer h_{t−1}.
    let a = gru_nearer(&c);
    assert!((a.h - 0.35).abs() < 1e-6);
    assert_eq!(a.answer(), Answer::Choice(0));
    let b = gru_nearer(&GruConfig {
        z: 0.9,
        ..c.clone()
    });
    assert!((b.h - 0.65).abs() < 1e-6);
    assert_eq!(b.answer(), Answer::Choice(1));
    let half = gru_nearer(&GruConfig { z: 0.5, ..c });
    assert_eq!(half.answer(), Answer::Choice(2));
}

#[test]
fn bidir_answer_follows_the_number_of_tokens() {
    let c = BidirConfig::default();
    let a = bidir_last(&c).unwrap();
    assert_eq!((a.tokens, a.last_token.as_str()), (3, "中国"));
    assert!(a.forward_full && !a.backward_full);
    assert!(a.backward_gap > 0.0);
    assert_eq!(a.answer(), Answer::Choice(0));
    // One token: both directions have read the whole sequence.
    let one = bidir_last(&BidirConfig {
        tokens: vec!["York".into()],
        ..c
    })
    .unwrap();
    assert_eq!(one.answer(), Answer::Choice(2));
}

#[test]
fn softmax_answer_follows_the_logits() {
    let c = SoftmaxConfig::default();
    let a = softmax_lowest(&c);
    // Logits 3.2, 5.1, −1.7: class 1, NLL = log(e^3.2 + e^5.1 + e^−1.7) − 5.1.
    assert_eq!(a.answer(), Answer::Choice(1));
    let lse = (3.2f64.exp() + 5.1f64.exp() + (-1.7f64).exp()).ln();
    assert!((f64::from(a.nll[1]) - (lse - 5.1)).abs() < 1e-5);
    assert_eq!(a.runner_up.map(|(k, _)| k), Some(0));
    let b = softmax_lowest(&SoftmaxConfig {
        logits: vec![2.0, 1.0, 7.5, 0.1],
        target: 0,
    });
    assert_eq!(b.answer(), Answer::Choice(2));
    assert!((b.logit - 7.5).abs() < 1e-6);
}

#[test]
fn parallel_answer_from_the_serial_depths() {
    let c = ParallelConfig {
        max_len: 64,
        hidden_size: 8,
        ..ParallelConfig::default()
    };
    let a = parallel_growth(&c);
    assert_eq!((a.first_len, a.last_len), (8, 64));
    assert_eq!(a.recurrent, (8, 64));
    assert_eq!(a.all_pairs, (1, 1));
    assert_eq!(a.answer(), Answer::Choice(0));
    let longer = parallel_growth(&ParallelConfig { max_len: 200, ..c });
    assert_eq!(longer.recurrent, (8, 200));
}
