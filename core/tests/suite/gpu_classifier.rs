//! The WGSL training step of the name classifier, on lavapipe (the PyTorch step fixtures run in
//! `gpu_modules.rs`): against the CPU path (`math::model` + `math::optim::Adam`), over 50 steps of training,
//! and its error paths (bad input, unsupported configurations, a lost device).

use crate::gpu_support;
use crate::tol;

use gpu_support::{block, context, random_batch, random_params, rng};
use tol::Tol;
use unroll_core::gpu::{GpuContext, GpuError, GpuModel, InputKind};
use unroll_core::math::init::init_params;
use unroll_core::math::model::{SeqBatch, SeqModel, Targets};
use unroll_core::math::optim::{clip_grad_norm, Adam, AdamConfig, ClipOutcome};
use unroll_core::math::params::{CellKind, ParamLayout, RnnSpec};
use unroll_core::math::recurrent::SeqData;

/// The `[T, B]` time-major tokens of a batch, to edit.
fn tokens_mut(b: &mut SeqBatch) -> &mut Vec<u32> {
    match &mut b.input {
        SeqData::Tokens(t) => t,
        SeqData::Dense(_) => unreachable!("a token batch"),
    }
}

/// The class targets of a batch, to edit.
fn labels_mut(b: &mut SeqBatch) -> &mut Vec<u32> {
    match &mut b.targets {
        Targets::Classes(c) => c,
        Targets::Values(_) => unreachable!("class targets"),
    }
}

const VOCAB: usize = 57;
const CLASSES: usize = 18;

/// A one-hot input model of `spec` with a [`CLASSES`]-way head on the GPU, for batches of at most
/// `batch` sequences of at most `seq_len` steps.
fn one_hot_model(
    ctx: &GpuContext,
    spec: RnnSpec,
    params: &[f32],
    batch: usize,
    seq_len: usize,
) -> GpuModel {
    GpuModel::new(
        ctx,
        &SeqModel::new(spec, CLASSES),
        InputKind::OneHot,
        params,
        batch,
        seq_len,
    )
    .unwrap()
}

/// A [`CLASSES`]-way classifier of `spec` with the parameters `init_params` gives `seed`.
fn classifier(spec: RnnSpec, seed: u64) -> (SeqModel, Vec<f32>) {
    let model = SeqModel::new(spec, CLASSES);
    let params = init_params(&model.layout, &spec, seed);
    (model, params)
}

/// The CPU path's step on `batch`: mean loss, gradients (`[P]`, the layout's order) and logits
/// (`[B, CLASSES]`).
fn cpu_step(model: &SeqModel, params: &[f32], batch: &SeqBatch) -> (f32, Vec<f32>, Vec<f32>) {
    let (sums, grads) = model.loss_and_grads(params, batch);
    let logits = model.forward(params, batch).outputs;
    (sums.mean_loss() as f32, grads, logits)
}

/// Adam with `lr` and PyTorch's other defaults, for `len` parameters.
fn adam(lr: f32, len: usize) -> Adam {
    Adam::new(
        AdamConfig {
            lr,
            ..AdamConfig::default()
        },
        len,
    )
}

/// One step of `spec` (seeded by `seed`) on a batch of `rows` names of at most `max_len`
/// characters, on a GPU model sized for `gpu_rows` × `gpu_len`, against the CPU path: logits,
/// loss, every gradient and the parameters after Adam agree within |err| ≤ 1e-5 + 1e-4·|ref|
/// (per tensor, named `name` on failure).
fn assert_step_matches_cpu(
    name: &str,
    spec: RnnSpec,
    seed: u64,
    (rows, max_len): (usize, usize),
    (gpu_rows, gpu_len): (usize, usize),
) {
    let ctx = context();
    let (model, params) = classifier(spec, seed);
    let batch = random_batch(&mut rng(seed), rows, max_len, VOCAB, CLASSES);
    let (cpu_loss, cpu_grads, cpu_logits) = cpu_step(&model, &params, &batch);
    let mut cpu_after = params.clone();
    Adam::new(AdamConfig::default(), params.len()).update(&mut cpu_after, &cpu_grads);

    let mut gpu = one_hot_model(&ctx, spec, &params, gpu_rows, gpu_len);
    let logits = block(gpu.evaluate(&batch)).unwrap();
    gpu.train_step(&batch, AdamConfig::default().lr).unwrap();
    let results = block(gpu.drain_results()).unwrap();
    let grads = block(gpu.read_grads()).unwrap();
    let after = block(gpu.read_params()).unwrap();

    Tol::FIXTURE.assert(&format!("{name} logits"), &logits, &cpu_logits);
    Tol::FIXTURE.assert(&format!("{name} loss"), &[results[0].loss], &[cpu_loss]);
    for e in &model.layout.entries {
        Tol::FIXTURE.assert(
            &format!("{name} grad {}", e.name),
            &grads[e.range()],
            &cpu_grads[e.range()],
        );
        Tol::FIXTURE.assert(
            &format!("{name} after Adam {}", e.name),
            &after[e.range()],
            &cpu_after[e.range()],
        );
    }
}

