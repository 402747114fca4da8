//! The LSTM forget-gate bias at initialisation: `forget_bias` is added to the forget block
//! (rows H..2H, gate order i, f, g, o) of every `bias_ih_l{k}` and `bias_ih_l{k}_reverse`,
//! and nothing else changes — in the delay-copy model (one layer) and in the names classifier
//! (every layer and direction), through the code paths the pages use.

use unroll_core::config::delay::DelayConfig;
use unroll_core::config::{BackendChoice, TrainConfig};
use unroll_core::data::names::NamesDataset;
use unroll_core::delay::model::DelayModel;
use unroll_core::delay::run::Sweep;
use unroll_core::math::init::{add_forget_bias, init_params, init_params_with_forget_bias};
use unroll_core::math::params::{CellKind, ParamLayout, RnnSpec};
use unroll_core::train::session::{run_session, TrainControl, TrainEvent};

/// Checks that `with` − `without` is `fb` exactly on the forget blocks of the tensors named
/// in `biases` and 0 everywhere else.
fn assert_only_forget_blocks(
    layout: &ParamLayout,
    h: usize,
    without: &[f32],
    with: &[f32],
    fb: f32,
    biases: &[&str],
) {
    assert_eq!(without.len(), with.len());
    let mut expected = vec![false; with.len()];
    for name in biases {
        let e = layout.get(name).unwrap_or_else(|| panic!("no {name}"));
        assert_eq!(e.shape, vec![4 * h], "{name}");
        expected[e.offset + h..e.offset + 2 * h].fill(true);
    }
    for (i, (&a, &b)) in without.iter().zip(with).enumerate() {
        let name = &layout
            .entries
            .iter()
            .find(|e| e.range().contains(&i))
            .unwrap()
            .name;
        if expected[i] {
            assert!(
                ((b - a) - fb).abs() <= 1e-6,
                "{name}[{}]: {a} → {b}, expected +{fb}",
                i - layout.get(name).unwrap().offset
            );
        } else {
            assert_eq!(
                a,
                b,
                "{name}[{}] changed",
                i - layout.get(name).unwrap().offset
            );
        }
    }
}

#[test]
fn delay_model_forget_bias_changes_exactly_the_forget_block_of_bias_ih_l0() {
    let h = 16;
    let m = DelayModel::new(CellKind::Lstm, 10, h);
    let base = m.init(3);
    for fb in [1.0f32, -2.5, 5.0] {
        let p = m.init_with_forget_bias(3, fb);
        assert_only_forget_blocks(&m.layout, h, &base, &p, fb, &["rnn.bias_ih_l0"]);
    }
    assert_eq!(m.init_with_forget_bias(3, 0.0), base);
    // RNN and GRU: no forget gate, nothing changes.
    for cell in [CellKind::Rnn, CellKind::Gru] {
        let m = DelayModel::new(cell, 10, h);
        assert_eq!(m.init_with_forget_bias(3, 1.0), m.init(3), "{cell:?}");
    }
}

/// Through the page's path: the runs of `forget_bias=1` and `forget_bias=0` start from weights
/// that differ by exactly 1 on the LSTM's forget block (the mean the page's hook shows differs
/// by 1), and the RNN's weights are the same.
#[test]
fn delay_runs_start_with_the_configured_forget_bias() {
    let cfg = |fb: f64| DelayConfig {
        hidden_size: 16,
        length: 24,
        forget_bias: fb,
        ..DelayConfig::default()
    };
    let (one, zero) = (
        Sweep::new(&cfg(1.0)).unwrap(),
        Sweep::new(&cfg(0.0)).unwrap(),
    );
    let mean_forget = |s: &Sweep, seed_index: usize| {
        let run = &s.runs()[2 * seed_index + 1];
        assert_eq!(run.id().cell, CellKind::Lstm);
        let m = run.trainer().model();
        let b = m
            .layout
            .view(run.trainer().params(), "rnn.bias_ih_l0")
            .unwrap();
        let block = m.forget_block(run.trainer().params()).unwrap();
        assert_eq!(block, &b[16..32]);
        block.iter().map(|&x| f64::from(x)).sum::<f64>() / 16.0
    };
    let rnn = &one.runs()[0];
    assert_eq!(
        rnn.trainer().model().forget_block(rnn.trainer().params()),
        None
    );
    for seed_index in 0..3 {
        let d = mean_forget(&one, seed_index) - mean_forget(&zero, seed_index);
        assert!((d - 1.0).abs() < 1e-6, "seed index {seed_index}: {d}");
        let lstm = &one.runs()[2 * seed_index + 1];
        assert_only_forget_blocks(
            &lstm.trainer().model().layout,
            16,
            zero.runs()[2 * seed_index + 1].trainer().params(),
            lstm.trainer().params(),
            1.0,
            &["rnn.bias_ih_l0"],
        );
        assert_eq!(
            one.runs()[2 * seed_index].trainer().params(),
            zero.runs()[2 * seed_index].trainer().params(),
            "the RNN has no forget gate"
        );
    }
}

