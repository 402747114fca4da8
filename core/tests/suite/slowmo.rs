//! The slow-motion training step (`train::slowmo`): its new weights are those of one real
//! training step at batch 1 (`Trainer::step_on` a batch of that one name, from the same
//! weights and Adam state), and its stages agree with each other (softmax, loss, the
//! step-by-step gradients adding up to the trainer's, the clip and the update).

use crate::tol;

use tol::Tol;
use unroll_core::config::Head;
use unroll_core::math::init::init_params;
use unroll_core::math::model::{SeqBatch, SeqModel};
use unroll_core::math::optim::{Adam, AdamConfig};
use unroll_core::math::params::{CellKind, RnnSpec};
use unroll_core::train::slowmo::{slow_step, SlowStep, SlowmoInput, TOP_MOVERS};
use unroll_core::train::trainer::{Repeat, Trainer};
use unroll_core::train::Hyper;

const VOCAB: usize = 12;
const CLASSES: usize = 5;

fn spec(cell: CellKind, hidden: usize, layers: usize, bidir: bool) -> RnnSpec {
    RnnSpec::stacked(cell, VOCAB, hidden, layers, bidir)
}

fn one_name(tokens: &[u32], label: u32) -> SeqBatch {
    SeqBatch::of_batch_first(
        1,
        tokens.len(),
        tokens,
        vec![tokens.len() as u32],
        vec![label],
    )
}

/// A trainer a few steps into training on other names (so Adam's moments and step count are
/// not fresh), and the name the slow-motion step takes.
fn warmed(model: &SeqModel, seed: u64, hyper: &Hyper) -> Trainer {
    let params = init_params(&model.layout, &model.spec, seed);
    let adam = Adam::new(
        AdamConfig {
            lr: hyper.lr,
            ..AdamConfig::default()
        },
        params.len(),
    );
    let stream = Box::new(Repeat(one_name(&[1], 0)));
    let max_norm = (hyper.max_norm > 0.0).then_some(hyper.max_norm);
    let mut trainer = Trainer::of_model(model.clone(), params, adam, max_norm, stream);
    let others: [(&[u32], u32); 3] = [(&[1, 2, 3, 4], 0), (&[5, 6, 7], 3), (&[8, 9, 10, 11, 0], 1)];
    for (tokens, label) in others {
        trainer.step_on(&one_name(tokens, label));
    }
    trainer
}

fn cases() -> Vec<(&'static str, SeqModel)> {
    vec![
        (
            "lstm",
            SeqModel::new(spec(CellKind::Lstm, 6, 1, false), CLASSES),
        ),
        (
            "gru 2 layers bidir",
            SeqModel::new(spec(CellKind::Gru, 5, 2, true), CLASSES),
        ),
        (
            "rnn 2 layers",
            SeqModel::new(spec(CellKind::Rnn, 7, 2, false), CLASSES),
        ),
        (
            "lstm bidir padded",
            SeqModel::new(spec(CellKind::Lstm, 4, 1, true), CLASSES).with_head(Head::Padded),
        ),
    ]
}

const NAME: [u32; 6] = [3, 7, 1, 1, 9, 4];
const LABEL: u32 = 2;

fn run(model: &SeqModel, hyper: Hyper, name: &[u32]) -> (SlowStep, Trainer) {
    let before = warmed(model, 7, &hyper);
    let step = slow_step(SlowmoInput {
        model,
        params: before.params(),
        adam: before.adam(),
        hyper,
        tokens: name,
        label: LABEL,
    })
    .unwrap();
    (step, before)
}