#[test]
/// One step at hidden 128, batch 64, variable lengths 1..=19.
fn lstm_gpu_step_matches_cpu_path_at_hidden_128() {
    at_hidden_128(CellKind::Lstm, 3);
}

#[test]
fn gru_gpu_step_matches_cpu_path_at_hidden_128() {
    at_hidden_128(CellKind::Gru, 4);
}

#[test]
fn rnn_gpu_step_matches_cpu_path_at_hidden_128() {
    at_hidden_128(CellKind::Rnn, 5);
}

/// [`assert_step_matches_cpu`] at hidden 128, batch 64, lengths 1..=19.
fn at_hidden_128(cell: CellKind, seed: u64) {
    let spec = RnnSpec::new(cell, VOCAB, 128);
    assert_step_matches_cpu(cell.as_str(), spec, seed, (64, 19), (64, 19));
}

/// Stacked and bidirectional classifiers (layer 1 reads layer 0's `[T, B, 2H]` output; the
/// reverse direction starts at each name's own last character): one step at hidden 32 with
/// variable lengths matches the CPU path in logits, loss, gradients and parameters after Adam.
fn deep_gpu_step_matches_cpu(cell: CellKind, num_layers: usize, bidirectional: bool, seed: u64) {
    let spec = RnnSpec {
        num_layers,
        bidirectional,
        ..RnnSpec::new(cell, VOCAB, 32)
    };
    let name = format!("{} L{num_layers} bi={bidirectional}", cell.as_str());
    assert_step_matches_cpu(&name, spec, seed, (24, 11), (32, 16));
}

#[test]
fn bidirectional_two_layer_lstm_step_matches_cpu_path() {
    deep_gpu_step_matches_cpu(CellKind::Lstm, 2, true, 6);
}

#[test]
fn bidirectional_gru_and_stacked_rnn_steps_match_cpu_path() {
    deep_gpu_step_matches_cpu(CellKind::Gru, 1, true, 7);
    deep_gpu_step_matches_cpu(CellKind::Rnn, 3, false, 8);
}

/// The first 50 training steps (LSTM, hidden 128, batch 64, lr 1e-3, same seed and batches)
/// give the same losses on the GPU and on the CPU path within 1e-3, and the same correct counts
/// up to names whose top two logits are within rounding.
#[test]
fn fifty_gpu_steps_track_the_cpu_losses() {
    let ctx = context();
    let spec = RnnSpec::new(CellKind::Lstm, VOCAB, 128);
    let (model, params) = classifier(spec, 0);
    let mut r = rng(50);
    let batches: Vec<SeqBatch> = (0..50)
        .map(|_| random_batch(&mut r, 64, 12, VOCAB, CLASSES))
        .collect();

    let mut gpu = one_hot_model(&ctx, spec, &params, 64, 12);
    for b in &batches {
        gpu.train_step(b, 1e-3).unwrap();
    }
    let gpu_results = block(gpu.drain_results()).unwrap();
    assert_eq!(gpu_results.len(), 50);

    let mut cpu_params = params.clone();
    let mut adam = Adam::new(AdamConfig::default(), params.len());
    let mut cpu_losses = Vec::new();
    for b in &batches {
        let (loss, grads, _) = cpu_step(&model, &cpu_params, b);
        adam.update(&mut cpu_params, &grads);
        cpu_losses.push(loss);
    }
    let gpu_losses: Vec<f32> = gpu_results.iter().map(|s| s.loss).collect();
    Tol::TRAINED_LOSSES.assert("losses over 50 steps", &gpu_losses, &cpu_losses);
    // Training does something: random labels are memorised a little, the loss starts near ln 18.
    assert!(
        (gpu_losses[0] - (CLASSES as f32).ln()).abs() < 0.3,
        "first loss {}",
        gpu_losses[0]
    );
    assert_eq!(gpu.step_count(), 50);
    let gpu_after = block(gpu.read_params()).unwrap();
    Tol::TRAINED_PARAMS.assert("params after 50 steps", &gpu_after, &cpu_params);
}

