//! PyTorch's default initialisation from a seeded RNG (ChaCha8, so a seed gives the same
//! weights on every platform, wasm included).
//!
//! - Every recurrent parameter (weights and both biases): `U(−1/√H, 1/√H)`
//!   (`nn.RNNBase.reset_parameters`).
//! - `fc.weight` and `fc.bias` of the classifier head: `U(−1/√fan_in, 1/√fan_in)` with
//!   `fan_in = D·H` (`nn.Linear.reset_parameters`: Kaiming-uniform with a = √5 gives this
//!   bound for the weight, and the bias uses the same bound); likewise `init.weight` and
//!   `init.bias` of an initial state's map with `fan_in = C` conditions.
//!
//! The values are drawn tensor by tensor in layout order, element by element in row-major
//! order. They follow PyTorch's distribution, not PyTorch's random stream.
//!
//! [`add_forget_bias`]: the LSTM forget-gate bias initialisation (Gers, Schmidhuber & Cummins
//! 2000, "Learning to forget"; Jozefowicz, Zaremba & Sutskever 2015 recommend +1): a constant
//! added to the forget block of `bias_ih` after the default init, so that the cell starts out
//! keeping its state.

use rand::distr::{Distribution, Uniform};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::params::{ParamLayout, RnnSpec};

/// Fresh parameters for `layout` (a bare module's or the classifier's) of the module `spec`,
/// drawn from `ChaCha8Rng::seed_from_u64(seed)`. Tensors named `fc.*` get the Linear bound
/// `1/√(D·H)`, those named `init.*` (the initial state's map of
/// [`crate::math::model::SeqModel::with_initial_state`]) `1/√C`; all others `1/√H`.
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
        } else if entry.name.starts_with("init.") {
            // The initial state's map, nn.Linear(C, L·D·H): fan_in = C.
            let fan_in = layout.get("init.weight").map_or(1, |w| w.shape[1]);
            1.0 / (fan_in.max(1) as f32).sqrt()
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

/// Adds `forget_bias` to the forget-gate block of every `bias_ih_l{k}` and
/// `bias_ih_l{k}_reverse` of an LSTM: rows `H..2H` of the `[4·H]` vector (PyTorch's gate order
/// i, f, g, o). `bias_hh_l{k}` keeps its default init, as in PyTorch code that writes
/// `lstm.bias_ih_l0.data[H:2*H] += forget_bias`. Nothing changes for an RNN or a GRU, or when
/// `forget_bias` is 0.
///
/// - `params`: `[layout.total_len()]`, in `layout` (a bare module's or the classifier's; the
///   names may carry a prefix such as `rnn.`).
///
/// # Panics
/// If `params` does not match the layout.
pub fn add_forget_bias(layout: &ParamLayout, spec: &RnnSpec, params: &mut [f32], forget_bias: f32) {
    assert_eq!(
        params.len(),
        layout.total_len(),
        "add_forget_bias: params do not match the layout"
    );
    let Some(forget) = spec.cell.spec().gate_index("f") else {
        return;
    };
    if forget_bias == 0.0 {
        return;
    }
    let h = spec.hidden_size;
    for entry in &layout.entries {
        let base = entry.name.rsplit('.').next().unwrap_or(&entry.name);
        if base.starts_with("bias_ih_l") {
            for p in &mut params[entry.range()][forget * h..(forget + 1) * h] {
                *p += forget_bias;
            }
        }
    }
}

/// [`init_params`] followed by [`add_forget_bias`]: PyTorch's default initialisation from `seed`
/// with `forget_bias` added to every LSTM forget-gate block of `bias_ih` (no change for RNN/GRU
/// or `forget_bias` 0).
///
/// Returns `[layout.total_len()]` values.
pub fn init_params_with_forget_bias(
    layout: &ParamLayout,
    spec: &RnnSpec,
    seed: u64,
    forget_bias: f32,
) -> Vec<f32> {
    let mut params = init_params(layout, spec, seed);
    add_forget_bias(layout, spec, &mut params, forget_bias);
    params
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::params::CellKind;

    /// H = 16 → every |p| ≤ 0.25; the head uses 1/√(D·H). Same seed → same
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
