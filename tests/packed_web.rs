//! The browser build's packed product on WebAssembly itself: its `f32x4` kernel (simd128, as
//! `.cargo/config.toml` builds wasm32) must give bit for bit the plain loop's sums (from 0, in
//! increasing shared index, a rounding per product and per addition), for every remainder of
//! rows and columns and for the names recipe's step shapes. Runs under Node.js (no browser):
//!
//! ```text
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test --target wasm32-unknown-unknown --test packed_web
//! ```
#![cfg(target_arch = "wasm32")]

use unroll::math::linalg::swap_leading_axes;
use unroll::math::packed::{matmul_packed_acc, PackedMatrix};
use wasm_bindgen_test::*;

fn values(len: usize, seed: u32) -> Vec<f32> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (s >> 8) as f32 / (1u32 << 24) as f32 - 0.5
        })
        .collect()
}

fn plain(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &[f32]) -> Vec<f32> {
    let mut out = c.to_vec();
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0f32;
            for p in 0..k {
                s += a[i * k + p] * b[p * n + j];
            }
            out[i * n + j] += s;
        }
    }
    out
}

#[wasm_bindgen_test]
fn packed_product_equals_the_plain_loop_bit_for_bit() {
    const {
        assert!(
            cfg!(target_feature = "simd128"),
            "the browser build has simd128"
        )
    };
    for (m, n, k) in [
        (1, 1, 1),
        (3, 5, 2),
        (5, 9, 7),
        (7, 17, 0),
        (9, 15, 33),
        (64, 512, 128),
        (64, 128, 512),
    ] {
        let (a, b, c0) = (values(m * k, 1), values(k * n, 2), values(m * n, 3));
        let want: Vec<u32> = plain(m, n, k, &a, &b, &c0)
            .iter()
            .map(|x| x.to_bits())
            .collect();
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