/// Results come back in step order across readback chunks and drains.
#[test]
fn step_results_arrive_in_order_across_chunks() {
    let ctx = context();
    let spec = RnnSpec::new(CellKind::Lstm, VOCAB, 16);
    let (model, params) = classifier(spec, 1);
    let mut r = rng(51);
    let batches: Vec<SeqBatch> = (0..11)
        .map(|i| random_batch(&mut r, 1 + i * 3, 1 + i, VOCAB, CLASSES))
        .collect();
    let run = |chunk: usize, drain_after: usize| {
        let mut gpu = one_hot_model(&ctx, spec, &params, 64, 16);
        gpu.set_readback_chunk(chunk);
        let mut out = Vec::new();
        for (i, b) in batches.iter().enumerate() {
            gpu.train_step(b, 1e-2).unwrap();
            if i + 1 == drain_after {
                out.extend(block(gpu.drain_results()).unwrap());
            }
        }
        out.extend(block(gpu.drain_results()).unwrap());
        assert!(
            block(gpu.drain_results()).unwrap().is_empty(),
            "a second drain has nothing left"
        );
        out
    };
    let one_by_one = run(1, 0);
    assert_eq!(one_by_one.len(), 11);
    assert_eq!(run(4, 6), one_by_one);
    assert_eq!(run(16, 3), one_by_one);
    // The CPU path, trained on the same batches of changing size and length, agrees on every
    // loss (a smaller batch must not leave stale state behind for a larger one).
    let mut cpu_params = params.clone();
    let mut adam = adam(1e-2, params.len());
    for (i, b) in batches.iter().enumerate() {
        let (loss, grads, logits) = cpu_step(&model, &cpu_params, b);
        adam.update(&mut cpu_params, &grads);
        Tol::GPU_STEP_LOSS.assert(&format!("loss of step {i}"), &[one_by_one[i].loss], &[loss]);
        if i == 0 {
            let arg = (0..CLASSES).fold(0, |m, k| if logits[k] > logits[m] { k } else { m });
            assert_eq!(one_by_one[0].correct, (arg as u32 == b.labels()[0]) as u32);
        }
    }
}

/// A name's logits do not depend on the batch it is evaluated in (padding is never read):
/// alone vs. in a batch padded to a longer length, ≤ 1e-5, for every cell.
#[test]
fn logits_are_padding_invariant() {
    let ctx = context();
    for cell in CellKind::ALL {
        let spec = RnnSpec::new(cell, VOCAB, 24);
        let (model, params) = classifier(spec, 2);
        let mut gpu = one_hot_model(&ctx, spec, &params, 8, 20);
        let name = [3u32, 17, 40, 5];
        let alone = SeqBatch::of_batch_first(1, 4, &name, vec![4], vec![0]);
        let mut padded = random_batch(&mut rng(52), 6, 20, VOCAB, CLASSES);
        // Sequence 2 (time-major: every 6th token from 2) becomes the name, then padding.
        for t in 0..20 {
            tokens_mut(&mut padded)[t * 6 + 2] = name.get(t).copied().unwrap_or(0);
        }
        padded.lengths[2] = 4;
        let l_alone = block(gpu.evaluate(&alone)).unwrap();
        let l_padded = block(gpu.evaluate(&padded)).unwrap();
        Tol::PACKED.assert(
            &format!("{cell:?} padded vs alone"),
            &l_padded[2 * CLASSES..3 * CLASSES],
            &l_alone,
        );
        let cpu = model.predict(&params, &name).unwrap();
        let gpu_probs = unroll_core::math::loss::softmax(&l_alone);
        Tol::FIXTURE.assert(
            &format!("{cell:?} probabilities vs CPU predict"),
            &gpu_probs,
            &cpu,
        );
    }
}

