//! The WGSL training step of the name classifier against PyTorch (`clf_lstm_step.json`) and
//! against the CPU path.

mod gpu_support;

use std::path::Path;

use gpu_support::{assert_fixture_close, block, context};
use serde_json::Value;
use unroll::gpu::GpuClassifier;
use unroll::math::classifier::ClassifierBatch;
use unroll::math::params::{CellKind, ParamLayout, RnnSpec};

fn fixture(name: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn tensor(v: &Value) -> Vec<f32> {
    v["data"].as_array().unwrap().iter().map(|x| x.as_f64().unwrap() as f32).collect()
}

fn flat(layout: &ParamLayout, tensors: &Value) -> Vec<f32> {
    let mut out = vec![0.0; layout.total_len()];
    for e in &layout.entries {
        let t = tensor(&tensors[&e.name]);
        assert_eq!(t.len(), e.len(), "{}", e.name);
        out[e.range()].copy_from_slice(&t);
    }
    out
}

fn assert_params_close(layout: &ParamLayout, what: &str, actual: &[f32], expected: &[f32]) {
    for e in &layout.entries {
        assert_fixture_close(&format!("{what} {}", e.name), &actual[e.range()], &expected[e.range()]);
    }
}

/// One training step of the classifier recipe computed with PyTorch (float64): logits, loss,
/// every gradient and the parameters after one Adam step (lr 1e-3).
#[test]
fn lstm_step_matches_pytorch_fixture() {
    check_step_fixture("clf_lstm_step.json", CellKind::Lstm);
}

/// The same recipe with `nn.GRU` (gates r, z, n; b_hn inside the reset product).
#[test]
fn gru_step_matches_pytorch_fixture() {
    check_step_fixture("clf_gru_step.json", CellKind::Gru);
}

fn check_step_fixture(name: &str, cell: CellKind) {
    let f = fixture(name);
    assert_eq!(f["cell"].as_str(), Some(cell.as_str()));
    let usize_of = |k: &str| f[k].as_u64().unwrap() as usize;
    let (vocab, hidden, classes, batch, seq_len) = (usize_of("vocab_size"), usize_of("hidden_size"), usize_of("num_classes"), usize_of("batch"), usize_of("seq_len"));
    let spec = RnnSpec::new(cell, vocab, hidden);
    let layout = ParamLayout::classifier(&spec, classes);
    let params = flat(&layout, &f["params_before"]);
    let lengths: Vec<u32> = f["lengths"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
    let mut tokens = Vec::new();
    for (b, row) in f["input_indices"].as_array().unwrap().iter().enumerate() {
        for (t, v) in row.as_array().unwrap().iter().enumerate() {
            // Padding positions are never read; fill them with 0 as the batcher does.
            tokens.push(if t < lengths[b] as usize { v.as_u64().unwrap() as u32 } else { 0 });
        }
    }
    let labels: Vec<u32> = f["targets"].as_array().unwrap().iter().map(|v| v.as_u64().unwrap() as u32).collect();
    let data = ClassifierBatch { batch, seq_len, tokens, lengths, labels };

    let ctx = context();
    let mut gpu = GpuClassifier::new(&ctx, spec, classes, &params, batch, seq_len).unwrap();
    let logits = block(gpu.evaluate(&data)).unwrap();
    assert_fixture_close("logits", &logits, &tensor(&f["logits"]));

    gpu.train_step(&data, 1e-3).unwrap();
    let results = block(gpu.drain_results()).unwrap();
    assert_eq!(results.len(), 1);
    let loss = f["loss"].as_f64().unwrap() as f32;
    assert_fixture_close("loss", &[results[0].loss], &[loss]);
    let grads = block(gpu.read_grads()).unwrap();
    assert_params_close(&layout, "grad", &grads, &flat(&layout, &f["grads"]));
    let after = block(gpu.read_params()).unwrap();
    assert_params_close(&layout, "after Adam", &after, &flat(&layout, &f["params_after_one_adam_step"]));
    // The correct count agrees with the fixture's logits.
    let ref_logits = tensor(&f["logits"]);
    let correct = (0..batch)
        .filter(|&b| {
            let row = &ref_logits[b * classes..(b + 1) * classes];
            let arg = (0..classes).fold(0, |m, c| if row[c] > row[m] { c } else { m });
            arg as u32 == data.labels[b]
        })
        .count() as u32;
    assert_eq!(results[0].correct, correct);
}
