//! Every PyTorch fixture (core/tests/fixtures/*.json and `$UNROLL_FIXTURES/*.json`) through the CPU
//! reference: module fixtures (output, h_n, c_n, every gradient, param_count, packed lengths)
//! and classifier-step fixtures (logits, loss, gradients, parameters after one Adam step).
//! Any fixture the CPU path cannot run is reported as UNSUPPORTED and fails the test.

use crate::{common, tol};

use common::{cpu_classifier, cpu_module};

#[test]
fn every_pytorch_fixture_matches_on_the_cpu_path() {
    tol::take_worst();
    let summary = common::run_fixture_suite("cpu", cpu_module, cpu_classifier);
    let (share, err) = tol::take_worst();
    println!(
        "cpu fixtures: {} passed, {} failed, {} unsupported; largest |err| {err:.3e}, {:.1}% of the tolerance at worst",
        summary.passed.len(),
        summary.failed.len(),
        summary.unsupported.len(),
        share * 100.0
    );
    summary.assert_ok(&[]);
}

/// The browser build's fixture test (`core/tests/web/fixtures.rs`, both wasm kernels) embeds
/// the fixtures by name: it must name every `*.json` of `core/tests/fixtures/`.
#[test]
fn the_wasm_fixture_test_embeds_every_fixture() {
    let web = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/web/fixtures.rs"
    ))
    .expect("core/tests/web/fixtures.rs");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut missing = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("fixture folder") {
        let name = entry
            .expect("entry")
            .file_name()
            .to_string_lossy()
            .into_owned();
        if name.ends_with(".json") && !web.contains(&format!("\"{name}\"")) {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "not embedded in the wasm test: {missing:?}"
    );
}
