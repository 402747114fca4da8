//! Inspection and heads of the name classifier on the CPU: gate pins
//! (`trace_pinned`), gradient flow (`grad_flow`), and `head=padded`, each against an
//! independent computation (hand-written cell steps, a separate module run, finite
//! differences, a model with an explicit all-zero input column).

use crate::tol;

use tol::Tol;
use unroll_core::config::Head;
use unroll_core::math::init::init_params;
use unroll_core::math::loss::softmax;
use unroll_core::math::model::{pad_batch, GatePin, SeqBatch, SeqModel, PADDED_LEN, PAD_TOKEN};
use unroll_core::math::params::{CellKind, ParamLayout, RnnSpec};
use unroll_core::math::recurrent::{RnnModule, TensorRef};
use unroll_core::math::shapes::RnnError;

/// A model with randomly initialised weights (PyTorch's uniform init, seeded) and biases
/// scaled up so the gates are far from their midpoints.
fn model(spec: RnnSpec, classes: usize, seed: u64) -> (SeqModel, Vec<f32>) {
    let m = SeqModel::new(spec, classes);
    let mut p = init_params(&m.layout, &m.spec, seed);
    p.iter_mut().for_each(|v| *v *= 2.5);
    (m, p)
}

fn view<'a>(layout: &ParamLayout, p: &'a [f32], name: &str) -> &'a [f32] {
    layout.view(p, name).unwrap_or_else(|| panic!("{name}"))
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// `W[rows, cols] · x` for a row-major W.
fn matvec(w: &[f32], x: &[f32]) -> Vec<f32> {
    w.chunks(x.len())
        .map(|row| row.iter().zip(x).map(|(a, b)| a * b).sum())
        .collect()
}

/// The head by hand: softmax(fc.weight · h + fc.bias).
fn head(layout: &ParamLayout, p: &[f32], h: &[f32]) -> Vec<f32> {
    let logits: Vec<f32> = matvec(view(layout, p, "fc.weight"), h)
        .iter()
        .zip(view(layout, p, "fc.bias"))
        .map(|(a, b)| a + b)
        .collect();
    softmax(&logits)
}

/// Pinning the LSTM forget gate to 0 at every step is the memoryless cell c_t = i ⊙ g,
/// computed here by hand from the weights; the trace shows f = 0 and the pinned c_t, h_t.
#[test]
fn lstm_forget_gate_pinned_to_zero_is_a_memoryless_forward() {
    let (m, p) = model(RnnSpec::stacked(CellKind::Lstm, 6, 3, 1, false), 4, 11);
    let tokens = [1u32, 4, 0, 5, 2];
    let pin = GatePin {
        layer: 0,
        direction: 0,
        gate: 1,
        step: None,
        value: 0.0,
    };
    let pinned = m.trace_pinned(&p, &tokens, &[pin]).unwrap();

    let l = &m.layout;
    let (w_ih, w_hh) = (
        view(l, &p, "rnn.weight_ih_l0"),
        view(l, &p, "rnn.weight_hh_l0"),
    );
    let (b_ih, b_hh) = (view(l, &p, "rnn.bias_ih_l0"), view(l, &p, "rnn.bias_hh_l0"));
    let (hs, vocab) = (3, 6);
    let mut h = vec![0.0f32; hs];
    let (mut all_h, mut all_c): (Vec<f32>, Vec<f32>) = (Vec::new(), Vec::new());
    for &tok in &tokens {
        let gh = matvec(w_hh, &h);
        let pre: Vec<f32> = (0..4 * hs)
            .map(|r| w_ih[r * vocab + tok as usize] + b_ih[r] + gh[r] + b_hh[r])
            .collect();
        let c: Vec<f32> = (0..hs)
            .map(|j| sigmoid(pre[j]) * pre[2 * hs + j].tanh())
            .collect();
        h = (0..hs)
            .map(|j| sigmoid(pre[3 * hs + j]) * c[j].tanh())
            .collect();
        all_h.extend(&h);
        all_c.extend(&c);
    }
    let d = &pinned.directions[0];
    Tol::TWO_PATHS.assert("h", &d.h, &all_h);
    Tol::TWO_PATHS.assert("c", d.c.as_ref().unwrap(), &all_c);
    let gates = d.gates.as_ref().unwrap();
    for t in 0..tokens.len() {
        assert!(
            gates[t * 4 * hs + hs..][..hs].iter().all(|&f| f == 0.0),
            "f = 0 at step {t}"
        );
    }
    Tol::TWO_PATHS.assert("probabilities", &pinned.probabilities, &head(l, &p, &h));
    let free = m.trace(&p, &tokens).unwrap();
    assert!(
        free.probabilities
            .iter()
            .zip(&pinned.probabilities)
            .any(|(a, b)| (a - b).abs() > 1e-3),
        "the pin changes the prediction"
    );
}

