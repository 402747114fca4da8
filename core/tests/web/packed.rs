//! The browser build's packed product on WebAssembly itself: its `f32x4` kernel (simd128, as
//! `.cargo/config.toml` builds wasm32) must give bit for bit the plain loop's sums (from 0, in
//! increasing shared index, a rounding per product and per addition), for every remainder of
//! rows and columns and for the names recipe's step shapes. Runs under Node.js (no browser):
//!
//! ```text
//! CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
//!   cargo test -p unroll-core --target wasm32-unknown-unknown --features web-tests --test packed_web
//! ```
#![cfg(target_arch = "wasm32")]

use unroll_core::math::linalg::swap_leading_axes;
use unroll_core::math::packed::{matmul_packed_acc, matmul_twin_acc, PackedMatrix};
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
