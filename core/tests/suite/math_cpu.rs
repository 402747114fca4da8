//! The CPU reference against hand-checkable PyTorch values, finite differences, padding
//! invariance, saturation, shapes/errors, clipping and Adam, and the
//! common mistakes these rule out: gate order, two biases, state shapes, saturated activations,
//! stable cross-entropy, clipping, summation order).

use crate::common;
use crate::tol;

use crate::gpu_support::random_batch;
use common::{load_fixture, Fixture, Tensor, CELL_VARIANTS, EXTREMES};
use rand::distr::{Distribution, Uniform};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use tol::Tol;
use unroll_core::math::activation::{sigmoid, tanh};
use unroll_core::math::init::init_params;
use unroll_core::math::model::{SeqBatch, SeqModel};
use unroll_core::math::optim::{adam_update, clip_grad_norm, AdamConfig, ClipOutcome};
use unroll_core::math::params::{CellKind, Nonlinearity, ParamLayout, RnnSpec};
use unroll_core::math::recurrent::{RnnInputGrads, RnnModule, RnnOutput, SeqData, TensorRef};
use unroll_core::math::shapes::{rnn_shapes, RnnConfig, RnnError, RnnWarning};

/// Sets the named tensors of a bare module's flat parameters.
fn params_from(layout: &ParamLayout, named: &[(&str, &[f32])]) -> Vec<f32> {
    let mut p = vec![0.0f32; layout.total_len()];
    for (name, values) in named {
        p[layout
            .get(name)
            .unwrap_or_else(|| panic!("no {name}"))
            .range()]
        .copy_from_slice(values);
    }
    p
}

fn grad_of<'a>(layout: &ParamLayout, grads: &'a [f32], name: &str) -> &'a [f32] {
    &grads[layout.get(name).unwrap().range()]
}

// ---------------------------------------------------------------------------------------------
// Hand-checkable cases (values computed with PyTorch)
// ---------------------------------------------------------------------------------------------

/// `nn.RNN(1, 1)`: weight_ih 0.5, weight_hh −0.8, bias_ih 0.1, bias_hh 0.2, x = [1, −2, 3],
/// h0 = 0 → tanh outputs [0.66403677, −0.84293556, 0.98591461], relu [0.8, 0.0, 1.8]; not the
/// tutorial's linear cell [0.8, −1.34, 2.872]. Gradients of h_n: dW_ih
/// 0.09976916, dW_hh −0.02788021, db_ih = db_hh = 0.02439190.
#[test]
fn rnn_1x1_matches_pytorch_hand_case() {
    for (nl, want) in [
        (
            Nonlinearity::Tanh,
            [0.664_036_77, -0.842_935_56, 0.985_914_61],
        ),
        (Nonlinearity::Relu, [0.8, 0.0, 1.8]),
    ] {
        let s = RnnSpec {
            nonlinearity: nl,
            ..RnnSpec::stacked(CellKind::Rnn, 1, 1, 1, false)
        };
        let layout = ParamLayout::rnn(&s, "");
        let p = params_from(
            &layout,
            &[
                ("weight_ih_l0", &[0.5]),
                ("weight_hh_l0", &[-0.8]),
                ("bias_ih_l0", &[0.1]),
                ("bias_hh_l0", &[0.2]),
            ],
        );
        let m = RnnModule::new(s, &layout, "");
        let out = m
            .forward(
                &p,
                TensorRef::new(&[3, 1, 1], &[1.0, -2.0, 3.0]),
                false,
                None,
                None,
                None,
            )
            .unwrap();
        Tol::FIXTURE.assert(&format!("{nl:?} output"), &out.output, &want);
        Tol::FIXTURE.assert(&format!("{nl:?} h_n"), &out.h_n, &want[2..]);
        assert!(
            (out.output[1] - -1.34).abs() > 0.1,
            "must not be the tutorial's linear cell"
        );
        if nl == Nonlinearity::Tanh {
            let mut g = vec![0.0; layout.total_len()];
            m.backward(&p, &out.cache, &[0.0; 3], Some(&[1.0]), None, &mut g);
            Tol::FIXTURE.assert(
                "dW_ih",
                grad_of(&layout, &g, "weight_ih_l0"),
                &[0.099_769_16],
            );
            Tol::FIXTURE.assert(
                "dW_hh",
                grad_of(&layout, &g, "weight_hh_l0"),
                &[-0.027_880_21],
            );
            Tol::FIXTURE.assert("db_ih", grad_of(&layout, &g, "bias_ih_l0"), &[0.024_391_90]);
            Tol::FIXTURE.assert("db_hh", grad_of(&layout, &g, "bias_hh_l0"), &[0.024_391_90]);
        }
    }
}

/// `nn.LSTM(1, 1)` with gate order i, f, g, o: h1 = 0.12687114,
/// h_n = 0.12976679, c_n = 0.20945512 (ONNX order would give h_n 0.22305531, TF1 0.13638538);
/// with L = h_n + c_n: dW_ih = [0.11172908, 0.00575244, 0.70720264, 0.00019612],
/// db_ih = db_hh = [0.14322879, 0.04275497, 1.14609170, 0.02429522].
#[test]
fn lstm_1x1_gate_order_matches_pytorch_hand_case() {
    let s = RnnSpec::stacked(CellKind::Lstm, 1, 1, 1, false);
    let layout = ParamLayout::rnn(&s, "");
    let p = params_from(
        &layout,
        &[
            ("weight_ih_l0", &[0.2, -0.5, 0.8, 0.3]),
            ("weight_hh_l0", &[0.4, 0.1, -0.7, 0.6]),
            ("bias_ih_l0", &[0.0, 1.0, -0.2, 0.1]),
            ("bias_hh_l0", &[0.1, -0.3, 0.05, 0.2]),
        ],
    );
    let m = RnnModule::new(s, &layout, "");
    let state = [1usize, 1, 1];
    let out = m
        .forward(
            &p,
            TensorRef::new(&[2, 1, 1], &[1.0, 0.5]),
            false,
            None,
            Some(TensorRef::new(&state, &[0.1])),
            Some(TensorRef::new(&state, &[-0.2])),
        )
        .unwrap();
    Tol::FIXTURE.assert("h1", &out.output[..1], &[0.126_871_14]);
    Tol::FIXTURE.assert("h_n", &out.h_n, &[0.129_766_79]);
    Tol::FIXTURE.assert("c_n", out.c_n.as_deref().unwrap(), &[0.209_455_12]);
    let mut g = vec![0.0; layout.total_len()];
    m.backward(
        &p,
        &out.cache,
        &[0.0, 0.0],
        Some(&[1.0]),
        Some(&[1.0]),
        &mut g,
    );
    Tol::FIXTURE.assert(
        "dW_ih",
        grad_of(&layout, &g, "weight_ih_l0"),
        &[0.111_729_08, 0.005_752_44, 0.707_202_64, 0.000_196_12],
    );
    let db = [0.143_228_79, 0.042_754_97, 1.146_091_7, 0.024_295_22];
    Tol::FIXTURE.assert("db_ih", grad_of(&layout, &g, "bias_ih_l0"), &db);
    Tol::FIXTURE.assert("db_hh", grad_of(&layout, &g, "bias_hh_l0"), &db);
}

