//! The lessons' computations: the course's worked examples come out of the code, and
//! the lesson code agrees with the trainer's CPU reference (`unroll_core::math`) it is built on.
//!
//! The expected numbers are the course's (4 decimals, or 2 significant digits where the
//! course writes "about"); the code computes them from the default configs.

use crate::common::shape_of;
use rand::distr::{Distribution, Uniform};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use unroll_core::config::lessons::{
    BidirConfig, BpttAct, BpttConfig, GruConfig, LstmConfig, LstmMode, ShapesConfig, SoftmaxConfig,
    UnrollConfig,
};
use unroll_core::config::CellKind;
use unroll_core::lessons::{
    bidir, bptt, gru, lstm, parallel, shapes, softmax, unroll as unroll_lesson,
};
use unroll_core::math::optim::ClipOutcome;
use unroll_core::math::params::{Nonlinearity, ParamLayout, RnnSpec};
use unroll_core::math::recurrent::{RnnModule, TensorRef};

/// `value` rounds to `course` at 4 decimals (|Δ| ≤ 5e-5 plus f32 slack).
#[track_caller]
fn assert_4dp(value: f32, course: f64) {
    assert!(
        (f64::from(value) - course).abs() <= 5.0e-5 + 1e-7,
        "{value} does not round to the course's {course:.4}"
    );
}

/// `value` rounds to `course` at 2 significant digits.
#[track_caller]
fn assert_2sig(value: f32, course: f64) {
    let rounded: f64 = format!("{:.1e}", f64::from(value)).parse().unwrap();
    assert_eq!(rounded, course, "{value:e} is not about {course:e}");
}

// ----------------------------------------------------------------------------------------- unroll

#[test]
fn unroll_default_is_the_course_example() {
    let u = unroll_lesson::unroll(&UnrollConfig::default()).unwrap();
    assert_eq!(u.hidden_size, 1);
    let h: Vec<f32> = u.steps.iter().map(|s| s.h[0]).collect();
    assert_eq!(h.len(), 3);
    for (got, course) in h.iter().zip([0.4621, 0.8981, 0.3783]) {
        assert_4dp(*got, course);
    }
    // t = 2: 0.5·2.0 + 1.0·0.4621 = 1.4621 → 0.8981
    let s2 = &u.steps[1];
    assert_eq!((s2.t, s2.x), (2, 2.0));
    assert_4dp(s2.input_term[0], 1.0);
    assert_4dp(s2.recurrent_term[0], 0.4621);
    assert_4dp(s2.z[0], 1.4621);
    // With b = 0 and h_0 = 0 everything W_hh·h_1 carries comes from x_1.
    assert_4dp(s2.from_x1[0], 0.4621);
    assert!((s2.from_x1[0] - s2.recurrent_term[0]).abs() <= 1e-6);
    assert_4dp(u.steps[0].from_x1[0], 0.5);
    assert_eq!(u.h_n, vec![h[2]]);
}

#[test]
fn unroll_z_and_h_agree_with_the_module_for_any_sliders() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let w = Uniform::new(-3.0, 3.0).unwrap();
    let xs = Uniform::new(-5.0, 5.0).unwrap();
    for _ in 0..50 {
        let config = UnrollConfig {
            w_xh: w.sample(&mut rng),
            w_hh: w.sample(&mut rng),
            b: w.sample(&mut rng),
            h0: w.sample(&mut rng),
            x: (0..7).map(|_| xs.sample(&mut rng)).collect(),
            ..UnrollConfig::default()
        };
        let u = unroll_lesson::unroll(&config).unwrap();
        // An independent f32 recurrence with the same order of additions.
        let mut h = config.h0 as f32;
        for (s, &x) in u.steps.iter().zip(&config.x) {
            let z =
                (config.b as f32 + config.w_xh as f32 * x as f32) + (0.0 + config.w_hh as f32 * h);
            assert_eq!(s.h_prev[0], h);
            assert_eq!(s.z[0], z);
            h = z.tanh();
            assert_eq!(s.h[0], h, "the module's h_t is tanh(z_t)");
            assert!(
                (s.z[0] - (s.input_term[0] + s.recurrent_term[0] + s.bias[0])).abs()
                    <= 1e-6 * (1.0 + s.z[0].abs())
            );
        }
    }
}