/// With hidden_size 1 a pin can equal the gate's own value: pinning it changes nothing, bit
/// for bit (LSTM f at one step, GRU z at one step).
#[test]
fn pin_at_the_natural_value_changes_nothing() {
    for (cell, gate) in [(CellKind::Lstm, 1), (CellKind::Gru, 1), (CellKind::Gru, 0)] {
        let (m, p) = model(RnnSpec::stacked(cell, 5, 1, 1, false), 3, 3);
        let tokens = [2u32, 0, 4, 1];
        let free = m.trace(&p, &tokens).unwrap();
        let g = cell.gates();
        let step = 2;
        let natural = free.directions[0].gates.as_ref().unwrap()[step * g + gate];
        let pin = GatePin {
            layer: 0,
            direction: 0,
            gate,
            step: Some(step),
            value: natural,
        };
        assert_eq!(
            m.trace_pinned(&p, &tokens, &[pin]).unwrap(),
            free,
            "{cell:?} gate {gate}"
        );
        let moved = GatePin {
            value: 1.0 - natural,
            ..pin
        };
        assert_ne!(m.trace_pinned(&p, &tokens, &[moved]).unwrap(), free);
    }
}

/// GRU: z pinned to 1 at step t copies the state (h_t = h_{t−1}); z pinned to 0 everywhere
/// gives h_t = n_t.
#[test]
fn gru_update_gate_pins() {
    let (m, p) = model(RnnSpec::stacked(CellKind::Gru, 5, 4, 1, false), 3, 8);
    let tokens = [3u32, 1, 4, 0, 2];
    let hs = 4;
    let keep = GatePin {
        layer: 0,
        direction: 0,
        gate: 1,
        step: Some(3),
        value: 1.0,
    };
    let tr = m.trace_pinned(&p, &tokens, &[keep]).unwrap();
    let h = &tr.directions[0].h;
    assert_eq!(&h[3 * hs..4 * hs], &h[2 * hs..3 * hs], "z = 1 keeps h_2");
    let free = m.trace(&p, &tokens).unwrap();
    assert_eq!(
        &free.directions[0].h[..3 * hs],
        &h[..3 * hs],
        "earlier steps unchanged"
    );
    assert_ne!(&free.directions[0].h[3 * hs..4 * hs], &h[3 * hs..4 * hs]);

    let forget = GatePin {
        step: None,
        value: 0.0,
        ..keep
    };
    let tr = m.trace_pinned(&p, &tokens, &[forget]).unwrap();
    let d = &tr.directions[0];
    let gates = d.gates.as_ref().unwrap();
    for t in 0..tokens.len() {
        assert_eq!(
            &d.h[t * hs..][..hs],
            &gates[t * 3 * hs + 2 * hs..][..hs],
            "h_{t} = n_{t}"
        );
    }
}

/// Pins on a 2-layer bidirectional LSTM reach the chosen (layer, direction) only.
#[test]
fn pins_address_one_layer_and_direction() {
    let (m, p) = model(RnnSpec::stacked(CellKind::Lstm, 5, 3, 2, true), 3, 4);
    let tokens = [1u32, 2, 3];
    let pin = GatePin {
        layer: 1,
        direction: 1,
        gate: 3,
        step: Some(0),
        value: 0.25,
    };
    let free = m.trace(&p, &tokens).unwrap();
    let tr = m.trace_pinned(&p, &tokens, &[pin]).unwrap();
    for (a, b) in free.directions.iter().zip(&tr.directions) {
        if (a.layer, a.direction) == (1, 1) {
            let o = &b.gates.as_ref().unwrap()[9..12];
            assert_eq!(o, &[0.25; 3], "o gate of step 0 pinned");
            assert_ne!(a.h, b.h);
        } else {
            assert_eq!(
                a, b,
                "layer {} direction {} untouched",
                a.layer, a.direction
            );
        }
    }
}

