//! The WGSL path in a browser: headless Chromium's WebGPU (SwiftShader), via wasm-bindgen-test.
//! Compiled only for wasm32; a native `cargo test` skips this file.
//!
//! ```text
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//! WASM_BINDGEN_TEST_WEBDRIVER_JSON=/path/to/webdriver.json \
//!   cargo test -p unroll-core --target wasm32-unknown-unknown --features web-tests --test gpu_web -- --nocapture
//! ```
//! with a webdriver.json like
//! `{"goog:chromeOptions": {"binary": "/usr/bin/chromium", "args": ["--enable-unsafe-webgpu"]}}`.
//!
//! It checks what only the browser's WGSL compiler and SwiftShader can show: the activations on
//! ±100, ±1000, ±inf (SwiftShader's raw tanh(±100) is NaN), that every kernel compiles in Tint
//! (which, unlike naga, rejects e.g. a constant `bitcast<f32>` that yields inf), one LSTM and
//! one GRU step against the CPU path, and it prints ms/step at hidden 32 and 128.
#![cfg(target_arch = "wasm32")]

use unroll_core::gpu::buffers;
use unroll_core::gpu::kernels::activation::{Activation, ActivationDims, ActivationKind};
use unroll_core::gpu::kernels::{Kernel, UniformArena};
use unroll_core::gpu::{GpuClassifier, GpuContext};
use unroll_core::math::classifier::{ClassifierBatch, ClassifierModel};
use unroll_core::math::init::init_params;
use unroll_core::math::optim::{Adam, AdamConfig};
use unroll_core::math::params::{CellKind, RnnSpec};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now_ms() -> f64 {
    js_sys::Date::now()
}

fn log(s: &str) {
    web_sys::console::log_1(&s.into());
}

fn worst(a: &[f32], e: &[f32], abs: f32, rel: f32) -> (usize, f32) {
    let mut bad = 0;
    let mut max = 0.0f32;
    for (&x, &y) in a.iter().zip(e) {
        let err = (x - y).abs();
        let within = err <= abs + rel * y.abs(); // false for NaN
        if !within {
            bad += 1;
        }
        if err > max {
            max = err;
        }
    }
    (bad, max)
}

fn batch(seed: u32, b: usize, t: usize) -> ClassifierBatch {
    let mut s = seed;
    let mut next = |m: u32| {
        s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        (s >> 8) % m
    };
    let mut lengths: Vec<u32> = (0..b).map(|_| 1 + next(t as u32)).collect();
    lengths[0] = t as u32;
    let mut tokens = vec![0u32; b * t];
    for i in 0..b {
        for j in 0..lengths[i] as usize {
            tokens[i * t + j] = next(57);
        }
    }
    let labels = (0..b).map(|_| next(18)).collect();
    ClassifierBatch {
        batch: b,
        seq_len: t,
        tokens,
        lengths,
        labels,
    }
}