/// The lesson's cell is nn.RNN (tanh, two biases), not the tutorial's linear cell.
#[test]
fn unroll_is_nn_rnn_with_tanh_and_two_biases() {
    let config = UnrollConfig {
        w_xh: 0.5,
        w_hh: -0.8,
        b: 0.1 + 0.2,
        x: vec![1.0, -2.0, 3.0],
        ..UnrollConfig::default()
    };
    let u = unroll_lesson::unroll(&config).unwrap();
    for (s, want) in u.steps.iter().zip([0.66403677f64, -0.84293556, 0.98591461]) {
        let got = f64::from(s.h[0]);
        assert!(
            (got - want).abs() <= 1e-5 + 1e-4 * want.abs(),
            "{got} vs {want}"
        );
    }
    assert!(
        (u.steps[2].h[0] - 2.872).abs() > 1.0,
        "must not be the tutorial's linear cell"
    );
}

#[test]
fn unroll_vector_mode_uses_the_same_seeded_weights_at_every_step() {
    let config = UnrollConfig {
        hidden_size: 4,
        seed: 7,
        ..UnrollConfig::default()
    };
    let u = unroll_lesson::unroll(&config).unwrap();
    assert_eq!(
        (
            u.weight_ih.len(),
            u.weight_hh.len(),
            u.bias_ih.len(),
            u.bias_hh.len()
        ),
        (4, 16, 4, 4)
    );
    let bound = 0.5f32; // U(−1/√H, 1/√H), H = 4
    assert!(u.weight_hh.iter().all(|w| w.abs() <= bound));
    for s in &u.steps {
        assert_eq!(s.h.len(), 4);
        for j in 0..4 {
            let z: f32 = u.bias_ih[j]
                + u.weight_ih[j] * s.x
                + u.bias_hh[j]
                + (0..4)
                    .map(|k| u.weight_hh[j * 4 + k] * s.h_prev[k])
                    .sum::<f32>();
            assert!((s.z[j] - z).abs() <= 1e-6);
            assert!(
                (s.h[j] - s.z[j].tanh()).abs() <= 1e-6,
                "h = tanh(z) with one W for all steps"
            );
        }
    }
    assert_eq!(u.steps[0].h_prev, vec![0.0; 4]);
    assert_eq!(u.steps[1].h_prev, u.steps[0].h);
    let other = unroll_lesson::unroll(&UnrollConfig {
        seed: 8,
        ..config.clone()
    })
    .unwrap();
    assert_ne!(other.weight_hh, u.weight_hh, "the seed picks the weights");
}

// ------------------------------------------------------------------------------------------- bptt

#[test]
fn bptt_default_running_products_are_the_course_values() {
    let b = bptt::bptt(&BpttConfig::default());
    let p: Vec<f32> = b.steps.iter().map(|s| s.product).collect();
    assert_eq!(p.len(), 3);
    for (got, course) in p.iter().zip([0.7864, 0.1522, 0.1304]) {
        assert_4dp(*got, course);
    }
    for s in &b.steps {
        assert_eq!(s.act_grad, 1.0 - s.h * s.h);
        assert_eq!(s.factor, s.act_grad * 1.0);
    }
    assert!(b.clipping.is_none(), "max_norm=0 means off");
}

#[test]
fn bptt_constant_input_vanishes_at_the_course_rates() {
    // x = 0.3 repeated over 20 steps, W_xh 0.5.
    for (w_hh, course) in [(0.5, 2.0e-7), (1.0, 4.3e-5), (2.0, 1.4e-15)] {
        let config = BpttConfig {
            w_hh,
            x: vec![0.3],
            steps: 20,
            ..BpttConfig::default()
        };
        let b = bptt::bptt(&config);
        assert_eq!(b.steps.len(), 20);
        assert!(b.steps.iter().all(|s| s.x == 0.3f32));
        assert_2sig(b.steps[19].product, course);
        // The comparison curves are the same computation.
        let curve = b.curves.iter().find(|c| c.w_hh == w_hh as f32).unwrap();
        assert_eq!(curve.products[19], b.steps[19].product);
    }
}