// ---------------------------------------------------------------------------------------------
// Shapes, parameter counts, validation
// ---------------------------------------------------------------------------------------------

/// Parameter counts as `sum(p.numel())` gives them (two bias vectors), both in the shapes
/// table and in the flat parameter layout.
#[test]
fn parameter_counts_match_pytorch() {
    let count = |cell, i, h, layers, bi| {
        let spec = RnnSpec::stacked(cell, i, h, layers, bi);
        let n = rnn_shapes(&RnnConfig::new(spec), 1, 1).unwrap().param_count;
        assert_eq!(
            ParamLayout::rnn(&spec, "").total_len() as u64,
            n,
            "{spec:?}"
        );
        n
    };
    assert_eq!(count(CellKind::Rnn, 10, 8, 1, false), 160);
    assert_eq!(count(CellKind::Rnn, 10, 8, 2, false), 304);
    assert_eq!(count(CellKind::Rnn, 10, 8, 2, true), 736);
    assert_eq!(count(CellKind::Rnn, 57, 128, 1, false), 23_936);
    assert_eq!(count(CellKind::Lstm, 57, 128, 1, false), 95_744);
    assert_eq!(count(CellKind::Gru, 57, 128, 1, false), 71_808);
    assert_eq!(count(CellKind::Lstm, 1, 9, 1, false), 432);
    let gru = rnn_shapes(
        &RnnConfig::new(RnnSpec::stacked(CellKind::Gru, 57, 64, 2, true)),
        1,
        1,
    )
    .unwrap();
    assert_eq!(count(CellKind::Gru, 57, 64, 2, true), 121_728);
    assert_eq!(
        (gru.params[0].name.as_str(), gru.params[0].shape.as_slice()),
        ("weight_ih_l0", &[192usize, 57][..])
    );
    assert_eq!(
        (gru.params[1].name.as_str(), gru.params[1].shape.as_slice()),
        ("weight_hh_l0", &[192usize, 64][..])
    );
    assert_eq!(gru.params[4].name, "weight_ih_l0_reverse");
    assert_eq!(
        gru.params[8].shape,
        vec![192, 128],
        "layer 1 takes the [fwd, bwd] concat"
    );
    assert_eq!(
        gru.params.iter().map(|p| p.numel).sum::<u64>(),
        gru.param_count
    );
    // Linear(128, 18) = 2,322 on top of LSTM(57, 128) in the classifier layout, in the
    // state_dict's names and order.
    let clf = ParamLayout::classifier(&RnnSpec::stacked(CellKind::Lstm, 57, 128, 1, false), 18);
    assert_eq!(clf.total_len(), 95_744 + 2_322);
    let names: Vec<&str> = clf.entries.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, common::ONE_LAYER_CLASSIFIER);
    assert_eq!(clf.get("rnn.weight_ih_l0").unwrap().shape, vec![512, 57]);
    assert_eq!(clf.get("fc.weight").unwrap().shape, vec![18, 128]);
}

/// The shapes lesson's largest sizes, computed without allocating: LSTM(4096, 4096,
/// num_layers=4, bidirectional) has 2·(4·4096·(4096+4096+2) + 3·4·4096·(8192+4096+2)) parameters.
#[test]
fn shapes_of_large_configurations_need_no_allocation() {
    let s = rnn_shapes(
        &RnnConfig::new(RnnSpec::stacked(CellKind::Lstm, 4096, 4096, 4, true)),
        4096,
        4096,
    )
    .unwrap();
    assert_eq!(s.param_count, 1_476_657_152);
    assert_eq!(s.output, [4096, 4096, 8192]);
    assert_eq!(s.h_n, [8, 4096, 4096]);
}

/// Shapes: LSTM(16, 32, num_layers=2, batch_first) on (4, 10, 16) → output (4, 10, 32),
/// h_n = c_n = (2, 4, 32); GRU(32, 64, bidirectional, batch_first) on (4, 8, 32) → output
/// (4, 8, 128), h_n (2, 4, 64), no c_n. LSTM(3, 5, 2, batch_first) on (4, 7, 3).
#[test]
fn shapes_match_pytorch() {
    let cfg = |s: RnnSpec| RnnConfig {
        batch_first: true,
        ..RnnConfig::new(s)
    };
    let lstm = rnn_shapes(
        &cfg(RnnSpec::stacked(CellKind::Lstm, 16, 32, 2, false)),
        4,
        10,
    )
    .unwrap();
    assert_eq!(
        (lstm.input, lstm.output, lstm.h_n, lstm.c_n),
        ([4, 10, 16], [4, 10, 32], [2, 4, 32], Some([2, 4, 32]))
    );
    let gru = rnn_shapes(&cfg(RnnSpec::stacked(CellKind::Gru, 32, 64, 1, true)), 4, 8).unwrap();
    assert_eq!(
        (gru.output, gru.h_n, gru.c0, gru.c_n),
        ([4, 8, 128], [2, 4, 64], None, None)
    );
    let small = rnn_shapes(&cfg(RnnSpec::stacked(CellKind::Lstm, 3, 5, 2, false)), 4, 7).unwrap();
    assert_eq!(
        (small.output, small.h0, small.c_n),
        ([4, 7, 5], [2, 4, 5], Some([2, 4, 5]))
    );
    let seq_first = rnn_shapes(
        &RnnConfig::new(RnnSpec::stacked(CellKind::Lstm, 3, 5, 2, false)),
        4,
        7,
    )
    .unwrap();
    assert_eq!((seq_first.input, seq_first.output), ([7, 4, 3], [7, 4, 5]));

    // The module produces exactly these shapes.
    let s = RnnSpec::stacked(CellKind::Gru, 32, 64, 1, true);
    let layout = ParamLayout::rnn(&s, "");
    let p = init_params(&layout, &s, 1);
    let x = vec![0.1f32; 4 * 8 * 32];
    let out = RnnModule::new(s, &layout, "")
        .forward(&p, TensorRef::new(&[4, 8, 32], &x), true, None, None, None)
        .unwrap();
    assert_eq!(out.output_shape, [4, 8, 128]);
    assert_eq!(
        (out.output.len(), out.h_n.len(), out.c_n),
        (4 * 8 * 128, 2 * 4 * 64, None)
    );
}

