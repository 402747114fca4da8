//! Every PyTorch module fixture (`rnn_*`, `lstm_*`, `gru_*`: layers, bidirectional,
//! batch_first, h0/c0, packed lengths) and every classifier step fixture through the WGSL
//! kernels on lavapipe: output, h_n, c_n, every parameter gradient, the input, h0 and c0
//! gradients, |err| ≤ 1e-5 + 1e-4·|ref| (core/tests/suite/common's suite; `UNROLL_FIXTURES` adds a folder).

use crate::common;
use crate::gpu_support;
use crate::tol;

use common::{
    run_fixture_suite, BackendError, ClassifierCase, ClassifierResult, ModuleCase, ModuleResult,
};
use gpu_support::{block, context};
use unroll_core::gpu::{GpuClassifier, GpuContext, GpuError, GpuRnnModule, ModuleInputs};
use unroll_core::math::linalg::swap_leading_axes;

fn backend_error(e: GpuError) -> BackendError {
    match e {
        GpuError::Unsupported(m) => BackendError::Unsupported(m),
        other => BackendError::Failed(other.to_string()),
    }
}

/// A module fixture through [`GpuRnnModule`]; `batch_first` tensors are transposed on the host.
fn gpu_module(ctx: &GpuContext, case: &ModuleCase) -> Result<ModuleResult, BackendError> {
    let (t, b) = (case.seq_len, case.batch);
    let (i, dh) = (
        case.spec.input_size,
        case.spec.num_directions() * case.spec.hidden_size,
    );
    let to_time_major = |data: &[f32], width: usize| {
        if case.batch_first {
            swap_leading_axes(data, b, t, width)
        } else {
            data.to_vec()
        }
    };
    let from_time_major = |data: &[f32], width: usize| {
        if case.batch_first {
            swap_leading_axes(data, t, b, width)
        } else {
            data.to_vec()
        }
    };
    let input = to_time_major(&case.input, i);
    let d_output = to_time_major(&case.grad_output, dh);
    let mut module =
        GpuRnnModule::new(ctx, case.spec, &case.params, b, t).map_err(backend_error)?;
    let out = block(module.forward_backward(&ModuleInputs {
        seq_len: t,
        batch: b,
        input: &input,
        lengths: case.lengths.as_deref(),
        h0: case.h0.as_ref().map(|(d, _)| d.as_slice()),
        c0: case.c0.as_ref().map(|(d, _)| d.as_slice()),
        d_output: &d_output,
        d_h_n: Some(&case.grad_h_n),
        d_c_n: case.grad_c_n.as_deref(),
    }))
    .map_err(backend_error)?;
    Ok(ModuleResult {
        output: from_time_major(&out.output, dh),
        h_n: out.h_n,
        c_n: out.c_n,
        param_grads: out.param_grads,
        d_input: from_time_major(&out.d_input, i),
        d_h0: out.d_h0,
        d_c0: out.d_c0,
    })
}

/// A classifier step fixture through [`GpuClassifier`].
fn gpu_classifier_step(
    ctx: &GpuContext,
    case: &ClassifierCase,
) -> Result<ClassifierResult, BackendError> {
    let mut gpu = GpuClassifier::new(
        ctx,
        case.spec,
        case.num_classes,
        &case.params,
        case.batch.batch,
        case.batch.seq_len,
    )
    .map_err(backend_error)?;
    let logits = block(gpu.evaluate(&case.batch)).map_err(backend_error)?;
    gpu.train_step(&case.batch, case.adam.lr)
        .map_err(backend_error)?;
    let results = block(gpu.drain_results()).map_err(backend_error)?;
    if results.len() != 1 {
        return Err(BackendError::Failed(format!(
            "{} step results for one step",
            results.len()
        )));
    }
    Ok(ClassifierResult {
        logits,
        loss: results[0].loss,
        grads: block(gpu.read_grads()).map_err(backend_error)?,
        params_after: block(gpu.read_params()).map_err(backend_error)?,
    })
}

