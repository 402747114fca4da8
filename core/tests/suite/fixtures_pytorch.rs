//! Every PyTorch fixture (core/tests/fixtures/*.json and `$UNROLL_FIXTURES/*.json`) through the CPU
//! reference: module fixtures (output, h_n, c_n, every gradient, param_count, packed lengths)
//! and classifier-step fixtures (logits, loss, gradients, parameters after one Adam step).
//! Any fixture the CPU path cannot run is reported as UNSUPPORTED and fails the test.

use crate::common;

use common::{BackendError, ClassifierCase, ClassifierResult, ModuleCase, ModuleResult};
use unroll_core::math::classifier::ClassifierModel;
use unroll_core::math::optim::Adam;
use unroll_core::math::recurrent::{RnnModule, TensorRef};

/// The CPU reference as a fixture backend: `RnnModule::forward` then `backward` with the
/// fixture's upstream gradients.
fn cpu_module(case: &ModuleCase) -> Result<ModuleResult, BackendError> {
    let module = RnnModule::new(case.spec, &case.layout, "");
    let state = |s: &Option<(Vec<f32>, Vec<usize>)>| {
        s.as_ref().map(|(d, shape)| (d.clone(), shape.clone()))
    };
    let (h0, c0) = (state(&case.h0), state(&case.c0));
    let out = module
        .forward(
            &case.params,
            TensorRef::new(&case.input_shape, &case.input),
            case.batch_first,
            case.lengths.as_deref(),
            h0.as_ref().map(|(d, s)| TensorRef::new(s, d)),
            c0.as_ref().map(|(d, s)| TensorRef::new(s, d)),
        )
        .map_err(|e| BackendError::Failed(format!("forward rejected the fixture: {e}")))?;
    let mut param_grads = vec![0.0f32; case.layout.total_len()];
    let g = module.backward(
        &case.params,
        &out.cache,
        &case.grad_output,
        Some(&case.grad_h_n),
        case.grad_c_n.as_deref(),
        &mut param_grads,
    );
    Ok(ModuleResult {
        output: out.output,
        h_n: out.h_n,
        c_n: out.c_n,
        param_grads,
        d_input: g.input,
        d_h0: g.h0,
        d_c0: g.c0,
    })
}

/// The CPU classifier as a fixture backend: loss and gradients, then one Adam step.
fn cpu_classifier(case: &ClassifierCase) -> Result<ClassifierResult, BackendError> {
    let model = ClassifierModel::new(case.spec, case.num_classes);
    let (loss, grads, logits) = model.loss_and_grads(&case.params, &case.batch);
    let mut params_after = case.params.clone();
    Adam::new(case.adam, params_after.len()).update(&mut params_after, &grads);
    Ok(ClassifierResult {
        logits,
        loss,
        grads,
        params_after,
    })
}

#[test]
fn every_pytorch_fixture_matches_on_the_cpu_path() {
    let summary = common::run_fixture_suite("cpu", cpu_module, cpu_classifier);
    println!(
        "cpu fixtures: {} passed, {} failed, {} unsupported",
        summary.passed.len(),
        summary.failed.len(),
        summary.unsupported.len()
    );
    summary.assert_ok(&[]);
}