/// An h0 of shape (4, 2, 5) for LSTM(3, 5, num_layers=2, batch_first) on
/// (4, 7, 3) is rejected naming both shapes, as PyTorch does.
#[test]
fn wrong_h0_shape_is_rejected_with_both_shapes() {
    let x = vec![0.0f32; 4 * 7 * 3];
    let h0 = vec![0.0f32; 40];
    // The error of a forward pass on (4, 7, 3) batch-first with h0 or c0 of `shape`.
    let err = |cell, state: usize, shape: &[usize]| {
        let s = RnnSpec::stacked(cell, 3, 5, 2, false);
        let layout = ParamLayout::rnn(&s, "");
        let p = init_params(&layout, &s, 0);
        let given = Some(TensorRef::new(shape, &h0));
        let (h, c) = if state == 0 {
            (given, None)
        } else {
            (None, given)
        };
        RnnModule::new(s, &layout, "")
            .forward(&p, TensorRef::new(&[4, 7, 3], &x), true, None, h, c)
            .unwrap_err()
    };
    for (cell, state, shape, message) in [
        (
            CellKind::Lstm,
            0,
            [4, 2, 5],
            "Expected hidden[0] size (2, 4, 5), got (4, 2, 5)",
        ),
        (
            CellKind::Lstm,
            1,
            [2, 5, 4],
            "Expected hidden[1] size (2, 4, 5), got (2, 5, 4)",
        ),
        (
            CellKind::Gru,
            0,
            [4, 2, 5],
            "Expected hidden size (2, 4, 5), got (4, 2, 5)",
        ),
    ] {
        assert_eq!(err(cell, state, &shape).to_string(), message);
    }
    let e = err(CellKind::Gru, 1, &[2, 4, 5]);
    assert!(
        matches!(
            e,
            RnnError::UnexpectedCellState {
                cell: CellKind::Gru
            }
        ),
        "{e}"
    );
}

/// Zero sizes, bad inputs and lengths get clear errors; unimplemented PyTorch options are
/// rejected explicitly; dropout with one layer is PyTorch's no-op + warning.
#[test]
fn invalid_configurations_are_rejected_with_messages() {
    let base = RnnSpec::stacked(CellKind::Lstm, 3, 4, 1, false);
    let err = |cfg: RnnConfig| rnn_shapes(&cfg, 2, 5).unwrap_err();
    assert_eq!(
        err(RnnConfig::new(RnnSpec {
            hidden_size: 0,
            ..base
        }))
        .to_string(),
        "hidden_size must be greater than zero"
    );
    assert_eq!(
        err(RnnConfig::new(RnnSpec {
            num_layers: 0,
            ..base
        }))
        .to_string(),
        "num_layers must be greater than zero"
    );
    assert_eq!(
        err(RnnConfig::new(RnnSpec {
            input_size: 0,
            ..base
        }))
        .to_string(),
        "input_size must be greater than zero"
    );
    let proj = err(RnnConfig {
        proj_size: 2,
        ..RnnConfig::new(base)
    })
    .to_string();
    assert!(
        proj.starts_with("not implemented") && proj.contains("proj_size=2"),
        "{proj}"
    );
    let proj_gru = err(RnnConfig {
        proj_size: 2,
        ..RnnConfig::new(RnnSpec {
            cell: CellKind::Gru,
            ..base
        })
    });
    assert!(
        proj_gru
            .to_string()
            .starts_with("proj_size argument is only supported for LSTM"),
        "{proj_gru}"
    );
    let drop = err(RnnConfig {
        dropout: 0.5,
        ..RnnConfig::new(RnnSpec {
            num_layers: 2,
            ..base
        })
    })
    .to_string();
    assert!(
        drop.starts_with("not implemented")
            && drop.contains("dropout=0.5")
            && drop.contains("num_layers=2"),
        "{drop}"
    );
    assert!(matches!(
        err(RnnConfig {
            dropout: 1.5,
            ..RnnConfig::new(base)
        }),
        RnnError::InvalidDropout { .. }
    ));
    assert_eq!(
        rnn_shapes(&RnnConfig::new(base), 2, 0)
            .unwrap_err()
            .to_string(),
        "Expected sequence length to be larger than 0 in RNN"
    );

    let ok = rnn_shapes(
        &RnnConfig {
            dropout: 0.5,
            ..RnnConfig::new(base)
        },
        2,
        5,
    )
    .unwrap();
    assert_eq!(
        ok.warnings,
        vec![RnnWarning::DropoutSingleLayer { dropout: 0.5 }]
    );
    assert!(ok.warnings[0]
        .to_string()
        .contains("non-zero dropout expects num_layers greater than 1"));
    assert!(rnn_shapes(&RnnConfig::new(base), 2, 5)
        .unwrap()
        .warnings
        .is_empty());

    let layout = ParamLayout::rnn(&base, "");
    let p = init_params(&layout, &base, 0);
    let m = RnnModule::new(base, &layout, "");
    let x = vec![0.0f32; 5 * 2 * 4];
    let e = m
        .forward(&p, TensorRef::new(&[5, 2, 4], &x), false, None, None, None)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "input.size(-1) must be equal to input_size. Expected 3, got 4"
    );
    let e = m
        .forward(&p, TensorRef::new(&[10, 4], &x), false, None, None, None)
        .unwrap_err();
    assert_eq!(e, RnnError::InputRank { got: 2 });
    let e = m
        .forward(&p, TensorRef::new(&[5, 2, 3], &x), false, None, None, None)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "input of shape (5, 2, 3) needs 30 values, got 40"
    );
    let x = &x[..30];
    let e = m
        .forward(
            &p,
            TensorRef::new(&[5, 2, 3], x),
            false,
            Some(&[5]),
            None,
            None,
        )
        .unwrap_err();
    assert_eq!(
        e,
        RnnError::LengthsCount {
            expected: 2,
            got: 1
        }
    );
    let e = m
        .forward(
            &p,
            TensorRef::new(&[5, 2, 3], x),
            false,
            Some(&[5, 0]),
            None,
            None,
        )
        .unwrap_err();
    assert!(
        e.to_string().starts_with("lengths[1] = 0 is outside 1..=5"),
        "{e}"
    );
    let e = m
        .forward(
            &p,
            TensorRef::new(&[5, 2, 3], x),
            false,
            Some(&[6, 1]),
            None,
            None,
        )
        .unwrap_err();
    assert!(matches!(
        e,
        RnnError::LengthOutOfRange {
            sample: 0,
            length: 6,
            seq_len: 5
        }
    ));
}