/// Batches that do not fit are refused with a message naming the problem, before anything is
/// submitted; a one-hot width the GPU path lacks (> 64) is refused as unsupported.
#[test]
fn bad_input_is_refused_with_clear_errors() {
    let ctx = context();
    let spec = RnnSpec::new(CellKind::Lstm, VOCAB, 8);
    let (_, params) = classifier(spec, 0);
    let mut gpu = one_hot_model(&ctx, spec, &params, 4, 6);
    let ok = random_batch(&mut rng(53), 4, 6, VOCAB, CLASSES);
    let expect_invalid = |r: Result<(), GpuError>, needle: &str| match r {
        Err(GpuError::InvalidInput(m)) => {
            assert!(m.contains(needle), "message {m:?} lacks {needle:?}")
        }
        other => panic!("expected InvalidInput({needle}), got {other:?}"),
    };
    expect_invalid(
        gpu.train_step(&random_batch(&mut rng(54), 5, 6, VOCAB, CLASSES), 1e-3),
        "exceeds",
    );
    expect_invalid(
        gpu.train_step(&random_batch(&mut rng(54), 4, 7, VOCAB, CLASSES), 1e-3),
        "exceeds",
    );
    let mut bad = ok.clone();
    tokens_mut(&mut bad)[0] = VOCAB as u32;
    expect_invalid(gpu.train_step(&bad, 1e-3), "symbol 57");
    let mut bad = ok.clone();
    labels_mut(&mut bad)[1] = CLASSES as u32;
    expect_invalid(gpu.train_step(&bad, 1e-3), "label 18");
    let mut bad = ok.clone();
    bad.lengths[3] = 0;
    expect_invalid(gpu.train_step(&bad, 1e-3), "lengths[3] = 0");
    let mut bad = ok.clone();
    tokens_mut(&mut bad).pop();
    expect_invalid(gpu.train_step(&bad, 1e-3), "input/lengths/targets");
    assert_eq!(gpu.step_count(), 0, "refused batches do not count as steps");
    gpu.train_step(&ok, 1e-3).unwrap();
    assert_eq!(
        block(gpu.drain_results()).unwrap().len(),
        1,
        "only the good step produced a result"
    );

    match GpuModel::new(
        &ctx,
        &SeqModel::new(spec, CLASSES),
        InputKind::OneHot,
        &params[1..],
        4,
        6,
    ) {
        Err(GpuError::InvalidInput(m)) => assert!(
            m.contains(&format!("expected {} parameters", params.len())),
            "{m}"
        ),
        other => panic!("wrong parameter count accepted: {:?}", other.map(|_| ())),
    }
    // The UI's largest training configuration at seq_len 512 needs 1 GiB per gate buffer:
    // refused up front, naming the buffer and the device's limit.
    let big = RnnSpec::new(CellKind::Lstm, VOCAB, 256);
    let big_params = init_params(&SeqModel::new(big, CLASSES).layout, &big, 0);
    match GpuModel::new(
        &ctx,
        &SeqModel::new(big, CLASSES),
        InputKind::OneHot,
        &big_params,
        512,
        512,
    ) {
        Err(GpuError::TooLarge(m)) => {
            assert!(m.contains("xproj") && m.contains("per binding"), "{m}")
        }
        other => panic!("expected TooLarge, got {:?}", other.map(|_| ())),
    }
    let wide = RnnSpec::new(CellKind::Lstm, 65, 8);
    let wide_params = init_params(&SeqModel::new(wide, CLASSES).layout, &wide, 0);
    assert!(matches!(
        GpuModel::new(
            &ctx,
            &SeqModel::new(wide, CLASSES),
            InputKind::OneHot,
            &wide_params,
            4,
            6
        ),
        Err(GpuError::Unsupported(_))
    ));
}

/// A destroyed device (as after a driver reset) surfaces as `GpuError::DeviceLost` from the
/// next calls — never a panic.
#[test]
fn device_loss_surfaces_as_an_error() {
    let ctx = context();
    let spec = RnnSpec::new(CellKind::Lstm, VOCAB, 16);
    let (_, params) = classifier(spec, 0);
    let mut gpu = one_hot_model(&ctx, spec, &params, 8, 8);
    let batch = random_batch(&mut rng(55), 8, 8, VOCAB, CLASSES);
    gpu.train_step(&batch, 1e-3).unwrap();
    assert_eq!(block(gpu.drain_results()).unwrap().len(), 1);
    gpu.destroy_device();
    let step = gpu.train_step(&batch, 1e-3);
    assert!(
        matches!(step, Err(GpuError::DeviceLost(_))),
        "train_step after loss: {step:?}"
    );
    assert!(matches!(
        block(gpu.drain_results()),
        Err(GpuError::DeviceLost(_))
    ));
    assert!(matches!(
        block(gpu.read_params()),
        Err(GpuError::DeviceLost(_))
    ));
    assert!(matches!(
        block(gpu.evaluate(&batch)),
        Err(GpuError::DeviceLost(_))
    ));
    assert!(ctx.lost_reason().is_some());
}