#[test]
fn gpu_kernels_pass_every_pytorch_fixture() {
    let ctx = context();
    let summary = run_fixture_suite(
        "gpu",
        |case| gpu_module(&ctx, case),
        |case| gpu_classifier_step(&ctx, case),
    );
    for required in [
        "lstm_1layer.json",
        "clf_lstm_step.json",
        "gru_2layer_bi.json",
        "lstm_bi_packed.json",
    ] {
        assert!(
            summary.passed.iter().any(|n| n == required),
            "{required} must run and pass: {:?}",
            summary.passed
        );
    }
    summary.assert_ok(&[]);
}

use gpu_support::{random_vec, rng};
use tol::Tol;
use unroll_core::math::params::{CellKind, Nonlinearity, RnnSpec};

/// Runs a one-sample, dense-input module with the loss `Σ output·d_output + Σ h_n·d_h_n (+ Σ c_n·d_c_n)`.
fn run_single(
    spec: RnnSpec,
    params: &[f32],
    x: &[f32],
    d_output: &[f32],
    d_h_n: &[f32],
    d_c_n: Option<&[f32]>,
) -> unroll_core::gpu::ModuleOutputs {
    let ctx = context();
    let t = x.len() / spec.input_size;
    let mut m = GpuRnnModule::new(&ctx, spec, params, 1, t).unwrap();
    block(m.forward_backward(&ModuleInputs {
        seq_len: t,
        batch: 1,
        input: x,
        lengths: None,
        h0: None,
        c0: None,
        d_output,
        d_h_n: Some(d_h_n),
        d_c_n,
    }))
    .unwrap()
}

/// Hand-checkable `nn.RNN(1, 1)` (values from PyTorch): weight_ih 0.5,
/// weight_hh −0.8, bias_ih 0.1, bias_hh 0.2, x = [1, −2, 3], h0 = 0. tanh outputs
/// [0.66403677, −0.84293556, 0.98591461] and, for loss = h_n, dW_ih 0.09976916,
/// dW_hh −0.02788021, db_ih = db_hh = 0.02439190; relu outputs [0.8, 0.0, 1.8].
#[test]
fn rnn_1x1_hand_case_matches_pytorch_on_gpu() {
    let params = [0.5f32, -0.8, 0.1, 0.2];
    let spec = RnnSpec::new(CellKind::Rnn, 1, 1);
    let out = run_single(spec, &params, &[1.0, -2.0, 3.0], &[0.0; 3], &[1.0], None);
    Tol::FIXTURE.assert(
        "tanh output",
        &out.output,
        &[0.664_036_77, -0.842_935_56, 0.985_914_6],
    );
    Tol::FIXTURE.assert(
        "grads of h_n",
        &out.param_grads,
        &[0.099_769_16, -0.027_880_21, 0.024_391_9, 0.024_391_9],
    );
    let relu = RnnSpec {
        nonlinearity: Nonlinearity::Relu,
        ..spec
    };
    let out = run_single(relu, &params, &[1.0, -2.0, 3.0], &[0.0; 3], &[1.0], None);
    Tol::FIXTURE.assert("relu output", &out.output, &[0.8, 0.0, 1.8]);
}