/// The running product is ∂h_T/∂h_0, and the parameter gradients are BPTT's: compare with the
/// trainer's `RnnModule` backward (tanh and ReLU).
#[test]
fn bptt_agrees_with_the_module_backward() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let w = Uniform::new(-2.0, 2.0).unwrap();
    for act in [BpttAct::Tanh, BpttAct::Relu] {
        for _ in 0..20 {
            let x: Vec<f64> = (0..5).map(|_| w.sample(&mut rng)).collect();
            let config = BpttConfig {
                w_hh: w.sample(&mut rng),
                w_xh: w.sample(&mut rng),
                x,
                steps: 9,
                act,
                max_norm: 0.0,
            };
            let b = bptt::bptt(&config);
            let mut spec = RnnSpec::new(CellKind::Rnn, 1, 1);
            spec.nonlinearity = if act == BpttAct::Relu {
                Nonlinearity::Relu
            } else {
                Nonlinearity::Tanh
            };
            let layout = ParamLayout::rnn(&spec, "");
            let params = [config.w_xh as f32, config.w_hh as f32, 0.0, 0.0];
            let module = RnnModule::new(spec, &layout, "");
            let xs: Vec<f32> = (0..9).map(|t| config.x[t % 5] as f32).collect();
            let shape = [9, 1, 1];
            let out = module
                .forward(
                    &params,
                    TensorRef::new(&shape, &xs),
                    false,
                    None,
                    None,
                    None,
                )
                .unwrap();
            for (s, h) in b.steps.iter().zip(&out.output) {
                assert_eq!(s.h, *h, "same recurrence as nn.RNN");
            }
            let mut grads = [0.0f32; 4];
            let g = module.backward(
                &params,
                &out.cache,
                &[0.0; 9],
                Some(&[1.0]),
                None,
                &mut grads,
            );
            let tol = |a: f32, b: f32| (a - b).abs() <= 1e-5 + 1e-4 * b.abs();
            assert!(
                tol(b.steps[8].product, g.h0[0]),
                "{} vs {}",
                b.steps[8].product,
                g.h0[0]
            );
            for (mine, theirs) in b.grads.flat().iter().zip(grads) {
                assert!(tol(*mine, theirs), "{:?} vs {grads:?}", b.grads);
            }
        }
    }
}

#[test]
fn bptt_linear_and_relu_explode_and_clipping_caps_the_norm() {
    let config = BpttConfig {
        w_hh: 2.0,
        x: vec![1.0],
        steps: 10,
        act: BpttAct::Linear,
        max_norm: 1.0,
        ..BpttConfig::default()
    };
    let b = bptt::bptt(&config);
    for s in &b.steps {
        assert_eq!(
            s.product,
            2f32.powi(s.t as i32),
            "linear: the product is W_hh^t"
        );
    }
    let clip = b.clipping.clone().unwrap();
    let ClipOutcome::Clipped { norm, scale } = clip.outcome else {
        panic!("{:?}", clip.outcome)
    };
    assert!((norm - b.grad_norms[9]).abs() <= 1e-9 * norm);
    let clipped_norm = clip
        .clipped
        .iter()
        .map(|&g| f64::from(g).powi(2))
        .sum::<f64>()
        .sqrt();
    assert!((clipped_norm - 1.0).abs() <= 1e-5, "{clipped_norm}");
    assert!((scale - 1.0 / (norm + 1e-6)).abs() <= 1e-12);
    // The norms grow with the horizon; clipped, none exceeds max_norm.
    assert!(b.grad_norms.windows(2).all(|w| w[1] > w[0]));
    let clipped = b.clipped_norms.clone().unwrap();
    for (c, n) in clipped.iter().zip(&b.grad_norms) {
        assert!(
            *c <= 1.0 + 1e-6 && (*c - n.min(1.0)).abs() <= 1e-5,
            "{c} vs {n}"
        );
    }

    // Clipping does nothing for a small gradient.
    let small = bptt::bptt(&BpttConfig {
        max_norm: 100.0,
        ..BpttConfig::default()
    });
    assert!(matches!(
        small.clipping.unwrap().outcome,
        ClipOutcome::Unchanged { .. }
    ));

    // 3^100 overflows f32: the norm is not finite and the step is skipped, never zeroed.
    let huge = bptt::bptt(&BpttConfig {
        w_hh: 3.0,
        x: vec![1.0],
        steps: 100,
        act: BpttAct::Linear,
        max_norm: 5.0,
        ..BpttConfig::default()
    });
    let clip = huge.clipping.unwrap();
    assert!(clip.outcome.skip_step(), "{:?}", clip.outcome);
    let bits = |g: [f32; 4]| g.map(f32::to_bits);
    assert_eq!(
        bits(clip.clipped),
        bits(huge.grads.flat()),
        "left untouched"
    );

    // ReLU with a positive input and W_hh 1.5 explodes like 1.5^t.
    let relu = bptt::bptt(&BpttConfig {
        w_hh: 1.5,
        x: vec![1.0],
        steps: 30,
        act: BpttAct::Relu,
        ..BpttConfig::default()
    });
    assert!((relu.steps[29].product - 1.5f32.powi(30)).abs() <= 1e-3 * 1.5f32.powi(30));
}

// ------------------------------------------------------------------------------------------- lstm

#[test]
fn lstm_default_belt_is_the_course_example() {
    let l = lstm::lstm(&LstmConfig::default()).unwrap();
    assert_eq!(l.steps.len(), 2);
    assert_4dp(l.steps[0].c, 0.4000);
    assert_4dp(l.steps[0].h, 0.1520);
    assert_4dp(l.steps[1].c, -0.4200);
    assert_eq!(l.steps[1].c_prev, l.steps[0].c);
    assert_4dp(l.steps[1].kept, 0.12);
    assert_4dp(l.steps[1].written, -0.54);
    assert_4dp(l.belt_products[1], 0.27);
    assert_eq!(l.rnn_products.len(), 2);
    assert_4dp(l.rnn_products[1], 0.1522);
}