/// Global-norm clipping on the GPU follows the CPU trainer (`clip_grad_norm` then Adam): five
/// steps with max_norm 0.1 (which clips) give the same losses, norms and parameters.
#[test]
fn clipped_gpu_steps_match_cpu_clipping() {
    let ctx = context();
    let spec = RnnSpec::new(CellKind::Lstm, VOCAB, 32);
    let (model, params) = classifier(spec, 9);
    let mut r = rng(60);
    let batches: Vec<SeqBatch> = (0..5)
        .map(|_| random_batch(&mut r, 16, 9, VOCAB, CLASSES))
        .collect();
    let mut gpu = one_hot_model(&ctx, spec, &params, 16, 9);
    for b in &batches {
        gpu.train_step_clipped(b, 1e-2, 0.1).unwrap();
    }
    let results = block(gpu.drain_results()).unwrap();
    let mut cpu_params = params.clone();
    let mut adam = adam(1e-2, params.len());
    for (i, b) in batches.iter().enumerate() {
        let (loss, mut grads, _) = cpu_step(&model, &cpu_params, b);
        let outcome = clip_grad_norm(&mut grads, 0.1);
        let norm = match outcome {
            ClipOutcome::Clipped { norm, .. } => norm,
            other => panic!("step {i} should clip: {other:?}"),
        };
        adam.update(&mut cpu_params, &grads);
        Tol::FIXTURE.assert(&format!("loss {i}"), &[results[i].loss], &[loss]);
        Tol::FIXTURE.assert(
            &format!("grad norm {i}"),
            &[results[i].grad_norm],
            &[norm as f32],
        );
        assert!(!results[i].skipped);
    }
    Tol::FIXTURE.assert(
        "params after 5 clipped steps",
        &block(gpu.read_params()).unwrap(),
        &cpu_params,
    );
}

/// A non-finite gradient with clipping on skips the update: parameters stay bit for bit and the
/// result says `skipped` (the kernel test checks that Adam's step count stays too). Without
/// clipping no norm is reported, and a clean first step matches the CPU path.
#[test]
fn non_finite_gradient_skips_the_step() {
    let ctx = context();
    let spec = RnnSpec::new(CellKind::Gru, VOCAB, 16);
    let (model, params) = classifier(spec, 10);
    let batch = random_batch(&mut rng(61), 8, 6, VOCAB, CLASSES);
    let mut poisoned = params.clone();
    poisoned[model.layout.get("fc.bias").unwrap().offset] = f32::NAN;
    let mut gpu = one_hot_model(&ctx, spec, &poisoned, 8, 6);
    gpu.train_step_clipped(&batch, 1e-3, 1.0).unwrap();
    let r = block(gpu.drain_results()).unwrap();
    assert!(r[0].skipped, "{:?}", r[0]);
    assert!(r[0].loss.is_nan());
    assert!(!r[0].grad_norm.is_finite());
    let after: Vec<u32> = block(gpu.read_params())
        .unwrap()
        .iter()
        .map(|p| p.to_bits())
        .collect();
    assert_eq!(
        after,
        poisoned.iter().map(|p| p.to_bits()).collect::<Vec<_>>(),
        "weights untouched"
    );

    // Without clipping nothing is skipped, and the norm is reported.
    let mut gpu_clean = one_hot_model(&ctx, spec, &params, 8, 6);
    gpu_clean.train_step(&batch, 1e-3).unwrap();
    let clean = block(gpu_clean.drain_results()).unwrap();
    assert!(!clean[0].skipped);
    let (_, grads, _) = cpu_step(&model, &params, &batch);
    let norm = grads
        .iter()
        .map(|&g| f64::from(g) * f64::from(g))
        .sum::<f64>()
        .sqrt();
    Tol::FIXTURE.assert(
        "norm without clipping",
        &[clean[0].grad_norm],
        &[norm as f32],
    );
    let mut cpu_after = params.clone();
    Adam::new(AdamConfig::default(), params.len()).update(&mut cpu_after, &grads);
    Tol::FIXTURE.assert(
        "first clean step",
        &block(gpu_clean.read_params()).unwrap(),
        &cpu_after,
    );
}