/// Batch_first moves only the input/output batch axis; the same weights on the
/// transposed input give bit-identical results (outputs, states and all gradients).
#[test]
fn batch_first_is_a_pure_transpose() {
    let s = RnnSpec::stacked(CellKind::Lstm, 3, 5, 2, false);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let layout = ParamLayout::rnn(&s, "");
    let p = init_params(&layout, &s, 3);
    let m = RnnModule::new(s, &layout, "");
    let (b, t) = (4, 7);
    let x_bf: Vec<f32> = (0..b * t * 3)
        .map(|_| rng.random_range(-1.0..1.0))
        .collect();
    let go_bf: Vec<f32> = (0..b * t * 5)
        .map(|_| rng.random_range(-1.0..1.0))
        .collect();
    let transpose = |v: &[f32], w: usize| unroll_core::math::linalg::swap_leading_axes(v, b, t, w);
    let lengths = [7, 3, 5, 1];
    let bf = m
        .forward(
            &p,
            TensorRef::new(&[b, t, 3], &x_bf),
            true,
            Some(&lengths),
            None,
            None,
        )
        .unwrap();
    let x_sf = transpose(&x_bf, 3);
    let sf = m
        .forward(
            &p,
            TensorRef::new(&[t, b, 3], &x_sf),
            false,
            Some(&lengths),
            None,
            None,
        )
        .unwrap();
    assert_eq!(transpose(&bf.output, 5), sf.output);
    assert_eq!((&bf.h_n, &bf.c_n), (&sf.h_n, &sf.c_n));
    let (mut g_bf, mut g_sf) = (vec![0.0; layout.total_len()], vec![0.0; layout.total_len()]);
    let d_bf = m.backward(&p, &bf.cache, &go_bf, None, None, &mut g_bf);
    let d_sf = m.backward(&p, &sf.cache, &transpose(&go_bf, 5), None, None, &mut g_sf);
    assert_eq!(g_bf, g_sf);
    assert_eq!(transpose(&d_bf.input, 3), d_sf.input);
    assert_eq!((d_bf.h0, d_bf.c0), (d_sf.h0, d_sf.c0));
}

// ---------------------------------------------------------------------------------------------
// Finite differences and padding invariance
// ---------------------------------------------------------------------------------------------

/// A random module problem: parameters, input, initial states, lengths and upstream gradients
/// of `L = Σ go·output + Σ gh·h_n + Σ gc·c_n`.
struct Problem {
    spec: RnnSpec,
    layout: ParamLayout,
    batch_first: bool,
    shape: [usize; 3],
    lengths: Option<Vec<u32>>,
    params: Vec<f32>,
    x: Vec<f32>,
    h0: Vec<f32>,
    c0: Option<Vec<f32>>,
    go: Vec<f32>,
    gh: Vec<f32>,
    gc: Option<Vec<f32>>,
}

impl Problem {
    fn new(
        s: RnnSpec,
        batch: usize,
        seq_len: usize,
        lengths: Option<Vec<u32>>,
        batch_first: bool,
        seed: u64,
    ) -> Self {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut rand_vec = |n: usize, scale: f32| -> Vec<f32> {
            (0..n).map(|_| rng.random_range(-scale..scale)).collect()
        };
        let layout = ParamLayout::rnn(&s, "");
        let params = rand_vec(layout.total_len(), 0.6);
        let states = s.num_layers * s.num_directions() * batch * s.hidden_size;
        let out_len = seq_len * batch * s.num_directions() * s.hidden_size;
        let lstm = s.cell == CellKind::Lstm;
        let shape = if batch_first {
            [batch, seq_len, s.input_size]
        } else {
            [seq_len, batch, s.input_size]
        };
        let x = rand_vec(batch * seq_len * s.input_size, 1.0);
        let h0 = rand_vec(states, 0.5);
        let c0 = lstm.then(|| rand_vec(states, 0.5));
        let go = rand_vec(out_len, 1.0);
        let gh = rand_vec(states, 1.0);
        let gc = lstm.then(|| rand_vec(states, 1.0));
        Problem {
            spec: s,
            layout,
            batch_first,
            shape,
            lengths,
            params,
            x,
            h0,
            c0,
            go,
            gh,
            gc,
        }
    }

    fn module(&self) -> RnnModule {
        RnnModule::new(self.spec, &self.layout, "")
    }

    fn forward(&self, params: &[f32], x: &[f32], h0: &[f32], c0: Option<&[f32]>) -> RnnOutput {
        let st = [
            self.spec.num_layers * self.spec.num_directions(),
            self.shape[usize::from(!self.batch_first)],
            self.spec.hidden_size,
        ];
        self.module()
            .forward(
                params,
                TensorRef::new(&self.shape, x),
                self.batch_first,
                self.lengths.as_deref(),
                Some(TensorRef::new(&st, h0)),
                c0.map(|c| TensorRef::new(&st, c)),
            )
            .expect("valid problem")
    }

    /// The scalar loss in f64.
    fn loss(&self, params: &[f32], x: &[f32], h0: &[f32], c0: Option<&[f32]>) -> f64 {
        let out = self.forward(params, x, h0, c0);
        let dot = |a: &[f32], b: &[f32]| {
            a.iter()
                .zip(b)
                .map(|(&a, &b)| a as f64 * b as f64)
                .sum::<f64>()
        };
        dot(&out.output, &self.go)
            + dot(&out.h_n, &self.gh)
            + out
                .c_n
                .as_deref()
                .map_or(0.0, |c| dot(c, self.gc.as_ref().unwrap()))
    }

    fn analytic(&self) -> (Vec<f32>, RnnInputGrads, RnnOutput) {
        let out = self.forward(&self.params, &self.x, &self.h0, self.c0.as_deref());
        let mut g = vec![0.0f32; self.layout.total_len()];
        let d = self.module().backward(
            &self.params,
            &out.cache,
            &self.go,
            Some(&self.gh),
            self.gc.as_deref(),
            &mut g,
        );
        (g, d, out)
    }
}

/// Central differences of `f` at every coordinate of `v`, each required to be within
/// 2e-4 + 2e-3·|analytic| of the backward pass; `Err` names the worst coordinate.
#[expect(
    clippy::neg_cmp_op_on_partial_ord,
    reason = "a NaN ratio must become the worst case"
)]
fn fd_check(
    name: &str,
    v: &[f32],
    analytic: &[f32],
    f: impl Fn(&[f32]) -> f64,
) -> Result<(), String> {
    // Small enough that a ReLU unit rarely crosses its kink, large enough that f32 rounding of
    // the outputs (the loss itself is summed in f64) stays well below the tolerance.
    const EPS: f32 = 3e-3;
    let mut worst = (0.0f64, 0usize, 0.0f64);
    let mut w = v.to_vec();
    for i in 0..v.len() {
        let (hi, lo) = (v[i] + EPS, v[i] - EPS);
        w[i] = hi;
        let up = f(&w);
        w[i] = lo;
        let down = f(&w);
        w[i] = v[i];
        // Divide by the step actually taken in f32.
        let fd = (up - down) / (hi as f64 - lo as f64);
        let a = analytic[i] as f64;
        let ratio = (fd - a).abs() / (2e-4 + 2e-3 * a.abs());
        if !(ratio <= worst.0) {
            worst = (ratio, i, fd);
        }
    }
    if worst.0 <= 1.0 {
        Ok(())
    } else {
        Err(format!(
            "{name}[{}]: finite difference {} vs backward {}",
            worst.1, worst.2, analytic[worst.1]
        ))
    }
}