#[test]
fn lstm_run_to_n_approaches_the_fixed_point() {
    let config = LstmConfig {
        mode: LstmMode::Run,
        ..LstmConfig::default()
    };
    let l = lstm::lstm(&config).unwrap();
    assert_eq!(l.steps.len(), 20);
    assert!(l
        .steps
        .iter()
        .all(|s| s.f == 0.9f32 && (s.i * s.g - 0.4).abs() < 1e-7));
    assert_4dp(l.steps[19].c, 3.5137);
    assert_4dp(l.fixed_point.unwrap(), 4.0);
    assert!(l.steps.windows(2).all(|w| w[0].c < w[1].c && w[1].c < 4.0));
    let longer = lstm::lstm(&LstmConfig { n: 30, ..config }).unwrap();
    assert!((longer.steps[29].c - 4.0).abs() < (l.steps[19].c - 4.0).abs());
}

/// The slider mode's update is `math::lstm::forward_step`'s, bit for bit.
#[test]
fn lstm_update_is_the_math_cells_update() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let u = Uniform::new(-4.0f32, 4.0).unwrap();
    for _ in 0..200 {
        let gi: Vec<f32> = (0..4).map(|_| u.sample(&mut rng)).collect();
        let gh: Vec<f32> = (0..4).map(|_| u.sample(&mut rng)).collect();
        let c_prev = [u.sample(&mut rng)];
        let (mut gates, mut c, mut tanh_c, mut h) = ([0.0f32; 4], [0.0f32], [0.0f32], [0.0f32]);
        unroll_core::math::lstm::forward_step(
            &gi,
            &gh,
            &c_prev,
            &mut gates,
            &mut c,
            &mut tanh_c,
            &mut h,
        );
        let mine = lstm::lstm_update(gates[1], gates[0], gates[2], gates[3], c_prev[0]);
        assert_eq!((mine.c, mine.tanh_c, mine.h), (c[0], tanh_c[0], h[0]));
    }
}

#[test]
fn lstm_weights_mode_runs_the_seeded_module() {
    let config = LstmConfig {
        mode: LstmMode::Weights,
        c0: 0.5,
        seed: 3,
        ..LstmConfig::default()
    };
    let l = lstm::lstm(&config).unwrap();
    let w = l.weights.clone().unwrap();
    assert_eq!((w.weight_ih.len(), w.weight_hh.len()), (4, 4));
    assert!(
        w.weight_ih
            .iter()
            .chain(&w.weight_hh)
            .all(|v| v.abs() <= 1.0),
        "U(−1, 1) for H = 1"
    );
    assert_eq!(l.steps.len(), 3);
    let (mut h, mut c) = (0.0f32, 0.5f32);
    for (s, &x) in l.steps.iter().zip(&config.x) {
        let x = x as f32;
        let pre =
            |k: usize| (w.bias_ih[k] + w.weight_ih[k] * x) + (w.bias_hh[k] + w.weight_hh[k] * h);
        let sig = |v: f32| 1.0 / (1.0 + (-v).exp());
        let (i, f, g, o) = (sig(pre(0)), sig(pre(1)), pre(2).tanh(), sig(pre(3)));
        for (a, b) in [(s.i, i), (s.f, f), (s.g, g), (s.o, o)] {
            assert!((a - b).abs() <= 1e-6, "gate order i, f, g, o");
        }
        assert_eq!(s.c_prev, c);
        let u = lstm::lstm_update(s.f, s.i, s.g, s.o, s.c_prev);
        assert_eq!((u.c, u.h), (s.c, s.h));
        (h, c) = (s.h, s.c);
    }
}

// -------------------------------------------------------------------------------------------- gru

#[test]
fn gru_update_gate_values_and_pytorch_convention() {
    let g = gru::gru(&GruConfig::default());
    assert_4dp(g.h, 0.35);
    assert_4dp(g.pytorch_h, 0.35);
    assert_4dp(g.pytorch_z, 0.7);
    assert_4dp(g.pytorch_same_z, 0.55);
    assert_4dp(g.kept + g.written, 0.35);
    assert_4dp(
        gru::gru(&GruConfig {
            z: 0.05,
            ..GruConfig::default()
        })
        .h,
        0.225,
    );
    assert_4dp(
        gru::gru(&GruConfig {
            z: 0.95,
            ..GruConfig::default()
        })
        .h,
        0.675,
    );
    // z = 0 keeps the old state, z = 1 takes the candidate (course); PyTorch is the opposite.
    let z0 = gru::gru(&GruConfig {
        z: 0.0,
        ..GruConfig::default()
    });
    assert_eq!((z0.h, z0.pytorch_same_z), (0.2f32, 0.7f32));
}