/// Hand-checkable `nn.LSTM(1, 1)` (gate order i, f, g, o) with h0 0.1,
/// c0 −0.2, x = [1.0, 0.5]: h_n 0.12976679, c_n 0.20945512; for loss = h_n + c_n,
/// d weight_ih = [0.11172908, 0.00575244, 0.70720264, 0.00019612] and both bias gradients
/// [0.14322879, 0.04275497, 1.14609170, 0.02429522].
#[test]
fn lstm_1x1_hand_case_matches_pytorch_on_gpu() {
    let ctx = context();
    let spec = RnnSpec::new(CellKind::Lstm, 1, 1);
    let params = [
        0.2f32, -0.5, 0.8, 0.3, 0.4, 0.1, -0.7, 0.6, 0.0, 1.0, -0.2, 0.1, 0.1, -0.3, 0.05, 0.2,
    ];
    let mut m = GpuRnnModule::new(&ctx, spec, &params, 1, 2).unwrap();
    let out = block(m.forward_backward(&ModuleInputs {
        seq_len: 2,
        batch: 1,
        input: &[1.0, 0.5],
        lengths: None,
        h0: Some(&[0.1]),
        c0: Some(&[-0.2]),
        d_output: &[0.0, 0.0],
        d_h_n: Some(&[1.0]),
        d_c_n: Some(&[1.0]),
    }))
    .unwrap();
    Tol::FIXTURE.assert("h1", &out.output[..1], &[0.126_871_14]);
    Tol::FIXTURE.assert("h_n", &out.h_n, &[0.129_766_79]);
    Tol::FIXTURE.assert("c_n", out.c_n.as_deref().unwrap(), &[0.209_455_12]);
    Tol::FIXTURE.assert(
        "d weight_ih",
        &out.param_grads[..4],
        &[0.111_729_08, 0.005_752_44, 0.707_202_6, 0.000_196_12],
    );
    let d_bias = [0.143_228_79, 0.042_754_97, 1.146_091_7, 0.024_295_22];
    Tol::FIXTURE.assert("d bias_ih", &out.param_grads[8..12], &d_bias);
    Tol::FIXTURE.assert("d bias_hh", &out.param_grads[12..16], &d_bias);
}

/// Huge pre-activations (weights ±100 and ±1e4 scale inputs) give finite outputs, states and
/// gradients for every cell on the GPU.
#[test]
fn huge_preactivations_stay_finite_for_every_cell() {
    for cell in CellKind::ALL {
        for scale in [100.0f32, 1e4] {
            let spec = RnnSpec {
                bidirectional: true,
                ..RnnSpec::new(cell, 3, 4)
            };
            let layout = unroll_core::math::params::ParamLayout::rnn(&spec, "");
            let mut r = rng(30);
            let params = random_vec(&mut r, layout.total_len(), scale);
            let x = random_vec(&mut r, 5 * 3, scale);
            let d_output = random_vec(&mut r, 5 * 8, 1.0);
            let d_h_n = random_vec(&mut r, 2 * 4, 1.0);
            let d_c_n = (cell == CellKind::Lstm).then(|| random_vec(&mut r, 2 * 4, 1.0));
            let out = run_single(spec, &params, &x, &d_output, &d_h_n, d_c_n.as_deref());
            let all = out
                .output
                .iter()
                .chain(&out.h_n)
                .chain(out.c_n.iter().flatten())
                .chain(&out.param_grads)
                .chain(&out.d_input)
                .chain(&out.d_h0);
            assert!(
                all.clone().all(|v| v.is_finite()),
                "{cell:?} ×{scale}: non-finite value"
            );
        }
    }
}

