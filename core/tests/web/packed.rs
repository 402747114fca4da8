//! The browser build's packed product on WebAssembly itself: its `f32x4` kernel (simd128, as
//! `.cargo/config.toml` builds wasm32) must give bit for bit the plain loop's sums (from 0, in
//! increasing shared index, a rounding per product and per addition), for every remainder of
//! rows and columns and for the names recipe's step shapes. With relaxed SIMD on, every product
//! must give bit for bit the fused twin's sums (an engine that fuses `f32x4.relaxed_madd`) or
//! the plain loop's (one that does not). Runs under Node.js (no browser; relaxed SIMD needs a
//! flag before Node 22):
//!
//! ```text
//! NODE_ARGS=--experimental-wasm-relaxed-simd \
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test -p unroll-core --target wasm32-unknown-unknown --features web-tests --test packed_web
//! ```
#![cfg(target_arch = "wasm32")]

use unroll_core::math::linalg::{
    matmul_acc, matmul_tn_acc, relaxed_simd, set_relaxed_simd, swap_leading_axes,
};
use unroll_core::math::packed::{
    matmul_packed_acc, matmul_twin_acc, matmul_twin_fma_acc, PackedMatrix,
};
use wasm_bindgen_test::*;

fn values(len: usize, seed: usize) -> Vec<f32> {
    (0..len)
        .map(|i| ((i * 6151 + seed * 3571) % 997) as f32 / 997.0 - 0.5)
        .collect()
}

#[wasm_bindgen_test]
fn packed_product_equals_the_plain_loop_bit_for_bit() {
    const {
        assert!(
            cfg!(target_feature = "simd128"),
            "the browser build has simd128"
        )
    };
    for (m, n, k) in SHAPES {
        let (a, b, c0) = (values(m * k, 1), values(k * n, 2), values(m * n, 3));
        let mut want = c0.clone();
        matmul_twin_acc(m, n, k, &a, &b, &mut want);
        let want: Vec<u32> = want.iter().map(|x| x.to_bits()).collect();
        let w = swap_leading_axes(&b, k, n, 1); // [n, k]
        for (how, packed) in [
            ("new", PackedMatrix::new(k, n, &b)),
            ("transposed", PackedMatrix::transposed(n, k, &w)),
        ] {
            let mut c = c0.clone();
            matmul_packed_acc(m, &a, &packed, &mut c);
            let got: Vec<u32> = c.iter().map(|x| x.to_bits()).collect();
            assert_eq!(got, want, "{how}: [{m}, {k}] · [{k}, {n}]");
        }
    }
}

const SHAPES: [(usize, usize, usize); 7] = [
    (1, 1, 1),
    (3, 5, 2),
    (5, 9, 7),
    (7, 17, 0),
    (9, 15, 33),
    (64, 512, 128),
    (64, 128, 512),
];

fn bits(v: &[f32]) -> Vec<u32> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// With relaxed SIMD, the packed product and the two other products (`b` packed per call, `a`
/// row-major or transposed) all give the fused twin's sums, or all the plain loop's.
#[wasm_bindgen_test]
fn relaxed_products_equal_the_fused_or_the_plain_twin_bit_for_bit() {
    set_relaxed_simd(true);
    assert!(relaxed_simd());
    let mut fused_seen = None;
    for (m, n, k) in SHAPES {
        let (a, b, c0) = (values(m * k, 4), values(k * n, 5), values(m * n, 6));
        let mut fused = c0.clone();
        matmul_twin_fma_acc(m, n, k, &a, &b, &mut fused);
        let mut plain = c0.clone();
        matmul_twin_acc(m, n, k, &a, &b, &mut plain);
        let (fused, plain) = (bits(&fused), bits(&plain));
        let a_t = swap_leading_axes(&a, m, k, 1); // [k, m]
        let w = swap_leading_axes(&b, k, n, 1); // [n, k]
        let mut got = Vec::new();
        for (how, packed) in [
            ("new", PackedMatrix::new(k, n, &b)),
            ("transposed", PackedMatrix::transposed(n, k, &w)),
        ] {
            let mut c = c0.clone();
            matmul_packed_acc(m, &a, &packed, &mut c);
            got.push((how, bits(&c)));
        }
        let mut c = c0.clone();
        matmul_acc(m, n, k, &a, &b, &mut c);
        got.push(("matmul_acc", bits(&c)));
        let mut c = c0.clone();
        matmul_tn_acc(m, n, k, &a_t, &b, &mut c);
        got.push(("matmul_tn_acc", bits(&c)));
        for (how, c) in got {
            let is_fused = if c == fused {
                true
            } else {
                assert_eq!(c, plain, "{how}: [{m}, {k}] · [{k}, {n}]: neither twin");
                false
            };
            // One engine, one choice: fused everywhere or nowhere (where the twins differ).
            if fused != plain {
                assert_eq!(*fused_seen.get_or_insert(is_fused), is_fused, "{how}");
            }
        }
    }
    set_relaxed_simd(false);
    assert!(fused_seen.is_some(), "no shape where the twins differ");
    console_log!("relaxed_madd fused: {}", fused_seen.unwrap_or(false));
}