#[test]
fn gru_reset_panel_scales_the_hidden_part_inside_the_candidate() {
    let g = gru::gru(&GruConfig::default());
    let r = &g.reset;
    assert_4dp(r.input_part, 0.4);
    assert_4dp(r.hidden_part, 0.6 * 0.2 + 0.1);
    assert_4dp(r.gated, 0.5 * 0.22);
    assert_eq!(r.n, (r.input_part + r.gated).tanh());
    assert_eq!(r.n_r0, r.input_part.tanh());
    assert_eq!(r.n_r1, (r.input_part + r.hidden_part).tanh());
}

/// `pytorch_update` and `candidate` are `math::gru::forward_step`'s expressions.
#[test]
fn gru_formulas_are_the_math_cells() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let u = Uniform::new(-3.0f32, 3.0).unwrap();
    for _ in 0..200 {
        let gi: Vec<f32> = (0..3).map(|_| u.sample(&mut rng)).collect();
        let gh: Vec<f32> = (0..3).map(|_| u.sample(&mut rng)).collect();
        let h_prev = [u.sample(&mut rng) / 3.0];
        let (mut gates, mut n_hh, mut h) = ([0.0f32; 3], [0.0f32], [0.0f32]);
        unroll_core::math::gru::forward_step(&gi, &gh, &h_prev, &mut gates, &mut n_hh, &mut h);
        let n = gru::candidate(gi[2], gates[0], gh[2]);
        assert_eq!(n, gates[2]);
        assert_eq!(gru::pytorch_update(gates[1], n, h_prev[0]), h[0]);
        let course = gru::course_update(1.0 - gates[1], n, h_prev[0]);
        assert!((course - h[0]).abs() <= 1e-6, "course z = 1 − PyTorch z");
    }
}

// ---------------------------------------------------------------------------------------- softmax

#[test]
fn softmax_default_is_the_course_example() {
    let s = softmax::softmax(&SoftmaxConfig::default());
    for (got, course) in s.log_softmax.iter().zip([-2.0404, -0.1404, -6.9404]) {
        assert_4dp(*got, course);
    }
    for (got, course) in s.probs.iter().zip([0.1300, 0.8690, 0.0010]) {
        assert_4dp(*got, course);
    }
    assert_eq!(s.target, 1);
    assert_4dp(s.nll, 0.1404);
    assert!((s.nll - s.cross_entropy).abs() <= 1e-6);
    assert_4dp(s.max, 5.1);
    assert_4dp(s.log_sum_exp, 5.2404);
    let t0 = softmax::softmax(&SoftmaxConfig {
        target: 2,
        ..SoftmaxConfig::default()
    });
    assert_4dp(t0.nll, 6.9404);
}

/// CE([2, 1, 0.1], 0) = 0.41703002; NLL on probabilities is −0.659 (wrong);
/// shifted logits overflow the textbook formula but not log_softmax.
#[test]
fn softmax_stability_and_nll_on_probabilities() {
    let s = softmax::softmax(&SoftmaxConfig {
        logits: vec![2.0, 1.0, 0.1],
        target: 0,
    });
    assert!((f64::from(s.nll) - 0.417_030_02).abs() <= 1e-6);
    assert!((f64::from(s.nll_of_probs) - -0.659_001_14).abs() <= 1e-6);
    assert!(
        s.naive_shifted.iter().any(|p| p.is_nan()),
        "e^100 overflows f32: {:?}",
        s.naive_shifted
    );
    for (a, b) in s.log_softmax.iter().zip(&s.log_softmax_shifted) {
        assert!((a - b).abs() <= 1e-5, "a shift does not change log_softmax");
    }
    let extreme = softmax::softmax(&SoftmaxConfig {
        logits: vec![50.0, 0.0, -50.0],
        target: 2,
    });
    assert_eq!(extreme.log_softmax, vec![0.0, -50.0, -100.0]);
    assert_eq!(extreme.nll, 100.0);
}

// ----------------------------------------------------------------------------------------- shapes