/// Padding invariance: a sample's output, h_n and the gradients of a loss that
/// involves only that sample are the same whether it runs alone or in a batch padded to a
/// longer length (≤ 1e-5 on the GPU), for every cell, bidirectional and two layers included.
#[test]
fn gpu_module_is_padding_invariant() {
    let ctx = context();
    for cell in CellKind::ALL {
        let spec = RnnSpec {
            bidirectional: true,
            num_layers: 2,
            ..RnnSpec::new(cell, 3, 5)
        };
        let layout = unroll_core::math::params::ParamLayout::rnn(&spec, "");
        let (h, dh, ld) = (5, 10, 4);
        let mut r = rng(31);
        let params = random_vec(&mut r, layout.total_len(), 0.5);
        let (len, big_t, big_b, at) = (4usize, 7usize, 3usize, 1usize);
        let x = random_vec(&mut r, len * 3, 1.0);
        let d_out = random_vec(&mut r, len * dh, 1.0);
        let d_h_n = random_vec(&mut r, ld * h, 1.0);
        let d_c_n = (cell == CellKind::Lstm).then(|| random_vec(&mut r, ld * h, 1.0));
        let mut alone = GpuRnnModule::new(&ctx, spec, &params, big_b, big_t).unwrap();
        let a = block(alone.forward_backward(&ModuleInputs {
            seq_len: len,
            batch: 1,
            input: &x,
            lengths: None,
            h0: None,
            c0: None,
            d_output: &d_out,
            d_h_n: Some(&d_h_n),
            d_c_n: d_c_n.as_deref(),
        }))
        .unwrap();
        // The same sample as row `at` of a batch of 3 padded to T = 7; the others are random
        // and get no upstream gradient.
        let mut bx = random_vec(&mut r, big_t * big_b * 3, 1.0);
        let mut bd_out = vec![0.0; big_t * big_b * dh];
        for t in 0..len {
            bx[(t * big_b + at) * 3..][..3].copy_from_slice(&x[t * 3..][..3]);
            bd_out[(t * big_b + at) * dh..][..dh].copy_from_slice(&d_out[t * dh..][..dh]);
        }
        let spread = |v: &[f32]| {
            let mut out = vec![0.0; ld * big_b * h];
            for k in 0..ld {
                out[(k * big_b + at) * h..][..h].copy_from_slice(&v[k * h..][..h]);
            }
            out
        };
        let (bd_h_n, bd_c_n) = (spread(&d_h_n), d_c_n.as_deref().map(spread));
        let p = block(alone.forward_backward(&ModuleInputs {
            seq_len: big_t,
            batch: big_b,
            input: &bx,
            lengths: Some(&[7, len as u32, 2]),
            h0: None,
            c0: None,
            d_output: &bd_out,
            d_h_n: Some(&bd_h_n),
            d_c_n: bd_c_n.as_deref(),
        }))
        .unwrap();
        let name = format!("{cell:?}");
        let mut out_at = Vec::new();
        for t in 0..len {
            out_at.extend_from_slice(&p.output[(t * big_b + at) * dh..][..dh]);
        }
        Tol::PACKED.assert(&format!("{name} output"), &out_at, &a.output);
        for t in len..big_t {
            assert!(
                p.output[(t * big_b + at) * dh..][..dh]
                    .iter()
                    .all(|v| *v == 0.0),
                "{name}: output at padding is 0"
            );
        }
        let h_n_at: Vec<f32> = (0..ld)
            .flat_map(|k| p.h_n[(k * big_b + at) * h..][..h].to_vec())
            .collect();
        Tol::PACKED.assert(&format!("{name} h_n"), &h_n_at, &a.h_n);
        Tol::PACKED.assert(
            &format!("{name} param grads"),
            &p.param_grads,
            &a.param_grads,
        );
    }
}