#[test]
fn bad_pins_are_errors() {
    let pin = GatePin {
        layer: 0,
        direction: 0,
        gate: 0,
        step: None,
        value: 0.5,
    };
    let (rnn, prnn) = model(RnnSpec::stacked(CellKind::Rnn, 5, 3, 1, false), 3, 1);
    let err = rnn.trace_pinned(&prnn, &[1, 2], &[pin]).unwrap_err();
    assert!(matches!(err, RnnError::InvalidPin(_)), "{err}");
    assert!(err.to_string().contains("no gates"), "{err}");
    assert!(rnn.trace_pinned(&prnn, &[1, 2], &[]).is_ok());

    let (m, p) = model(RnnSpec::stacked(CellKind::Gru, 5, 3, 1, false), 3, 1);
    let bad = [
        (GatePin { gate: 3, ..pin }, "gate 3"),
        (GatePin { layer: 1, ..pin }, "layer 1"),
        (
            GatePin {
                direction: 1,
                ..pin
            },
            "direction 1",
        ),
        (
            GatePin {
                step: Some(2),
                ..pin
            },
            "step 2",
        ),
        (
            GatePin {
                value: f32::NAN,
                ..pin
            },
            "finite",
        ),
    ];
    for (pin, want) in bad {
        let err = m.trace_pinned(&p, &[1, 2], &[pin]).unwrap_err();
        assert!(
            matches!(&err, RnnError::InvalidPin(msg) if msg.contains(want)),
            "{pin:?}: {err}"
        );
    }
    assert!(m
        .trace_pinned(
            &p,
            &[1, 2],
            &[GatePin {
                step: Some(1),
                ..pin
            }]
        )
        .is_ok());
    assert_eq!(
        m.trace_pinned(&p, &[], &[]).unwrap_err(),
        RnnError::EmptySequence
    );
    assert!(matches!(
        m.trace_pinned(&p, &[9], &[]).unwrap_err(),
        RnnError::TokenOutOfRange { token: 9, .. }
    ));
}

fn batch(names: &[&[u32]], labels: &[u32], seq_len: usize) -> SeqBatch {
    crate::common::padded_batch(names, labels.to_vec(), seq_len)
}

/// Cross-entropy of one name as a function of the hidden state h_t after step t (one layer,
/// one direction): the rest of the name is run by a separate `RnnModule` from h0 = h_t.
fn ce_from_state(
    m: &SeqModel,
    p: &[f32],
    name: &[u32],
    t: usize,
    h_t: &[f32],
    label: usize,
) -> f64 {
    let hs = m.spec.hidden_size;
    let vocab = m.spec.input_size;
    let h_last = if t + 1 == name.len() {
        h_t.to_vec()
    } else {
        let rest = &name[t + 1..];
        let mut x = vec![0.0f32; rest.len() * vocab];
        for (i, &s) in rest.iter().enumerate() {
            x[i * vocab + s as usize] = 1.0;
        }
        let module = RnnModule::new(m.spec, &m.layout, "rnn.");
        let out = module
            .forward(
                p,
                TensorRef::new(&[rest.len(), 1, vocab], &x),
                false,
                None,
                Some(TensorRef::new(&[1, 1, hs], h_t)),
                None,
            )
            .unwrap();
        out.h_n
    };
    let probs = head(&m.layout, p, &h_last);
    -(probs[label] as f64).ln()
}