/// The backward pass of every cell (RNN tanh and relu, LSTM, GRU) agrees with central finite
/// differences at every coordinate of every parameter, the input, h0 and c0, with 2 layers,
/// both directions, per-sample lengths and batch_first.
#[test]
fn backward_matches_finite_differences_for_every_cell() {
    let cells = CELL_VARIANTS;
    let mut fails = Vec::new();
    for (k, (cell, nl)) in cells.into_iter().enumerate() {
        for (bidirectional, batch_first, lengths) in
            [(true, true, Some(vec![5, 2, 4])), (false, false, None)]
        {
            let s = RnnSpec {
                nonlinearity: nl,
                ..RnnSpec::stacked(cell, 3, 4, 2, bidirectional)
            };
            let pb = Problem::new(s, 3, 5, lengths.clone(), batch_first, 100 + k as u64);
            let (g, d, _) = pb.analytic();
            let tag = format!("{cell:?}/{nl:?} bi={bidirectional} lengths={lengths:?}");
            let c0 = pb.c0.as_deref();
            let checks = [
                fd_check(&format!("{tag} params"), &pb.params, &g, |p| {
                    pb.loss(p, &pb.x, &pb.h0, c0)
                }),
                fd_check(&format!("{tag} input"), &pb.x, &d.input, |x| {
                    pb.loss(&pb.params, x, &pb.h0, c0)
                }),
                fd_check(&format!("{tag} h0"), &pb.h0, &d.h0, |h| {
                    pb.loss(&pb.params, &pb.x, h, c0)
                }),
            ];
            fails.extend(checks.into_iter().filter_map(Result::err));
            if let Some(c0) = &pb.c0 {
                let r = fd_check(&format!("{tag} c0"), c0, d.c0.as_ref().unwrap(), |c| {
                    pb.loss(&pb.params, &pb.x, &pb.h0, Some(c))
                });
                fails.extend(r.err());
            }
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// A zero initial state lets the CPU path skip the products that would only add zeros: the
/// first step's `h0·W_hhᵀ`, that step's rows of `dW_hh`, and the last `dh0 += d_gh·W_hh` where
/// h0's gradient is not wanted. With h0 = c0 = 0, the parameter and input gradients still agree
/// with finite differences for every cell (2 layers, both directions, per-sample lengths), and
/// asking for no initial-state gradient changes no other gradient by a bit and returns none.
#[test]
fn zero_initial_state_skips_only_zero_work() {
    let cells = [
        (CellKind::Rnn, Nonlinearity::Tanh),
        (CellKind::Lstm, Nonlinearity::Tanh),
        (CellKind::Gru, Nonlinearity::Tanh),
    ];
    let mut fails = Vec::new();
    for (k, (cell, nl)) in cells.into_iter().enumerate() {
        for (bidirectional, lengths) in [(true, Some(vec![5, 2, 4])), (false, None)] {
            let s = RnnSpec {
                nonlinearity: nl,
                ..RnnSpec::stacked(cell, 3, 4, 2, bidirectional)
            };
            let mut pb = Problem::new(s, 3, 5, lengths.clone(), false, 200 + k as u64);
            pb.h0.fill(0.0);
            if let Some(c0) = pb.c0.as_mut() {
                c0.fill(0.0);
            }
            let (g, d, out) = pb.analytic();
            let tag = format!("{cell:?} bi={bidirectional} lengths={lengths:?} h0=0");
            let c0 = pb.c0.as_deref();
            fails.extend(
                [
                    fd_check(&format!("{tag} params"), &pb.params, &g, |p| {
                        pb.loss(p, &pb.x, &pb.h0, c0)
                    }),
                    fd_check(&format!("{tag} input"), &pb.x, &d.input, |x| {
                        pb.loss(&pb.params, x, &pb.h0, c0)
                    }),
                ]
                .into_iter()
                .filter_map(Result::err),
            );
            let mut g_no_h0 = vec![0.0f32; g.len()];
            let d_no_h0 = pb.module().backward_time_major_recording(
                &pb.params,
                &out.cache,
                &pb.go,
                Some(&pb.gh),
                pb.gc.as_deref(),
                &mut g_no_h0,
                None,
                false,
            );
            let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&g_no_h0), bits(&g), "{tag}: parameter gradients");
            assert_eq!(
                bits(&d_no_h0.input),
                bits(&d.input),
                "{tag}: input gradient"
            );
            assert!(d_no_h0.h0.is_empty(), "{tag}: h0 gradient not asked for");
            assert!(d_no_h0.c0.is_none_or(|c| c.is_empty()), "{tag}: c0");
            assert_eq!(d.h0.len(), pb.h0.len(), "{tag}: h0 gradient asked for");
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// Padding invariance: a sample's output, h_n/c_n and the gradients of a loss that
/// involves only that sample are the same alone as inside a batch padded to a longer length
/// (≤ 1e-6), for every cell, two layers, both directions. The padded batch holds garbage in
/// the sample's padding (input and upstream gradient), which must be ignored; its output
/// there must be exactly 0.
#[test]
fn padded_batch_matches_sample_alone() {
    for cell in CellKind::ALL {
        let s = RnnSpec::stacked(cell, 3, 4, 2, true);
        let (hid, dh, states) = (4, 8, 4); // H, D·H, L·D
        let (len, sample, batch, seq_len) = (3usize, 1usize, 3usize, 6usize);
        let padded = Problem::new(s, batch, seq_len, Some(vec![5, len as u32, 4]), true, 7);
        // Upstream gradients only for `sample` (its padding rows keep their garbage).
        let mut p = padded;
        for b in (0..batch).filter(|&b| b != sample) {
            for t in 0..seq_len {
                p.go[(b * seq_len + t) * dh..][..dh].fill(0.0);
            }
            for st in 0..states {
                p.gh[(st * batch + b) * hid..][..hid].fill(0.0);
                if let Some(gc) = p.gc.as_mut() {
                    gc[(st * batch + b) * hid..][..hid].fill(0.0);
                }
            }
        }
        // The same sample alone, unpadded.
        let mut alone = Problem::new(s, 1, len, None, true, 8);
        alone.params = p.params.clone();
        alone.x = p.x[sample * seq_len * 3..][..len * 3].to_vec();
        alone.go = p.go[sample * seq_len * dh..][..len * dh].to_vec();
        let pick = |v: &[f32]| -> Vec<f32> {
            (0..states)
                .flat_map(|st| v[(st * batch + sample) * hid..][..hid].to_vec())
                .collect()
        };
        alone.h0 = pick(&p.h0);
        alone.gh = pick(&p.gh);
        alone.c0 = p.c0.as_deref().map(pick);
        alone.gc = p.gc.as_deref().map(pick);

        let (g_pad, d_pad, out_pad) = p.analytic();
        let (g_one, d_one, out_one) = alone.analytic();
        let tol = |name: &str, a: &[f32], e: &[f32]| {
            Tol::ROUNDING
                .check(&format!("{cell:?} {name}"), a, e)
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let out_rows = &out_pad.output[sample * seq_len * dh..][..seq_len * dh];
        tol("output", &out_rows[..len * dh], &out_one.output);
        assert!(
            out_rows[len * dh..].iter().all(|&v| v == 0.0),
            "{cell:?}: output at padded steps must be 0"
        );
        tol("h_n", &pick(&out_pad.h_n), &out_one.h_n);
        if let Some(c_n) = &out_pad.c_n {
            tol("c_n", &pick(c_n), out_one.c_n.as_ref().unwrap());
        }
        tol("param grads", &g_pad, &g_one);
        let d_rows = &d_pad.input[sample * seq_len * 3..][..seq_len * 3];
        tol("input grad", &d_rows[..len * 3], &d_one.input);
        assert!(
            d_rows[len * 3..].iter().all(|&v| v == 0.0),
            "{cell:?}: input gradient at padded steps must be 0"
        );
        tol("h0 grad", &pick(&d_pad.h0), &d_one.h0);
        if let Some(c0) = &d_pad.c0 {
            tol("c0 grad", &pick(c0), d_one.c0.as_ref().unwrap());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Saturation: activations and large pre-activations
// ---------------------------------------------------------------------------------------------

/// Tanh and sigmoid on ±89, ±100, ±1000, ±∞ (and the rest of the list) give
/// the saturated values, never NaN.
#[test]
fn activations_saturate_without_nan() {
    let x = EXTREMES;
    let tanh_want = [
        -1.0,
        -1.0,
        -1.0,
        -1.0,
        -1.0,
        -1.0,
        -0.761_594_18,
        0.0,
        0.761_594_18,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
    ];
    let got: Vec<f32> = x.iter().map(|&v| tanh(v)).collect();
    Tol::ROUNDING.check("tanh", &got, &tanh_want).unwrap();
    let sig: Vec<f32> = x.iter().map(|&v| sigmoid(v)).collect();
    let sig_want = [
        0.0,
        0.0,
        0.0,
        0.0,
        0.0,
        1.1165e-4,
        0.268_941_43,
        0.5,
        0.731_058_6,
        0.999_888_3,
        1.0,
        1.0,
        1.0,
        1.0,
        1.0,
    ];
    Tol::ROUNDING.check("sigmoid", &sig, &sig_want).unwrap();
    assert!(sig[2] <= 4e-44 && sig[3] <= 3e-39 && sig[4] <= 3.1e-39);
    assert!(got.iter().chain(&sig).all(|v| !v.is_nan()));
}

/// Saturation: pre-activations of ±100 and ±1e4 give finite states, outputs and gradients for
/// every cell (both directions, two layers).
#[test]
fn large_preactivations_stay_finite_for_every_cell() {
    for (cell, nl) in CELL_VARIANTS {
        for scale in [100.0f32, 1e4] {
            let s = RnnSpec {
                nonlinearity: nl,
                ..RnnSpec::stacked(cell, 2, 3, 2, true)
            };
            let mut pb = Problem::new(s, 2, 3, None, false, 5);
            // Weights ±1 and inputs ±scale: every pre-activation of layer 0 is of order ±scale.
            for (i, w) in pb.params.iter_mut().enumerate() {
                *w = if i % 3 == 0 { -1.0 } else { 1.0 };
            }
            for (i, x) in pb.x.iter_mut().enumerate() {
                *x = if i % 2 == 0 { scale } else { -scale };
            }
            let (g, d, out) = pb.analytic();
            let finite = |v: &[f32]| v.iter().all(|x| x.is_finite());
            let tag = format!("{cell:?}/{nl:?} at ±{scale}");
            assert!(
                finite(&out.output) && finite(&out.h_n),
                "{tag}: non-finite forward"
            );
            assert!(
                out.c_n.as_deref().is_none_or(finite),
                "{tag}: non-finite c_n"
            );
            assert!(
                finite(&g) && finite(&d.input) && finite(&d.h0),
                "{tag}: non-finite gradient"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Clipping and Adam
// ---------------------------------------------------------------------------------------------

/// Global-norm clipping. [3, 4] and [12] with max_norm 5 → norm 13, scale
/// 5/(13 + 1e-6) → [1.1538460, 1.5384614] and [4.6153841] (per-tensor clipping would leave
/// [3, 4]); max_norm 20 → unchanged; 100 × 1e20 (norm 1e21 overflows an f32 sum of squares)
/// with max_norm 1 → 0.1 each; a NaN or ∞ gradient → step skipped, gradients untouched.
#[test]
fn clip_grad_norm_has_pytorch_semantics() {
    let layout = {
        let mut l = ParamLayout {
            entries: Vec::new(),
        };
        l.push("a", vec![2]);
        l.push("b", vec![1]);
        l
    };
    let mut g = vec![3.0, 4.0, 12.0];
    let out = clip_grad_norm(&mut g, 5.0);
    assert!(
        matches!(out, ClipOutcome::Clipped { norm, .. } if (norm - 13.0).abs() < 1e-9),
        "{out:?}"
    );
    Tol::ROUNDING
        .check(
            "a",
            layout.view(&g, "a").unwrap(),
            &[1.153_846_0, 1.538_461_4],
        )
        .unwrap();
    Tol::ROUNDING
        .check("b", layout.view(&g, "b").unwrap(), &[4.615_384_1])
        .unwrap();

    let mut g = vec![3.0, 4.0, 12.0];
    assert_eq!(
        clip_grad_norm(&mut g, 20.0),
        ClipOutcome::Unchanged { norm: 13.0 }
    );
    assert_eq!(g, vec![3.0, 4.0, 12.0]);

    let mut g = vec![1e20f32; 100];
    let out = clip_grad_norm(&mut g, 1.0);
    assert!(!out.skip_step());
    Tol::SMALL.check("1e20 grads", &g, &[0.1f32; 100]).unwrap();

    for bad in [f32::NAN, f32::INFINITY] {
        let mut g = vec![3.0, bad, 12.0];
        let out = clip_grad_norm(&mut g, 5.0);
        assert!(out.skip_step(), "{out:?}");
        assert_eq!((g[0], g[2]), (3.0, 12.0), "gradients untouched");
        // The trainer skips the optimizer step: weights stay exactly as they were.
        let mut params = vec![0.5f32, -0.5, 0.25];
        let before = params.clone();
        if !out.skip_step() {
            adam_update(
                &AdamConfig::default(),
                1,
                &mut params,
                &g,
                &mut [0.0; 3],
                &mut [0.0; 3],
            );
        }
        assert_eq!(params, before);
    }
}

/// Adam alone against PyTorch: the clf_lstm_step fixture's gradients applied to its
/// params_before give its params_after_one_adam_step (torch.optim.Adam, lr 1e-3, betas
/// (0.9, 0.999), eps 1e-8).
#[test]
fn adam_step_matches_pytorch_fixture() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/clf_lstm_step.json");
    let Ok(Fixture::Classifier(fx)) = load_fixture(&path) else {
        panic!("clf_lstm_step.json must load")
    };
    let case = fx.case().unwrap_or_else(|e| panic!("{e:?}"));
    let mut grads = vec![0.0f32; case.layout.total_len()];
    for e in &case.layout.entries {
        grads[e.range()].copy_from_slice(&fx.grads[&e.name].to_f32());
    }
    let mut params = case.params.clone();
    let n = params.len();
    adam_update(
        &AdamConfig::default(),
        1,
        &mut params,
        &grads,
        &mut vec![0.0; n],
        &mut vec![0.0; n],
    );
    for e in &case.layout.entries {
        fx.params_after_one_adam_step[&e.name]
            .check(&e.name, &params[e.range()])
            .unwrap();
    }
}

/// Adam over several steps equals a hand-written f64 transcription of torch.optim.Adam's
/// single-tensor update (bias correction from the step count).
#[test]
fn adam_bias_correction_follows_step_count() {
    let cfg = AdamConfig {
        lr: 0.01,
        ..AdamConfig::default()
    };
    let grads = [[0.5f32, -2.0], [0.1, 3.0], [-1.0, 0.0]];
    let (mut p, mut m, mut v) = (vec![1.0f32, -1.0], vec![0.0f32; 2], vec![0.0f32; 2]);
    let (mut pr, mut mr, mut vr) = ([1.0f64, -1.0], [0.0f64; 2], [0.0f64; 2]);
    for (step, g) in grads.iter().enumerate() {
        adam_update(&cfg, step as u32 + 1, &mut p, g, &mut m, &mut v);
        let t = step as i32 + 1;
        for j in 0..2 {
            let gj = g[j] as f64;
            mr[j] = 0.9 * mr[j] + 0.1 * gj;
            vr[j] = 0.999 * vr[j] + 0.001 * gj * gj;
            let step_size = 0.01 / (1.0 - 0.9f64.powi(t));
            let denom = vr[j].sqrt() / (1.0 - 0.999f64.powi(t)).sqrt() + 1e-8;
            pr[j] -= step_size * mr[j] / denom;
        }
    }
    Tol::FIXTURE.assert("params after 3 steps", &p, &pr);
}

// ---------------------------------------------------------------------------------------------
// The classifier
// ---------------------------------------------------------------------------------------------

/// Gradient accumulation: splitting a batch into micro-batches with divisor = the full batch
/// size sums to the whole batch's gradient and loss (for every cell, 2 layers, bidirectional).
#[test]
fn micro_batches_accumulate_to_the_full_batch_gradient() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for cell in CellKind::ALL {
        let model = SeqModel::new(RnnSpec::stacked(cell, 10, 6, 2, true), 5);
        let params = init_params(&model.layout, &model.spec, 4);
        let batch = random_batch(&mut rng, 8, 6, 10, 5);
        let (sums, grads) = model.loss_and_grads(&params, &batch);
        let (loss, logits) = (
            sums.mean_loss() as f32,
            model.forward(&params, &batch).outputs,
        );
        let mut acc = vec![0.0f32; grads.len()];
        let mut loss_sum = 0.0f32;
        let mut all_logits = Vec::new();
        for (lo, hi) in [(0, 3), (3, 4), (4, 8)] {
            let micro = batch.rows(lo..hi);
            let r = model.accumulate(&params, &micro, 8, &mut acc);
            loss_sum += r.sums.loss_sum as f32;
            all_logits.extend(r.outputs);
        }
        Tol::ACCUMULATED
            .check(&format!("{cell:?} grads"), &acc, &grads)
            .unwrap();
        Tol::CLIP
            .check(&format!("{cell:?} loss"), &[loss_sum / 8.0], &[loss])
            .unwrap();
        Tol::CLIP
            .check(&format!("{cell:?} logits"), &all_logits, &logits)
            .unwrap();
    }
}

/// The classifier's gradient (head, one-hot fast path, every layer and direction) agrees with
/// central finite differences of its loss, for every cell.
#[test]
fn classifier_gradients_match_finite_differences() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for cell in CellKind::ALL {
        let model = SeqModel::new(RnnSpec::stacked(cell, 6, 4, 2, true), 3);
        let dist = Uniform::new(-0.8f32, 0.8).unwrap();
        let params: Vec<f32> = (0..model.layout.total_len())
            .map(|_| dist.sample(&mut rng))
            .collect();
        let batch = random_batch(&mut rng, 4, 5, 6, 3);
        let (_, grads) = model.loss_and_grads(&params, &batch);
        let loss = |p: &[f32]| {
            let logits = model.forward(p, &batch).outputs;
            unroll_core::math::loss::cross_entropy(&logits, batch.labels(), 3) as f64
        };
        fd_check(&format!("{cell:?} classifier"), &params, &grads, loss).unwrap();
    }
}

/// Smoke test: an untrained classifier (PyTorch default init) over 18 classes
/// starts near ln 18 = 2.8904.
#[test]
fn untrained_classifier_loss_is_near_ln_18() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let model = SeqModel::new(RnnSpec::stacked(CellKind::Lstm, 57, 128, 1, false), 18);
    let params = init_params(&model.layout, &model.spec, 0);
    let batch = random_batch(&mut rng, 32, 12, 57, 18);
    let loss = model.loss_and_grads(&params, &batch).0.mean_loss();
    assert!((loss - 18f64.ln()).abs() < 0.1, "loss {loss}");
}

/// predict gives a probability distribution equal to softmax of the batch logits; trace gives
/// per-step h_t, c_t and gates with the right sizes, and its last h_t is the head's feature.
#[test]
fn predict_and_trace_agree_with_the_batch_forward() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    for (cell, layers, bi) in [
        (CellKind::Lstm, 1, false),
        (CellKind::Gru, 2, true),
        (CellKind::Rnn, 1, false),
    ] {
        let model = SeqModel::new(RnnSpec::stacked(cell, 8, 5, layers, bi), 4);
        let params = init_params(&model.layout, &model.spec, 2);
        let tokens: Vec<u32> = (0..6).map(|_| rng.random_range(0..8)).collect();
        let probs = model.predict(&params, &tokens).unwrap();
        assert!((probs.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        let batch = SeqBatch::of_batch_first(1, 6, &tokens.clone(), vec![6], vec![0]);
        let fwd = model.forward(&params, &batch);
        Tol::FIXTURE.assert(
            "predict",
            &probs,
            &unroll_core::math::loss::softmax(&fwd.outputs),
        );

        let trace = model.trace(&params, &tokens).unwrap();
        assert_eq!(trace.directions.len(), layers * model.spec.num_directions());
        let g = cell.gates();
        for d in &trace.directions {
            assert_eq!(d.h.len(), 6 * 5);
            assert_eq!(
                d.c.as_ref().map(Vec::len),
                (cell == CellKind::Lstm).then_some(30)
            );
            assert_eq!(
                d.gates.as_ref().map(Vec::len),
                (cell != CellKind::Rnn).then_some(6 * g * 5)
            );
        }
        let top = &trace.directions[(layers - 1) * model.spec.num_directions()..];
        // Feature = [forward h at the last step, reverse h at the last step].
        let feature: Vec<f32> = top.iter().flat_map(|d| d.h[5 * 5..].to_vec()).collect();
        assert_eq!(feature, fwd.features);
        if cell == CellKind::Lstm {
            let gates = trace.directions[0].gates.as_ref().unwrap();
            for (k, &v) in gates.iter().enumerate() {
                let is_g = (k % 20) / 5 == 2;
                assert!(
                    if is_g {
                        (-1.0..=1.0).contains(&v)
                    } else {
                        (0.0..=1.0).contains(&v)
                    },
                    "gate {k} = {v}"
                );
            }
        }
    }
    let model = SeqModel::new(RnnSpec::stacked(CellKind::Lstm, 8, 5, 1, false), 4);
    let params = init_params(&model.layout, &model.spec, 2);
    assert_eq!(
        model.predict(&params, &[]).unwrap_err(),
        RnnError::EmptySequence
    );
    assert_eq!(
        model.predict(&params, &[1, 8]).unwrap_err(),
        RnnError::TokenOutOfRange {
            token: 8,
            vocab_size: 8
        }
    );
}

// ---------------------------------------------------------------------------------------------
// The test helpers themselves
// ---------------------------------------------------------------------------------------------

/// A NaN is a failure (never hidden by a max), and the tolerance is
/// 1e-5 + 1e-4·|ref|.
#[test]
fn tolerance_check_counts_nan_and_applies_the_tolerance() {
    for (name, tol) in Tol::PRESETS {
        assert!(!tol.accepts(f32::NAN, 1.0), "{name} accepts a NaN result");
        assert!(
            !tol.accepts(1.0, f64::NAN),
            "{name} accepts a NaN reference"
        );
        assert!(tol.accepts(1.0, 1.0), "{name} rejects an exact value");
    }
    assert!(Tol::FIXTURE
        .check("nan", &[1.0, f32::NAN], &[1.0f64, 1.0])
        .unwrap_err()
        .contains("max err NaN"));
    assert!(Tol::FIXTURE
        .check("ok", &[100.0 + 0.009], &[100.0f64])
        .is_ok());
    assert!(Tol::FIXTURE
        .check("bad", &[100.0 + 0.02], &[100.0f64])
        .is_err());
    let shaped = Tensor {
        shape: vec![2, 2],
        data: vec![0.0, 0.0, 0.0, 1.0],
    };
    assert!(shaped
        .check("t", &[0.0, 0.0, 0.0, 0.0])
        .unwrap_err()
        .contains("[1, 1]"));
    // [1e8, 1, −1e8, 1] sums to 1 sequentially and 0 pairwise in f32; both are
    // outside the tolerance of the exact 2, so cancellation must never be compared bit-exactly.
    let v = [1e8f32, 1.0, -1e8, 1.0];
    let sequential = v.iter().fold(0.0f32, |a, &b| a + b);
    let pairwise = (v[0] + v[1]) + (v[2] + v[3]);
    assert_eq!((sequential, pairwise), (1.0, 0.0));
    assert!(Tol::FIXTURE.check("sum", &[sequential], &[2.0f64]).is_err());
}

// ---------------------------------------------------------------------------------------------
// The cell descriptors
// ---------------------------------------------------------------------------------------------

/// Every cell's descriptor agrees with its kind, its key, the weights' block count G, and the
/// CPU module (a cell state exactly when `c_n` comes back; gate activations exactly when the
/// descriptor lists gates; each gate's values within its activation's range).
#[test]
fn cell_descriptors_match_the_cells() {
    use unroll_core::math::cell::CELL_COUNT;
    assert_eq!(CellKind::ALL.len(), CELL_COUNT);
    assert_eq!(CellKind::KEYS.map(CellKind::parse), CellKind::ALL.map(Some));
    for (k, cell) in CellKind::ALL.into_iter().enumerate() {
        let spec = cell.spec();
        assert_eq!(spec.kind, cell);
        assert_eq!(cell.index(), k);
        assert_eq!(CellKind::parse(&spec.key.to_uppercase()), Some(cell));
        assert_eq!(spec.torch_class, format!("nn.{}", spec.name));
        assert!(
            spec.gates.is_empty() || spec.gates.len() == spec.blocks,
            "{cell:?}"
        );
        assert!(spec.hidden_bias_blocks <= spec.blocks, "{cell:?}");
        assert_eq!(
            spec.kernels,
            [
                format!("{}_forward", spec.key),
                format!("{}_backward", spec.key)
            ]
        );
        // The weights hold G blocks.
        let rnn_spec = RnnSpec::new(cell, 3, 4);
        let layout = ParamLayout::rnn(&rnn_spec, "");
        assert_eq!(
            layout.get("weight_hh_l0").unwrap().shape,
            [spec.blocks * 4, 4]
        );
        // The module returns c_n and gate activations as the descriptor says.
        let module = RnnModule::new(rnn_spec, &layout, "");
        let params: Vec<f32> = (0..layout.total_len())
            .map(|i| ((i * 37 % 17) as f32 - 8.0) / 10.0)
            .collect();
        let x: Vec<f32> = (0..2 * 3).map(|i| i as f32 / 6.0 - 0.5).collect();
        let cache = module.forward_time_major(&params, SeqData::Dense(x), 2, vec![2], None, None);
        assert_eq!(cache.c_n().is_some(), spec.has_cell_state, "{cell:?}");
        let dir = cache.direction(0, 0);
        assert_eq!(dir.c_at(1, 0).is_some(), spec.has_cell_state, "{cell:?}");
        match dir.gates_at(1, 0) {
            None => assert!(spec.gates.is_empty(), "{cell:?}"),
            Some(gates) => {
                for (g, gate) in spec.gates.iter().enumerate() {
                    let (lo, hi) = gate.activation.range();
                    for &v in &gates[g * 4..(g + 1) * 4] {
                        assert!((lo..=hi).contains(&v), "{cell:?} {}: {v}", gate.letter);
                    }
                }
            }
        }
    }
}