/// The short and small cases against the CPU path (`RnnModule`), every cell, two layers,
/// bidirectional: a batch of one, sequences of length 1, h0/c0 omitted or given, and packed
/// lengths that include 1 (so a reverse direction starts at each sample's own last step):
/// output, h_n, c_n, every parameter gradient and the input, h0 and c0 gradients.
#[test]
fn short_and_small_cases_match_the_cpu_path() {
    use unroll_core::math::params::ParamLayout;
    use unroll_core::math::recurrent::{RnnModule, TensorRef};
    let ctx = context();
    let mut r = rng(41);
    for cell in CellKind::ALL {
        let spec = RnnSpec {
            bidirectional: true,
            num_layers: 2,
            ..RnnSpec::new(cell, 3, 5)
        };
        let layout = ParamLayout::rnn(&spec, "");
        let params = random_vec(&mut r, layout.total_len(), 0.5);
        let has_c = spec.cell.spec().has_cell_state;
        let (i, h, ld, dh) = (3, 5, 4, 10);
        let cases: [(usize, usize, Option<Vec<u32>>, bool); 5] = [
            (1, 1, None, false),
            (1, 1, None, true),
            (1, 6, None, false),
            (4, 1, None, true),
            (4, 6, Some(vec![6, 1, 3, 1]), false),
        ];
        for (b, t, lengths, with_state) in cases {
            let tag = format!("{cell:?} B={b} T={t} lengths={lengths:?} state={with_state}");
            let x = random_vec(&mut r, t * b * i, 1.0);
            let h0 = with_state.then(|| random_vec(&mut r, ld * b * h, 1.0));
            let c0 = (with_state && has_c).then(|| random_vec(&mut r, ld * b * h, 1.0));
            let mut d_out = random_vec(&mut r, t * b * dh, 1.0);
            if let Some(l) = &lengths {
                // No upstream gradient at padded positions (their output is 0 either way).
                for s in 0..t {
                    for (row, &len) in l.iter().enumerate() {
                        if s >= len as usize {
                            d_out[(s * b + row) * dh..][..dh].fill(0.0);
                        }
                    }
                }
            }
            let d_h_n = random_vec(&mut r, ld * b * h, 1.0);
            let d_c_n = has_c.then(|| random_vec(&mut r, ld * b * h, 1.0));
            let mut module = GpuRnnModule::new(&ctx, spec, &params, b, t).unwrap();
            let gpu = block(module.forward_backward(&ModuleInputs {
                seq_len: t,
                batch: b,
                input: &x,
                lengths: lengths.as_deref(),
                h0: h0.as_deref(),
                c0: c0.as_deref(),
                d_output: &d_out,
                d_h_n: Some(&d_h_n),
                d_c_n: d_c_n.as_deref(),
            }))
            .unwrap();
            let cpu_module = RnnModule::new(spec, &layout, "");
            let (x_shape, state_shape) = ([t, b, i], [ld, b, h]);
            let cpu = cpu_module
                .forward(
                    &params,
                    TensorRef::new(&x_shape, &x),
                    false,
                    lengths.as_deref(),
                    h0.as_deref().map(|d| TensorRef::new(&state_shape, d)),
                    c0.as_deref().map(|d| TensorRef::new(&state_shape, d)),
                )
                .unwrap();
            let mut cpu_grads = vec![0.0f32; layout.total_len()];
            let g = cpu_module.backward(
                &params,
                &cpu.cache,
                &d_out,
                Some(&d_h_n),
                d_c_n.as_deref(),
                &mut cpu_grads,
            );
            Tol::FIXTURE.assert(&format!("output {tag}"), &gpu.output, &cpu.output);
            Tol::FIXTURE.assert(&format!("h_n {tag}"), &gpu.h_n, &cpu.h_n);
            if let (Some(gc), Some(cc)) = (&gpu.c_n, &cpu.c_n) {
                Tol::FIXTURE.assert(&format!("c_n {tag}"), gc, cc);
            }
            Tol::FIXTURE.assert(&format!("param grads {tag}"), &gpu.param_grads, &cpu_grads);
            Tol::FIXTURE.assert(&format!("d_input {tag}"), &gpu.d_input, &g.input);
            Tol::FIXTURE.assert(&format!("d_h0 {tag}"), &gpu.d_h0, &g.h0);
            if let (Some(gc), Some(cc)) = (&gpu.d_c0, &g.c0) {
                Tol::FIXTURE.assert(&format!("d_c0 {tag}"), gc, cc);
            }
        }
    }
}

/// Lesson 8's workloads on the GPU compute what the CPU workloads compute, from the same seeded
/// weights and inputs: the recurrent pass's h_n (summed) and the first all-pairs score.
#[test]
fn lesson_8_workloads_on_the_gpu_match_the_cpu() {
    use unroll_core::lessons::parallel::{AllPairs, GpuWorkload, GpuWorkloads, Sequential};
    use unroll_core::math::params::CellKind;
    let ctx = context();
    for cell in [CellKind::Rnn, CellKind::Lstm, CellKind::Gru] {
        let mut w = GpuWorkloads::new(&ctx, cell, 16, 64).expect("workloads");
        for len in [8, 64] {
            w.set_len(len).expect("inputs");
            let seq = block(w.run(GpuWorkload::Sequential)).expect("sequential");
            let cpu = Sequential::new(cell, 16, len).run();
            assert!(
                (seq - cpu).abs() <= 1e-4 + 1e-4 * cpu.abs(),
                "{cell:?} L = {len}: GPU {seq}, CPU {cpu}"
            );
            let s00 = block(w.run(GpuWorkload::AllPairs)).expect("all pairs");
            let want = AllPairs::new(len, 16).score(0, 0);
            assert!(
                (s00 - want).abs() <= 1e-5 + 1e-5 * want.abs(),
                "L = {len}: {s00} vs {want}"
            );
            assert!(block(w.run(GpuWorkload::RoundTrip)).is_ok());
        }
    }
}