#[wasm_bindgen_test]
async fn webgpu_kernels_work_in_the_browser() {
    let ctx = GpuContext::new()
        .await
        .expect("WebGPU adapter (--enable-unsafe-webgpu)");
    log(&format!(
        "adapter: {:?} {:?}",
        ctx.description(),
        ctx.adapter_info.backend
    ));

    // Activations on extreme inputs: SwiftShader's raw tanh(±100) is NaN.
    let x = [
        f32::NEG_INFINITY,
        -1000.0,
        -100.0,
        -89.0,
        -9.1,
        0.0,
        9.1,
        89.0,
        100.0,
        1000.0,
        f32::INFINITY,
    ];
    let k: Kernel<Activation> = Kernel::new(&ctx);
    for kind in [ActivationKind::Tanh, ActivationKind::Sigmoid] {
        let xb = buffers::storage_with(&ctx, "x", bytemuck::cast_slice(&x));
        let yb = buffers::storage(&ctx, "y", x.len() as u64 * 4);
        let mut arena = UniformArena::new(&ctx, "u", 1);
        let group = k.bind(&ctx, "activation", &arena, &[&xb, &yb]);
        let mut enc = ctx.device.create_command_encoder(&Default::default());
        {
            let mut pass = enc.begin_compute_pass(&Default::default());
            k.encode(
                &mut pass,
                &group,
                &mut arena,
                ActivationDims {
                    len: x.len() as u32,
                    kind: kind as u32,
                    _pad: [0; 2],
                },
            )
            .unwrap();
        }
        arena.upload(&ctx.queue);
        ctx.queue.submit([enc.finish()]);
        let y = buffers::read_f32(&ctx, &yb, 0, x.len()).await.unwrap();
        let reference: Vec<f32> = x
            .iter()
            .map(|&v| match kind {
                ActivationKind::Tanh => (v as f64).tanh() as f32,
                _ => (1.0 / (1.0 + (-(v as f64)).exp())) as f32,
            })
            .collect();
        let (bad, max) = worst(&y, &reference, 1e-6, 0.0);
        log(&format!("{kind:?}: {y:?}"));
        assert_eq!(bad, 0, "{kind:?} off by up to {max}: {y:?}");
    }

    // One step at hidden 32 (LSTM and GRU) against the CPU path; creating the classifier
    // compiles every training kernel in the browser.
    for cell in [CellKind::Lstm, CellKind::Gru] {
        let spec = RnnSpec::new(cell, 57, 32);
        let model = ClassifierModel::new(spec, 18);
        let params = init_params(&model.layout, &spec, 1);
        let b = batch(7, 16, 9);
        let (loss, grads, logits) = model.loss_and_grads(&params, &b);
        let mut after = params.clone();
        Adam::new(AdamConfig::default(), params.len()).update(&mut after, &grads);
        let mut gpu = GpuClassifier::new(&ctx, spec, 18, &params, 16, 9).unwrap();
        let g_logits = gpu.evaluate(&b).await.unwrap();
        gpu.train_step(&b, 1e-3).unwrap();
        let r = gpu.drain_results().await.unwrap();
        let g_grads = gpu.read_grads().await.unwrap();
        let g_after = gpu.read_params().await.unwrap();
        for (what, a, e) in [
            ("logits", &g_logits, &logits),
            ("grads", &g_grads, &grads),
            ("params", &g_after, &after),
        ] {
            let (bad, max) = worst(a, e, 1e-5, 1e-4);
            log(&format!(
                "{cell:?} {what}: {bad} outside tolerance, max err {max:e}"
            ));
            assert_eq!(bad, 0, "{cell:?} {what}");
        }
        assert!(
            (r[0].loss - loss).abs() <= 1e-5 + 1e-4 * loss.abs(),
            "{cell:?} loss {} vs {loss}",
            r[0].loss
        );
    }

    // Timing: hidden 128 and 32, batch 64, names-like lengths (T = 12).
    for hidden in [32usize, 128] {
        let spec = RnnSpec::new(CellKind::Lstm, 57, hidden);
        let model = ClassifierModel::new(spec, 18);
        let params = init_params(&model.layout, &spec, 2);
        let batches: Vec<_> = (0..4).map(|i| batch(11 + i, 64, 12)).collect();
        let mut gpu = GpuClassifier::new(&ctx, spec, 18, &params, 64, 12).unwrap();
        gpu.train_step(&batches[0], 1e-3).unwrap();
        gpu.drain_results().await.unwrap();
        let steps = if hidden == 128 { 8 } else { 20 };
        let t0 = now_ms();
        for i in 0..steps {
            gpu.train_step(&batches[i % 4], 1e-3).unwrap();
        }
        let r = gpu.drain_results().await.unwrap();
        let ms = (now_ms() - t0) / steps as f64;
        log(&format!(
            "SwiftShader LSTM hidden {hidden} batch 64 seq_len 12: {ms:.1} ms/step (last loss {})",
            r[r.len() - 1].loss
        ));
        assert!(r.iter().all(|s| s.loss.is_finite()));
    }
}