#[test]
fn shapes_default_is_nn_rnn_10_8() {
    let s = shapes::shapes(&ShapesConfig::default()).unwrap();
    let sh = &s.shapes;
    assert_eq!(
        (sh.input, sh.output, sh.h0, sh.h_n),
        ([1, 3, 10], [1, 3, 8], [1, 1, 8], [1, 1, 8])
    );
    assert_eq!((sh.c0, sh.c_n), (None, None));
    assert_eq!(sh.param_count, 160);
    assert_eq!((s.one_bias_count, s.second_bias), (152, 8));
    let names: Vec<(&str, &[usize])> = sh
        .params
        .iter()
        .map(|p| (p.name.as_str(), p.shape.as_slice()))
        .collect();
    assert_eq!(
        names,
        [
            ("weight_ih_l0", &[8, 10][..]),
            ("weight_hh_l0", &[8, 8][..]),
            ("bias_ih_l0", &[8][..]),
            ("bias_hh_l0", &[8][..])
        ]
    );
}

#[test]
fn shapes_lstm_two_layers_batch_first() {
    let config = ShapesConfig {
        batch: 4,
        seq_len: 10,
        ..shape_of(CellKind::Lstm, 16, 32, 2, false)
    };
    let s = shapes::shapes(&config).unwrap();
    let sh = &s.shapes;
    assert_eq!(sh.input, [4, 10, 16]);
    assert_eq!(sh.output, [4, 10, 32]);
    assert_eq!(
        (sh.h0, sh.h_n, sh.c0, sh.c_n),
        ([2, 4, 32], [2, 4, 32], Some([2, 4, 32]), Some([2, 4, 32]))
    );
    assert_eq!(
        sh.param_count,
        4 * 32 * (16 + 32 + 2) + 4 * 32 * (32 + 32 + 2)
    );
    assert_eq!(s.per_layer, vec![6400, 8448]);
    let not_first = shapes::shapes(&ShapesConfig {
        batch_first: false,
        ..config
    })
    .unwrap();
    assert_eq!(
        (not_first.shapes.input, not_first.shapes.output),
        ([10, 4, 16], [10, 4, 32])
    );
    assert_eq!(
        not_first.shapes.h_n,
        [2, 4, 32],
        "batch_first never moves h_n's batch axis"
    );
}

#[test]
fn shapes_seq_len_never_changes_the_count_and_num_layers_does() {
    let base = shape_of(CellKind::Gru, 10, 8, 1, false);
    let count = |c: &ShapesConfig| shapes::shapes(c).unwrap().shapes.param_count;
    let c1 = count(&base);
    for seq_len in [1, 2, 100, 4096] {
        assert_eq!(
            count(&ShapesConfig {
                seq_len,
                ..base.clone()
            }),
            c1
        );
    }
    assert!(
        count(&ShapesConfig {
            num_layers: 2,
            ..base.clone()
        }) > c1
    );
    // PyTorch's counts, and the one-bias (Keras) count beside them.
    let lstm19 = shapes::shapes(&shape_of(CellKind::Lstm, 1, 9, 1, false)).unwrap();
    assert_eq!(
        (lstm19.shapes.param_count, lstm19.one_bias_count),
        (432, 396)
    );
    assert_eq!(count(&shape_of(CellKind::Rnn, 57, 128, 1, false)), 23_936);
    assert_eq!(count(&shape_of(CellKind::Lstm, 57, 128, 1, false)), 95_744);
    let gru = shapes::shapes(&shape_of(CellKind::Gru, 57, 64, 2, true)).unwrap();
    assert_eq!(gru.shapes.param_count, 121_728);
    assert_eq!(gru.shapes.params[0].shape, vec![192, 57]);
    assert_eq!(gru.shapes.params[1].shape, vec![192, 64]);
    assert_eq!(gru.shapes.params[4].name, "weight_ih_l0_reverse");
    assert_eq!(gru.per_layer.iter().sum::<u64>(), 121_728);
}

#[test]
fn shapes_at_the_slider_maxima_need_no_allocation() {
    let config = ShapesConfig {
        batch: 4096,
        seq_len: 4096,
        ..shape_of(CellKind::Lstm, 4096, 4096, 8, true)
    };
    let s = shapes::shapes(&config).unwrap();
    // Layer 0: 4·H·(I + H + 2)·2; layers 1..8: 4·H·(2H + H + 2)·2.
    let h = 4096u64;
    let want = 2 * 4 * h * (h + h + 2) + 7 * 2 * 4 * h * (2 * h + h + 2);
    assert_eq!(s.shapes.param_count, want);
    assert_eq!(s.shapes.output, [4096, 4096, 8192]);
    assert_eq!(s.shapes.h_n, [16, 4096, 4096]);
}

// ------------------------------------------------------------------------------------------ bidir

