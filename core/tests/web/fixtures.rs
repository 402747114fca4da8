//! Every PyTorch fixture of `core/tests/fixtures/` through the CPU path of the browser build, on
//! both of its kernels: `simd128` (browsers without relaxed SIMD) and relaxed SIMD
//! (`f32x4.relaxed_madd`, fused where the engine fuses). Same checks and tolerance as the native
//! suite (`core/tests/suite/fixtures_pytorch.rs`: |err| ≤ 1e-5 + 1e-4·|ref|, NaN fails), plus
//! the share of that tolerance each path uses and the largest difference between the two
//! paths, printed for `docs/bench.md`. Runs under Node.js; relaxed SIMD needs a flag before
//! Node 22 (`scripts/test.sh` runs it):
//!
//! ```text
//! NODE_ARGS=--experimental-wasm-relaxed-simd \
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test -p unroll-core --target wasm32-unknown-unknown --features web-tests \
//!   --test fixtures_web --test packed_web
//! ```
#![cfg(target_arch = "wasm32")]

#[path = "../suite/common/mod.rs"]
mod common;
#[path = "../suite/tol/mod.rs"]
#[allow(
    dead_code,
    reason = "the suite's tolerances in full; this test uses FIXTURE"
)]
mod tol;

use common::{cpu_classifier, cpu_module, parse_fixture, run_fixtures, Fixture, SuiteSummary};
use unroll_core::math::linalg::{kernel_name, set_relaxed_simd};
use wasm_bindgen_test::*;

/// `(file name, text)` of every fixture, embedded (no file system here). A native test
/// (`fixtures_pytorch`) checks that this list names every `*.json` of the folder.
macro_rules! fixtures {
    ($($file:literal),* $(,)?) => {
        &[$(($file, include_str!(concat!("../fixtures/", $file)))),*]
    };
}
const FIXTURES: &[(&str, &str)] = fixtures![
    "clf_gru_step.json",
    "clf_lstm_step.json",
    "gru_1layer.json",
    "gru_2layer_bi.json",
    "gru_2layer_packed_seqfirst.json",
    "gru_zero_state.json",
    "lstm_1layer.json",
    "lstm_2layer_bi.json",
    "lstm_bi_packed.json",
    "lstm_zero_state.json",
    "rnn_1layer.json",
    "rnn_2layer_bi_seqfirst.json",
];

/// Every fixture on the path `relaxed` picks; prints the share of the tolerance it used.
fn suite(relaxed: bool) -> SuiteSummary {
    set_relaxed_simd(relaxed);
    let label = kernel_name();
    assert_eq!(label, if relaxed { "relaxed-simd" } else { "simd128" });
    let fixtures = FIXTURES
        .iter()
        .map(|(file, text)| (file.to_string(), parse_fixture(text)));
    tol::take_worst();
    let summary = run_fixtures(label, fixtures, cpu_module, cpu_classifier);
    let (share, err) = tol::take_worst();
    console_log!(
        "{label}: {} passed, {} failed; largest |err| {err:.3e}, {:.1}% of the tolerance at worst",
        summary.passed.len(),
        summary.failed.len(),
        share * 100.0
    );
    set_relaxed_simd(false);
    summary
}

#[wasm_bindgen_test]
fn every_pytorch_fixture_matches_on_the_simd128_path() {
    let summary = suite(false);
    assert_eq!(summary.passed.len(), FIXTURES.len());
    summary.assert_ok(&[]);
}

#[wasm_bindgen_test]
fn every_pytorch_fixture_matches_on_the_relaxed_simd_path() {
    let summary = suite(true);
    assert_eq!(summary.passed.len(), FIXTURES.len());
    summary.assert_ok(&[]);
}

/// The two paths differ (fused rounding where the engine fuses) by far less than the
/// tolerance: the largest difference between their module outputs and gradients, printed.
#[wasm_bindgen_test]
fn the_two_paths_differ_by_rounding_only() {
    let mut largest = 0.0f32;
    let mut compared = 0usize;
    for (file, text) in FIXTURES {
        let Ok(Fixture::Module(fx)) = parse_fixture(text) else {
            continue;
        };
        let case = fx.case().unwrap_or_else(|e| panic!("{file}: {e:?}"));
        let run = |relaxed: bool| {
            set_relaxed_simd(relaxed);
            let r = cpu_module(&case).unwrap_or_else(|e| panic!("{file}: {e:?}"));
            set_relaxed_simd(false);
            [r.output, r.h_n, r.param_grads, r.d_input].concat()
        };
        let (fused, plain) = (run(true), run(false));
        assert_eq!(fused.len(), plain.len());
        for (x, y) in fused.iter().zip(&plain) {
            let d = (x - y).abs();
            assert!(d <= 1e-5 + 1e-5 * y.abs(), "{file}: {x} vs {y}");
            largest = largest.max(d);
        }
        compared += fused.len();
    }
    assert!(compared > 1000, "only {compared} values compared");
    console_log!(
        "relaxed-simd vs simd128: largest difference {largest:.3e} over {compared} values"
    );
}