#[test]
fn classifier_forget_bias_reaches_every_layer_and_direction() {
    let h = 8;
    let spec = RnnSpec {
        num_layers: 3,
        bidirectional: true,
        ..RnnSpec::new(CellKind::Lstm, 57, h)
    };
    let layout = ParamLayout::classifier(&spec, 18);
    let base = init_params(&layout, &spec, 11);
    let p = init_params_with_forget_bias(&layout, &spec, 11, 1.0);
    let biases: Vec<String> = (0..3)
        .flat_map(|k| {
            [
                format!("rnn.bias_ih_l{k}"),
                format!("rnn.bias_ih_l{k}_reverse"),
            ]
        })
        .collect();
    let names: Vec<&str> = biases.iter().map(String::as_str).collect();
    assert_only_forget_blocks(&layout, h, &base, &p, 1.0, &names);
    // A bare module (no prefix) too.
    let bare = ParamLayout::rnn(&spec, "");
    let mut q = init_params(&bare, &spec, 2);
    let before = q.clone();
    add_forget_bias(&bare, &spec, &mut q, 0.5);
    let bare_names: Vec<String> = (0..3)
        .flat_map(|k| [format!("bias_ih_l{k}"), format!("bias_ih_l{k}_reverse")])
        .collect();
    let bare_names: Vec<&str> = bare_names.iter().map(String::as_str).collect();
    assert_only_forget_blocks(&bare, h, &before, &q, 0.5, &bare_names);
    // GRU / RNN classifiers: unchanged.
    for cell in [CellKind::Rnn, CellKind::Gru] {
        let spec = RnnSpec { cell, ..spec };
        let layout = ParamLayout::classifier(&spec, 18);
        assert_eq!(
            init_params_with_forget_bias(&layout, &spec, 11, 1.0),
            init_params(&layout, &spec, 11)
        );
    }
}

/// The names session's first weights (step 0) carry the configured forget-gate bias on every
/// layer and direction.
#[test]
fn names_session_initialises_with_the_forget_bias_key() {
    let data = NamesDataset::from_class_files([
        ("Alpha", "Anna\nAbel\nAdam\nAlma\nAxel\nAida\n"),
        ("Beta", "Boris\nBoyd\nBela\nBram\nBodo\nBert\n"),
    ])
    .unwrap();
    let first_weights = |forget_bias: f64| {
        let cfg = TrainConfig {
            hidden_size: 8,
            num_layers: 2,
            bidirectional: true,
            forget_bias,
            backend: BackendChoice::Cpu,
            epochs: 1,
            ..TrainConfig::default()
        };
        let control = TrainControl::new();
        let mut first = None;
        pollster::block_on(run_session(&cfg, &data, &control, &mut |ev| {
            if let TrainEvent::Weights(w) = ev {
                if first.is_none() {
                    first = Some((w.model.layout.clone(), w.params.clone()));
                    control.stop();
                }
            }
        }));
        first.expect("a Weights event at step 0")
    };
    let (layout, zero) = first_weights(0.0);
    let (_, one) = first_weights(1.0);
    let names = [
        "rnn.bias_ih_l0",
        "rnn.bias_ih_l0_reverse",
        "rnn.bias_ih_l1",
        "rnn.bias_ih_l1_reverse",
    ];
    assert_only_forget_blocks(&layout, 8, &zero, &one, 1.0, &names);
    // The default (0) keeps existing links' meaning: PyTorch's default init.
    assert_eq!(TrainConfig::default().forget_bias, 0.0);
    assert_eq!(
        TrainConfig::from_query("v=1&lesson=names&forget_bias=1")
            .config
            .forget_bias,
        1.0
    );
}