#[test]
fn bidir_default_concatenates_both_directions() {
    let b = bidir::bidir(&BidirConfig::default()).unwrap();
    assert_eq!(b.tokens, ["我", "爱", "中国"]);
    assert_eq!(b.output.len(), 3);
    assert_eq!(b.params.len(), 8);
    assert_eq!(b.params[4].name, "weight_ih_l0_reverse");
    // h_n[0] is the forward direction's last state, h_n[1] the backward direction's (position 1).
    assert_eq!(b.h_n[0], b.forward[2]);
    assert_eq!(b.h_n[1], b.backward[0]);
    assert_ne!(
        b.h_n[1], b.backward[2],
        "output[:, -1, H:] is not the backward summary"
    );
    for t in 0..3 {
        assert_eq!(b.output[t][..2], b.forward[t]);
        assert_eq!(b.output[t][2..], b.backward[t]);
    }
    // Recompute both directions with the shown weights and embeddings.
    let p = |name: &str| {
        b.params
            .iter()
            .find(|t| t.name == name)
            .unwrap()
            .values
            .clone()
    };
    let step = |sfx: &str, x: [f32; 2], h: [f32; 2]| {
        let (wi, wh, bi, bh) = (
            p(&format!("weight_ih_l0{sfx}")),
            p(&format!("weight_hh_l0{sfx}")),
            p(&format!("bias_ih_l0{sfx}")),
            p(&format!("bias_hh_l0{sfx}")),
        );
        let mut out = [0.0f32; 2];
        for j in 0..2 {
            let z = bi[j]
                + wi[2 * j] * x[0]
                + wi[2 * j + 1] * x[1]
                + bh[j]
                + wh[2 * j] * h[0]
                + wh[2 * j + 1] * h[1];
            out[j] = z.tanh();
        }
        out
    };
    let mut h = [0.0f32; 2];
    for t in 0..3 {
        h = step("", b.inputs[t], h);
        assert!(
            h.iter()
                .zip(&b.forward[t])
                .all(|(a, b)| (a - b).abs() <= 1e-6),
            "forward runs left to right"
        );
    }
    let mut h = [0.0f32; 2];
    for t in (0..3).rev() {
        h = step("_reverse", b.inputs[t], h);
        assert!(
            h.iter()
                .zip(&b.backward[t])
                .all(|(a, b)| (a - b).abs() <= 1e-6),
            "backward runs right to left"
        );
    }
}

#[test]
fn bidir_embeddings_are_per_token_and_seeded() {
    let config = BidirConfig {
        tokens: vec!["a".into(), "b".into(), "a".into()],
        seed: 4,
        t: 0,
    };
    let b = bidir::bidir(&config).unwrap();
    assert_eq!(b.vocabulary.len(), 2);
    assert_eq!(b.inputs[0], b.inputs[2]);
    assert_ne!(b.inputs[0], b.inputs[1]);
    assert_eq!(bidir::embedding("a", 4), b.inputs[0]);
    assert_ne!(bidir::embedding("a", 5), b.inputs[0]);
    assert!(b.inputs.iter().flatten().all(|v| v.abs() < 1.0));
    let other = bidir::bidir(&BidirConfig { seed: 5, ..config }).unwrap();
    assert_ne!(other.params[0].values, b.params[0].values);
    // One token: both directions read only it, so output[:, -1, H:] is h_n[1].
    let one = bidir::bidir(&BidirConfig {
        tokens: vec!["<img src=x onerror=alert(1)>".into()],
        seed: 0,
        t: 0,
    })
    .unwrap();
    assert_eq!(one.h_n[1], one.backward[0]);
}

// --------------------------------------------------------------------------------------- parallel

#[test]
fn parallel_lengths_workloads_and_stats() {
    assert_eq!(parallel::lengths(512), vec![8, 16, 32, 64, 128, 256, 512]);
    assert_eq!(parallel::lengths(100), vec![8, 16, 32, 64, 100]);
    assert_eq!(parallel::lengths(1), vec![8]);
    assert_eq!(parallel::lengths(10_000).last(), Some(&512));

    let seq = parallel::Sequential::new(CellKind::Gru, 8, 16);
    assert_eq!(seq.serial_depth(), 16);
    let v = seq.run();
    assert!(v.is_finite());
    assert_eq!(v, seq.run(), "deterministic");

    let ap = parallel::AllPairs::new(16, 8);
    assert_eq!(ap.serial_depth(), 1);
    assert!(ap.run().is_finite());

    let s = parallel::Stats::from_samples(&[3.0, 1.0, f64::NAN, 2.0, 10.0]).unwrap();
    assert_eq!((s.median, s.min, s.max, s.runs), (2.5, 1.0, 10.0, 4));
    assert_eq!(parallel::Stats::from_samples(&[f64::NAN]), None);

    // A fake clock on which every call costs 0.3 ms.
    let calls = std::cell::Cell::new(0u32);
    let mut now = || f64::from(calls.get()) * 0.3;
    let mut run = || {
        calls.set(calls.get() + 1);
        1.0
    };
    let times = parallel::time(3, &mut now, &mut run);
    assert!(times.iter().all(|t| (t - 0.3).abs() < 1e-12), "{times:?}");
    assert_eq!(
        parallel::calibrate(2.0, 1024, &mut now, &mut run),
        8,
        "0.3 ms × 8 ≥ 2 ms"
    );
    assert_eq!(parallel::calibrate(2.0, 4, &mut now, &mut run), 4, "capped");
    assert!((parallel::sample(8, &mut now, &mut run) - 0.3).abs() < 1e-12);
    assert!((parallel::sample_spanning(2.0, 8, &mut now, &mut run) - 0.3).abs() < 1e-12);

    // A coarse clock (0.1 ms) and calls of 0.04 ms, after a calibration that a descheduled
    // thread stretched (batch 1): each sample still spans 4 ms, and reads 0.04 ms, not 0.
    let ticks = std::cell::Cell::new(0u32);
    let mut coarse = || (f64::from(ticks.get()) * 0.04 / 0.1).floor() * 0.1;
    let mut fast = || {
        ticks.set(ticks.get() + 1);
        1.0
    };
    assert_eq!(
        parallel::sample(1, &mut coarse, &mut fast),
        0.0,
        "too small a batch reads 0"
    );
    let t = parallel::sample_spanning(4.0, 1, &mut coarse, &mut fast);
    assert!((t - 0.04).abs() < 0.04 * 0.05, "{t}");
}