/// grad_flow against central finite differences of the loss with respect to h_t, the loss
/// being recomputed from h_t by a separate module run: ‖∂L/∂h_t‖ for L = mean CE over the
/// batch, averaged over the names that have step t = len − 1 − k. A step no name has is 0.
#[test]
fn grad_flow_matches_finite_differences() {
    for cell in [CellKind::Gru, CellKind::Rnn] {
        let (m, p) = model(RnnSpec::stacked(cell, 6, 4, 1, false), 3, 21);
        let names: [&[u32]; 3] = [&[1, 4, 2, 5], &[3, 0], &[5, 5, 1]];
        let labels = [2u32, 0, 1];
        let b = batch(&names, &labels, 5);
        let flow = m.grad_flow(&p, &b);
        assert_eq!(flow.len(), 5);
        assert_eq!(flow[4], 0.0, "no name has 5 steps");
        let hs = 4;
        let mut expected = [0.0f64; 4];
        let mut counts = [0u32; 4];
        for (n, name) in names.iter().enumerate() {
            let trace = m.trace(&p, name).unwrap();
            for t in 0..name.len() {
                let h_t = &trace.directions[0].h[t * hs..][..hs];
                let mut sq = 0.0f64;
                for j in 0..hs {
                    let eps = 1e-2f32;
                    let (mut hp, mut hm) = (h_t.to_vec(), h_t.to_vec());
                    hp[j] += eps;
                    hm[j] -= eps;
                    let g = (ce_from_state(&m, &p, name, t, &hp, labels[n] as usize)
                        - ce_from_state(&m, &p, name, t, &hm, labels[n] as usize))
                        / (2.0 * eps as f64)
                        / names.len() as f64;
                    sq += g * g;
                }
                let k = name.len() - 1 - t;
                expected[k] += sq.sqrt();
                counts[k] += 1;
            }
        }
        for k in 0..4 {
            let e = (expected[k] / counts[k] as f64) as f32;
            assert!(
                (flow[k] - e).abs() <= 2e-3 + 1e-2 * e,
                "{cell:?} k = {k}: grad_flow {} vs finite differences {e}",
                flow[k]
            );
            assert!(flow[k] > 0.0);
        }
    }
}

/// Micro-batches summed through `grad_flow_accumulate` give the whole batch's grad flow, on a
/// stacked bidirectional LSTM; with head=padded the flow has PADDED_LEN entries, all present.
#[test]
fn grad_flow_in_pieces_and_padded() {
    let (m, p) = model(RnnSpec::stacked(CellKind::Lstm, 6, 3, 2, true), 3, 5);
    let names: [&[u32]; 4] = [&[1, 4, 2, 5], &[3, 0], &[5, 5, 1], &[2]];
    let b = batch(&names, &[2, 0, 1, 1], 4);
    let whole = m.grad_flow(&p, &b);
    let mut acc = Default::default();
    for part in [0..1, 1..4] {
        let sub = batch(&names[part.clone()], &[2, 0, 1, 1][part], 4);
        m.grad_flow_accumulate(&p, &sub, 4, &mut acc);
    }
    let mut pieces = acc.means();
    pieces.resize(4, 0.0);
    Tol::TWO_PATHS.assert("pieces", &pieces, &whole);

    let padded = m.clone().with_head(Head::Padded);
    let flow = padded.grad_flow(&p, &b);
    assert_eq!(flow.len(), PADDED_LEN);
    assert!(flow.iter().all(|&g| g > 0.0 && g.is_finite()), "{flow:?}");
}

/// head=padded by hand on a tanh RNN: a 2-letter name is read after 8 steps of zero input
/// (h = tanh(b_ih + W_hh h + b_hh)), the output at position 10.
#[test]
fn padded_forward_equals_manual_computation() {
    let (m, p) = model(RnnSpec::stacked(CellKind::Rnn, 5, 3, 1, false), 2, 9);
    let m = m.with_head(Head::Padded);
    let name = [1u32, 3];
    let l = &m.layout;
    let (w_ih, w_hh) = (
        view(l, &p, "rnn.weight_ih_l0"),
        view(l, &p, "rnn.weight_hh_l0"),
    );
    let (b_ih, b_hh) = (view(l, &p, "rnn.bias_ih_l0"), view(l, &p, "rnn.bias_hh_l0"));
    let mut h = vec![0.0f32; 3];
    for t in 0..PADDED_LEN {
        let gh = matvec(w_hh, &h);
        h = (0..3)
            .map(|r| {
                let x = name.get(t).map_or(0.0, |&s| w_ih[r * 5 + s as usize]);
                (x + b_ih[r] + gh[r] + b_hh[r]).tanh()
            })
            .collect();
    }
    let want = head(l, &p, &h);
    Tol::TWO_PATHS.assert("predict", &m.predict(&p, &name).unwrap(), &want);
    let tr = m.trace(&p, &name).unwrap();
    assert_eq!(
        tr.directions[0].h.len(),
        PADDED_LEN * 3,
        "the trace covers 10 steps"
    );
    // The batched forward pads by itself.
    let b = batch(&[&name, &[4, 4, 4]], &[0, 1], 3);
    let fwd = m.forward(&p, &b);
    let lp = softmax(&fwd.outputs[..2]);
    Tol::TWO_PATHS.assert("batched", &lp, &want);
}

