//! Each WGSL kernel against its CPU twin (or a plain CPU loop), on lavapipe.

mod gpu_support;

use gpu_support::{assert_close, context, f32_bytes, random_vec, rng, run_kernel};
use unroll::gpu::kernels::activation::{Activation, ActivationDims, ActivationKind};
use unroll::gpu::kernels::matmul::{Matmul, MatmulDims};

/// The inputs of pitfall 8 (WGSL tanh/sigmoid overflow), including ±inf.
const EXTREMES: [f32; 15] = [
    f32::NEG_INFINITY, -1000.0, -100.0, -89.0, -88.7, -9.1, -1.0, 0.0, 1.0, 9.1, 88.7, 89.0, 100.0, 1000.0, f32::INFINITY,
];

fn activation_on_gpu(kind: ActivationKind, x: &[f32]) -> Vec<f32> {
    let ctx = context();
    let dims = ActivationDims { len: x.len() as u32, kind: kind as u32, _pad: [0; 2] };
    run_kernel::<Activation>(&ctx, &[f32_bytes(x), f32_bytes(&vec![0.0; x.len()])], &[dims]).remove(1)
}

/// tanh saturates to ±1 and never returns NaN (SwiftShader's tanh(±100) is NaN without the
/// clamp); reference: f64 tanh rounded to f32, tolerance 1e-6 absolute, NaN fails.
#[test]
fn tanh_kernel_saturates_without_nan() {
    let y = activation_on_gpu(ActivationKind::Tanh, &EXTREMES);
    let reference: Vec<f32> = EXTREMES.iter().map(|&x| (x as f64).tanh() as f32).collect();
    assert_eq!(reference[0], -1.0);
    assert_eq!(reference[14], 1.0);
    assert_close("tanh", &y, &reference, 1e-6, 0.0);
    assert_eq!(y[7], 0.0);
}

/// sigmoid gives 0 / 1 at the extremes and never NaN; reference f64 1/(1+e^{−x}) rounded to
/// f32, tolerance 1e-6 absolute (tiny values may flush to 0), NaN fails.
#[test]
fn sigmoid_kernel_saturates_without_nan() {
    let y = activation_on_gpu(ActivationKind::Sigmoid, &EXTREMES);
    let reference: Vec<f32> = EXTREMES.iter().map(|&x| (1.0 / (1.0 + (-(x as f64)).exp())) as f32).collect();
    assert_close("sigmoid", &y, &reference, 1e-6, 0.0);
    assert!(y[0] >= 0.0 && y[0] < 1e-30, "sigmoid(-inf) = {}", y[0]);
    assert!(y[1] >= 0.0 && y[1] < 1e-30, "sigmoid(-1000) = {}", y[1]);
    assert_eq!(y[7], 0.5);
    assert_eq!(y[14], 1.0);
}

/// relu passes positives, zeroes negatives, and maps ±inf to 0 / inf.
#[test]
fn relu_kernel_matches_definition() {
    let y = activation_on_gpu(ActivationKind::Relu, &EXTREMES);
    let reference: Vec<f32> = EXTREMES.iter().map(|&x| x.max(0.0)).collect();
    assert_eq!(y, reference);
}

/// Plain CPU loop in f64: C (+)= op(A)·op(B) with the kernel's stride conventions.
fn matmul_reference(d: &MatmulDims, a: &[f32], b: &[f32], c: &mut [f32]) {
    for m in 0..d.m as usize {
        for n in 0..d.n as usize {
            let mut s = 0.0f64;
            for k in 0..d.k as usize {
                let av = if d.trans_a == 0 { a[d.a_offset as usize + m * d.lda as usize + k] } else { a[d.a_offset as usize + k * d.lda as usize + m] };
                let bv = if d.trans_b == 0 { b[d.b_offset as usize + k * d.ldb as usize + n] } else { b[d.b_offset as usize + n * d.ldb as usize + k] };
                s += av as f64 * bv as f64;
            }
            let idx = d.c_offset as usize + m * d.ldc as usize + n;
            c[idx] = if d.accumulate != 0 { (c[idx] as f64 + s) as f32 } else { s as f32 };
        }
    }
}

/// The matmul kernel against a CPU loop on shapes that are not multiples of the 64×128 tile
/// (and some that are), with every transpose combination, element offsets, padded row strides
/// and both accumulate modes; elements of C outside the product must stay untouched.
#[test]
fn matmul_matches_cpu_loop_on_odd_shapes_and_transposes() {
    let ctx = context();
    let mut r = rng(7);
    let shapes = [(1, 1, 1), (3, 5, 7), (64, 128, 64), (65, 129, 17), (130, 257, 33), (7, 300, 130), (200, 9, 1), (5, 6, 0)];
    let mut cases = 0;
    for &(m, n, k) in &shapes {
        for (ta, tb) in [(false, false), (true, false), (false, true), (true, true)] {
            let accumulate = (m + n + k + ta as u32) % 2;
            let mut d = MatmulDims::packed(m, n, k, ta, tb);
            // Padding in every stride and an offset in every buffer.
            d.lda += 3;
            d.ldb += 1;
            d.ldc += 2;
            d.a_offset = 5;
            d.b_offset = 11;
            d.c_offset = 2;
            d.accumulate = accumulate;
            let a_rows = if ta { k } else { m } as usize;
            let b_rows = if tb { n } else { k } as usize;
            let a = random_vec(&mut r, d.a_offset as usize + a_rows * d.lda as usize + 4, 1.0);
            let b = random_vec(&mut r, d.b_offset as usize + b_rows * d.ldb as usize + 4, 1.0);
            let c0 = random_vec(&mut r, d.c_offset as usize + m as usize * d.ldc as usize + 4, 1.0);
            let mut expected = c0.clone();
            matmul_reference(&d, &a, &b, &mut expected);
            let out = run_kernel::<Matmul>(&ctx, &[f32_bytes(&a), f32_bytes(&b), f32_bytes(&c0)], &[d]);
            assert_close(&format!("matmul m{m} n{n} k{k} ta{ta} tb{tb} acc{accumulate}"), &out[2], &expected, 1e-5, 1e-4);
            assert_eq!(out[0], a, "A must not change");
            cases += 1;
        }
    }
    assert_eq!(cases, shapes.len() * 4);
}

/// A product with large cancelling terms: the GPU's summation order differs from the CPU's,
/// so parity checks need a tolerance (pitfall 11) — but the result must still be close.
#[test]
fn matmul_with_cancelling_terms_stays_within_tolerance() {
    let ctx = context();
    let a = vec![1e4f32, 1.0, -1e4, 1.0];
    let b = vec![1.0f32; 4];
    let d = MatmulDims::packed(1, 1, 4, false, false);
    let out = run_kernel::<Matmul>(&ctx, &[f32_bytes(&a), f32_bytes(&b), f32_bytes(&[0.0])], &[d]);
    assert_close("cancelling sum", &out[2], &[2.0], 1e-5, 1e-4);
}