/// Lesson 8's second chart: the serial depth of each workload per length, counted by the
/// workloads (L dependent steps for the recurrent pass, 1 for the all-pairs product), and
/// their multiply-adds (L·G·H·2H against L²·d), which is what one CPU thread's time follows.
#[test]
fn parallel_serial_depths_and_work_per_length() {
    for cell in [CellKind::Rnn, CellKind::Lstm, CellKind::Gru] {
        for len in parallel::lengths(512) {
            let seq = parallel::Sequential::new(cell, 16, len);
            let all = parallel::AllPairs::new(len, 16);
            assert_eq!(seq.serial_depth(), len, "{cell:?} at L = {len}");
            assert_eq!(all.serial_depth(), 1);
            let gates = match cell {
                CellKind::Rnn => 1,
                CellKind::Lstm => 4,
                CellKind::Gru => 3,
            };
            assert_eq!(seq.multiply_adds(), (len * gates * 16 * 32) as u64);
            assert_eq!(all.multiply_adds(), (len * len * 16) as u64);
        }
    }
    // From L = 8 to 512: 64 times the recurrent work and depth, 4096 times the scores.
    let (a, b) = (
        parallel::AllPairs::new(8, 16).multiply_adds(),
        parallel::AllPairs::new(512, 16).multiply_adds(),
    );
    assert_eq!(b / a, 4096);
    // The score the GPU reads back is the CPU product's.
    let ap = parallel::AllPairs::new(16, 8);
    let s00 = ap.score(0, 0);
    assert!(s00.is_finite() && s00 != 0.0);
}

/// What a device's timings show: the growth of each workload's median time from the first
/// length to the last, next to the growth of its work.
#[test]
fn parallel_growth_of_a_devices_timings() {
    let stats = |median: f64| parallel::Stats {
        median,
        min: median * 0.9,
        max: median * 1.1,
        runs: 5,
    };
    let m = |len: usize, seq: f64, all: f64| parallel::Measurement {
        len,
        sequential: stats(seq),
        all_pairs: stats(all),
    };
    // One CPU thread, as a tab measured it once: Q·Kᵀ ×900, the LSTM ×14.
    let cpu = [m(8, 0.05, 0.002), m(64, 0.3, 0.1), m(512, 0.7, 1.8)];
    let g = parallel::Growth::of(&cpu).unwrap();
    assert_eq!((g.first_len, g.last_len), (8, 512));
    assert!((g.sequential - 14.0).abs() < 1e-9 && (g.all_pairs - 900.0).abs() < 1e-9);
    assert_eq!((g.sequential_work, g.all_pairs_work), (64.0, 4096.0));
    assert!(!g.all_pairs_grew_less());
    // A GPU: the product stays near its round trip, the recurrent pass grows with L.
    let gpu = [m(8, 0.3, 0.2), m(512, 2.4, 0.26)];
    let g = parallel::Growth::of(&gpu).unwrap();
    assert!((g.sequential - 8.0).abs() < 1e-9 && (g.all_pairs - 1.3).abs() < 1e-9);
    assert!(g.all_pairs_grew_less());
    // One length, or a zero time, says nothing.
    assert_eq!(parallel::Growth::of(&cpu[..1]), None);
    assert_eq!(
        parallel::Growth::of(&[m(8, 0.0, 0.1), m(16, 1.0, 1.0)]),
        None
    );
}