/// head=padded truncates to 10 symbols; a name of exactly 10 symbols reads the same output
/// under both heads, a short name does not (padding pollution).
#[test]
fn padded_truncates_and_pollutes() {
    let (m, p) = model(RnnSpec::stacked(CellKind::Gru, 6, 4, 1, false), 3, 2);
    let padded = m.clone().with_head(Head::Padded);
    let long: Vec<u32> = (0..13).map(|i| (i * 5 % 6) as u32).collect();
    assert_eq!(
        padded.predict(&p, &long).unwrap(),
        padded.predict(&p, &long[..10]).unwrap()
    );
    assert_ne!(
        m.predict(&p, &long).unwrap(),
        m.predict(&p, &long[..10]).unwrap()
    );
    assert_eq!(
        padded.predict(&p, &long[..10]).unwrap(),
        m.predict(&p, &long[..10]).unwrap(),
        "exactly 10 symbols: nothing to pad"
    );
    let short = [2u32, 5, 1];
    let (a, b) = (
        m.predict(&p, &short).unwrap(),
        padded.predict(&p, &short).unwrap(),
    );
    assert!(
        a.iter().zip(&b).any(|(x, y)| (x - y).abs() > 1e-3),
        "last {a:?} vs padded {b:?}"
    );
}

/// Training with head=padded equals training an ordinary model whose vocabulary has one
/// extra symbol with an all-zero W_ih column, fed names padded with that symbol: same loss,
/// same gradients (and none for W_ih at padding).
#[test]
fn padded_gradients_equal_an_explicit_zero_symbol() {
    let (m, p) = model(RnnSpec::stacked(CellKind::Lstm, 5, 3, 1, true), 3, 6);
    let padded = m.clone().with_head(Head::Padded);
    let names: [&[u32]; 3] = [
        &[1, 2],
        &[0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1],
        &[4, 4, 3, 3],
    ];
    let b = batch(&names, &[0, 2, 1], 12);
    let (sums, grads) = padded.loss_and_grads(&p, &b);
    let loss = sums.mean_loss();

    let wide = SeqModel::new(RnnSpec::stacked(CellKind::Lstm, 6, 3, 1, true), 3);
    let mut pw = vec![0.0f32; wide.layout.total_len()];
    for e in &m.layout.entries {
        let src = &p[e.range()];
        let dst = wide.layout.get(&e.name).unwrap().range();
        if e.name.contains("weight_ih") {
            for (r, row) in src.chunks(5).enumerate() {
                pw[dst.start + r * 6..][..5].copy_from_slice(row);
            }
        } else {
            pw[dst].copy_from_slice(src);
        }
    }
    let pb = pad_batch(&b);
    assert_eq!((pb.seq_len, &pb.lengths), (PADDED_LEN, &vec![10u32; 3]));
    let mut rows = pb.tokens_batch_first().unwrap();
    assert_eq!(rows[2..10], [PAD_TOKEN; 8]);
    assert_eq!(rows[10..20], names[1][..10]);
    rows.iter_mut()
        .filter(|t| **t == PAD_TOKEN)
        .for_each(|t| *t = 5);
    let pb = SeqBatch::of_batch_first(
        3,
        PADDED_LEN,
        &rows,
        pb.lengths.clone(),
        pb.labels().to_vec(),
    );
    let (sums_w, grads_w) = wide.loss_and_grads(&pw, &pb);
    let loss_w = sums_w.mean_loss();
    assert!((loss - loss_w).abs() < 1e-6, "{loss} vs {loss_w}");
    for e in &m.layout.entries {
        let g = &grads[e.range()];
        let gw = &grads_w[wide.layout.get(&e.name).unwrap().range()];
        if e.name.contains("weight_ih") {
            for (row, row_w) in g.chunks(5).zip(gw.chunks(6)) {
                Tol::TWO_PATHS.assert(&e.name, row, &row_w[..5]);
            }
        } else {
            Tol::TWO_PATHS.assert(&e.name, g, gw);
        }
    }
}
