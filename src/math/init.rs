//! PyTorch's default initialisation from a seeded RNG (ChaCha8, so a seed gives the same
//! weights on every platform, wasm included).
//!
//! - Every recurrent parameter (weights and both biases): `U(−1/√H, 1/√H)`
//!   (`nn.RNNBase.reset_parameters`).
//! - `fc.weight` and `fc.bias` of the classifier head: `U(−1/√fan_in, 1/√fan_in)` with
//!   `fan_in = D·H` (`nn.Linear.reset_parameters`: Kaiming-uniform with a = √5 gives this
//!   bound for the weight, and the bias uses the same bound).
//!
//! The values are drawn tensor by tensor in layout order, element by element in row-major
//! order. They follow PyTorch's distribution, not PyTorch's random stream.

use rand::distr::{Distribution, Uniform};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::params::{ParamLayout, RnnSpec};

/// Fresh parameters for `layout` (a bare module's or the classifier's) of the module `spec`,
/// drawn from `ChaCha8Rng::seed_from_u64(seed)`. Tensors named `fc.*` get the Linear bound
/// `1/√(D·H)`; all others `1/√H`.
///
/// Returns `[layout.total_len()]` values.
pub fn init_params(layout: &ParamLayout, spec: &RnnSpec, seed: u64) -> Vec<f32> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let rnn_bound = 1.0 / (spec.hidden_size as f32).sqrt();
    let fc_bound = 1.0 / ((spec.num_directions() * spec.hidden_size) as f32).sqrt();
    let mut params = vec![0.0f32; layout.total_len()];
    for entry in &layout.entries {
        let bound = if entry.name.starts_with("fc.") {
            fc_bound
        } else {
            rnn_bound
        };
        let dist = Uniform::new(-bound, bound).expect("a positive finite bound");
        for p in &mut params[entry.range()] {
            *p = dist.sample(&mut rng);
        }
    }
    params
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::params::CellKind;

    /// Pitfalls item 5: H = 16 → every |p| ≤ 0.25; the head uses 1/√(D·H). Same seed → same
    /// values; another seed → different values.
    #[test]
    fn default_init_respects_pytorch_bounds_and_seed() {
        let mut spec = RnnSpec::new(CellKind::Lstm, 57, 16);
        spec.bidirectional = true;
        let layout = ParamLayout::classifier(&spec, 18);
        let p = init_params(&layout, &spec, 7);
        let fc = layout.get("fc.weight").unwrap().offset;
        assert!(p[..fc].iter().all(|v| v.abs() <= 0.25));
        assert!(
            p[..fc].iter().any(|v| v.abs() > 0.2),
            "values should fill the range"
        );
        let fc_bound = 1.0 / 32f32.sqrt();
        assert!(p[fc..].iter().all(|v| v.abs() <= fc_bound));
        assert!(
            p[fc..].iter().any(|v| v.abs() > 0.15),
            "head values should fill ±1/√(D·H) ≈ ±0.177"
        );
        assert_eq!(p, init_params(&layout, &spec, 7));
        assert_ne!(p, init_params(&layout, &spec, 8));
    }
}