/// One dispatch per layer and direction runs the whole time loop: a training step records the
/// same number of compute dispatches at the names' mean length 7 and at the delay task's 96,
/// at most 16 for one layer and direction, for every cell.
#[test]
fn dispatches_per_step_do_not_grow_with_the_length() {
    let ctx = context();
    let mut r = rng(31);
    for cell in CellKind::ALL {
        let spec = RnnSpec::new(cell, 57, 16);
        let layout = ParamLayout::classifier(&spec, 18);
        let params = random_params(&mut r, layout.total_len(), 16);
        let mut gpu = GpuModel::new(
            &ctx,
            &SeqModel::new(spec, 18),
            InputKind::OneHot,
            &params,
            8,
            96,
        )
        .unwrap();
        let mut counts = Vec::new();
        for t in [7, 96] {
            let batch = random_batch(&mut r, 8, t, 57, 18);
            let before = ctx.counts();
            gpu.train_step(&batch, 1e-3).unwrap();
            counts.push(ctx.counts().since(&before).dispatches);
            let results = block(gpu.drain_results()).unwrap();
            assert!(results[0].loss.is_finite(), "{cell:?} T={t}");
        }
        assert_eq!(
            counts[0], counts[1],
            "{cell:?}: dispatches at T = 7 and T = 96"
        );
        assert!(
            counts[0] <= 16,
            "{cell:?}: {} dispatches per step",
            counts[0]
        );
        // Input projection, W_hh packing, forward loop, gather, head, dW_fc, d_features, scatter,
        // backward loop, dW_hh, db_hh, dW_ih + db_ih, clipping, Adam.
        assert_eq!(counts[0], 14, "{cell:?}");
        // Each further layer or direction adds a fixed number, not one per step either.
        let deep = RnnSpec {
            num_layers: 2,
            bidirectional: true,
            ..spec
        };
        let layout = ParamLayout::classifier(&deep, 18);
        let params = random_params(&mut r, layout.total_len(), 16);
        let mut gpu = GpuModel::new(
            &ctx,
            &SeqModel::new(deep, 18),
            InputKind::OneHot,
            &params,
            8,
            96,
        )
        .unwrap();
        let mut deep_counts = Vec::new();
        for t in [7, 96] {
            let batch = random_batch(&mut r, 8, t, 57, 18);
            let before = ctx.counts();
            gpu.train_step(&batch, 1e-3).unwrap();
            deep_counts.push(ctx.counts().since(&before).dispatches);
            block(gpu.drain_results()).unwrap();
        }
        assert_eq!(
            deep_counts[0], deep_counts[1],
            "{cell:?} 2 layers × 2 directions"
        );
        // The reverse direction of layer 0 adds 7 (one-hot input), each direction of layer 1
        // adds 10 (dense input: its projection matmul, dW_ih, db_ih and the input gradient).
        assert_eq!(deep_counts[0], 14 + 7 + 2 * 10, "{cell:?}");
    }
}

/// A second model on one device reuses the first one's pipelines (none compiled again) and
/// computes the same step bit for bit; a model with fewer rows a workgroup compiles only its
/// two cell kernels again, with their smaller workgroup memory.
#[test]
fn models_on_one_device_share_their_pipelines() {
    let ctx = context();
    let spec = RnnSpec::new(CellKind::Lstm, VOCAB, 8);
    let (_, params) = classifier(spec, 11);
    let batch = random_batch(&mut rng(11), 6, 5, VOCAB, CLASSES);
    assert_eq!(ctx.pipelines_built(), 0);
    let step = |gpu: &mut GpuModel| {
        gpu.train_step(&batch, AdamConfig::default().lr).unwrap();
        block(gpu.drain_results()).unwrap()[0].loss
    };
    let mut first = one_hot_model(&ctx, spec, &params, 6, 5);
    let built = ctx.pipelines_built();
    assert!(built >= 10, "{built} pipelines for one model");
    let mut second = one_hot_model(&ctx, spec, &params, 6, 5);
    assert_eq!(
        ctx.pipelines_built(),
        built,
        "the second model compiled pipelines"
    );
    assert_eq!(step(&mut first).to_bits(), step(&mut second).to_bits());
    let _smaller = one_hot_model(&ctx, spec, &params, 3, 5);
    assert_eq!(ctx.pipelines_built(), built + 2);
}