fn max_abs_diff(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

/// The slow-motion step's new weights and Adam state equal one `Trainer::step_on` at batch 1
/// (within 1e-6), with clipping that clips, clipping off, and a long name read padded.
#[test]
fn new_weights_equal_one_real_training_step() {
    let hypers = [
        Hyper {
            lr: 0.01,
            max_norm: 0.05,
        },
        Hyper {
            lr: 0.003,
            max_norm: 0.0,
        },
    ];
    let long: Vec<u32> = (0..13).map(|i| (i * 5 % VOCAB) as u32).collect();
    for (tag, model) in cases() {
        for hyper in hypers {
            for name in [&NAME[..], &long[..]] {
                let (step, before) = run(&model, hyper, name);
                let old = before.params().to_vec();
                let mut trainer = before;
                let adam_step = trainer.adam().step;
                let result = trainer.step_on(&one_name(name, LABEL));
                let diff = max_abs_diff(&step.new_params, trainer.params());
                assert!(
                    diff <= 1e-6,
                    "{tag} {hyper:?}: new weights differ by {diff}"
                );
                assert!(
                    max_abs_diff(&step.new_adam.m, &trainer.adam().m) <= 1e-6,
                    "{tag}: m"
                );
                assert!(
                    max_abs_diff(&step.new_adam.v, &trainer.adam().v) <= 1e-6,
                    "{tag}: v"
                );
                assert_eq!(step.new_adam.step, adam_step + 1, "{tag}");
                assert_eq!(step.new_adam.step, trainer.adam().step, "{tag}");
                assert!(
                    (f64::from(step.loss) - result.loss).abs() <= 1e-6,
                    "{tag}: loss"
                );
                assert!(!step.skipped && !result.skipped, "{tag}");
                // The norm is measured with clipping on and off, by both.
                let n = result.grad_norm;
                assert!(n > 0.0, "{tag}: grad norm {n}");
                assert!(
                    (step.clip.norm - n).abs() <= 1e-6 * n.max(1.0),
                    "{tag}: norm"
                );
                let delta: Vec<f32> = step
                    .new_params
                    .iter()
                    .zip(&old)
                    .map(|(n, o)| n - o)
                    .collect();
                assert_eq!(step.delta, delta, "{tag}: Δ = new − old");
            }
        }
    }
}

/// Forward, softmax and loss agree: probabilities sum to 1, the loss is −ln p[label],
/// ∂L/∂logits = p − onehot, the new prediction is the model's on the new weights.
#[test]
fn forward_stages_are_consistent() {
    let hyper = Hyper {
        lr: 0.01,
        max_norm: 1.0,
    };
    for (tag, model) in cases() {
        let (step, before) = run(&model, hyper, &NAME);
        let sum: f32 = step.probabilities.iter().sum();
        assert!((sum - 1.0).abs() <= 1e-6, "{tag}: softmax sums to {sum}");
        let want = -step.probabilities[LABEL as usize].ln();
        assert!(
            (step.loss - want).abs() <= 1e-5,
            "{tag}: loss {} vs {want}",
            step.loss
        );
        for (c, (&d, &p)) in step.d_logits.iter().zip(&step.probabilities).enumerate() {
            let target = if c == LABEL as usize { 1.0 } else { 0.0 };
            assert!((d - (p - target)).abs() <= 1e-6, "{tag}: d_logits[{c}]");
        }
        let trace = model.trace(before.params(), &NAME).unwrap();
        assert_eq!(
            step.forward, trace.directions,
            "{tag}: forward is the inspector's trace"
        );
        let new = model.predict(&step.new_params, &NAME).unwrap();
        assert_eq!(step.new_probabilities, new, "{tag}");
        let new_loss = -new[LABEL as usize].ln();
        assert_eq!(step.new_loss, new_loss, "{tag}");
    }
}

/// The head's gradient plus every backward step's contribution add up to the trainer's
/// gradient, step by step the norms grow to the final ones, and BPTT visits every step of
/// every layer and direction in its order.
#[test]
fn backward_steps_add_up_to_the_gradient() {
    let hyper = Hyper {
        lr: 0.01,
        max_norm: 0.0,
    };
    for (tag, model) in cases() {
        let (step, before) = run(&model, hyper, &NAME);
        Tol::ACCUMULATED.assert(tag, &step.rebuilt, &step.grads);
        let spec = model.spec;
        let len = step.read.len();
        assert_eq!(
            step.backward.len(),
            spec.num_layers * spec.num_directions() * len,
            "{tag}"
        );
        let first = &step.backward[0];
        assert_eq!(
            (first.layer, first.direction, first.t),
            (spec.num_layers - 1, 0, len - 1)
        );
        let last = step.backward.last().unwrap();
        let want_t = if spec.bidirectional { len - 1 } else { 0 };
        assert_eq!((last.layer, last.t), (0, want_t), "{tag}");
        let final_norms: Vec<f32> = step
            .tensors
            .iter()
            .map(|e| l2(&step.grads[e.range()]))
            .collect();
        Tol::ACCUMULATED.assert(tag, &last.grad_norms, &final_norms);
        // Before BPTT only the head has a gradient.
        for (e, &n) in step.tensors.iter().zip(&step.head_grad_norms) {
            assert_eq!(n == 0.0, e.name.starts_with("rnn."), "{tag}: {}", e.name);
        }
        // The first backward step's ∂L/∂h is what the head sends back: fc.weightᵀ · d_logits.
        let hid = spec.hidden_size;
        let fc = &step.tensors.iter().find(|e| e.name == "fc.weight").unwrap();
        let w = &before.params()[fc.range()];
        let feat = spec.num_directions() * hid;
        let want: Vec<f32> = (0..hid)
            .map(|j| {
                (0..CLASSES)
                    .map(|c| w[c * feat + j] * step.d_logits[c])
                    .sum()
            })
            .collect();
        Tol::ACCUMULATED.assert(tag, &first.dh, &want);
    }
}

fn l2(xs: &[f32]) -> f32 {
    xs.iter().map(|&x| (x as f64).powi(2)).sum::<f64>().sqrt() as f32
}

/// Clipping scales the gradient to max_norm, and the movers are the tensor's largest |Δ|.
#[test]
fn clip_and_movers_are_what_the_update_did() {
    let hyper = Hyper {
        lr: 0.01,
        max_norm: 0.05,
    };
    for (tag, model) in cases() {
        let (step, _) = run(&model, hyper, &NAME);
        assert!(
            step.clip.clipped,
            "{tag}: norm {} should exceed 0.05",
            step.clip.norm
        );
        let want_scale = hyper.max_norm as f64 / (step.clip.norm + 1e-6);
        assert!((step.clip.scale - want_scale).abs() <= 1e-12, "{tag}");
        let clipped_total = l2(&step.clipped_norms);
        assert!(
            (clipped_total - 0.05).abs() <= 1e-6,
            "{tag}: {clipped_total}"
        );
        for (e, m) in step.tensors.iter().zip(&step.movers) {
            let d = &step.delta[e.range()];
            let max = d.iter().map(|x| x.abs()).fold(0.0, f32::max);
            assert_eq!(m.max_abs, max, "{tag}: {}", e.name);
            assert_eq!(m.top.len(), TOP_MOVERS.min(d.len()));
            assert_eq!(m.top[0].1.abs(), max);
            assert!(m.top.windows(2).all(|p| p[0].1.abs() >= p[1].1.abs()));
            assert!(m.top.iter().all(|&(i, v)| d[i] == v));
        }
    }
}

/// A symbol outside the vocabulary and an empty name are errors, not panics; from fresh Adam
/// state the update is Adam's step 1 and lowers the name's loss.
#[test]
fn bad_input_is_an_error() {
    let model = SeqModel::new(spec(CellKind::Gru, 3, 1, false), CLASSES);
    let params = init_params(&model.layout, &model.spec, 1);
    let adam = unroll_core::math::optim::Adam::new(Default::default(), params.len());
    let hyper = Hyper {
        lr: 0.01,
        max_norm: 1.0,
    };
    let input = |tokens: &'static [u32], label| SlowmoInput {
        model: &model,
        params: &params,
        adam: &adam,
        hyper,
        tokens,
        label,
    };
    assert!(slow_step(input(&[], 0)).is_err());
    assert!(slow_step(input(&[VOCAB as u32], 0)).is_err());
    let fresh = slow_step(input(&[1, 2, 5], 0)).unwrap();
    assert_eq!(fresh.new_adam.step, 1);
    // Adam's first update on this name alone moves every weight against its own gradient
    // (by about lr), so the name's loss falls.
    assert!(
        fresh.new_loss < fresh.loss,
        "{} → {}",
        fresh.loss,
        fresh.new_loss
    );
}
