//! Activations of the recurrent cells and their derivatives, written in terms of the outputs.
//!
//! Both functions are defined for every f32 input, ±∞ included, and never return NaN for a
//! non-NaN input (the textbook `exp(x) / (1 + exp(x))` is NaN from x ≈ 89, and a
//! `sinh/cosh` tanh is NaN from |x| ≈ 89). These are the oracles the WGSL activations are
//! compared with.

/// Logistic sigmoid `σ(x) = 1 / (1 + e^{−x})`, evaluated so that `exp` never overflows:
/// `1 / (1 + e^{−x})` for x ≥ 0 and `e^{x} / (1 + e^{x})` for x < 0.
///
/// `σ(+∞) = 1`, `σ(−∞) = 0`; tiny results may be subnormal.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// Hyperbolic tangent. `f32::tanh` (libm's `tanhf`) saturates to exactly ±1 from |x| ≈ 9.01
/// and returns ±1 for ±∞, so it is used as is.
#[inline]
pub fn tanh(x: f32) -> f32 {
    x.tanh()
}

/// `dσ/dx` expressed through the output `y = σ(x)`: `y · (1 − y)`.
#[inline]
pub fn sigmoid_grad_from_output(y: f32) -> f32 {
    y * (1.0 - y)
}

/// `dtanh/dx` expressed through the output `y = tanh(x)`: `1 − y²`.
#[inline]
pub fn tanh_grad_from_output(y: f32) -> f32 {
    1.0 - y * y
}

/// ReLU `max(x, 0)` (the `nonlinearity='relu'` option of `nn.RNN`).
#[inline]
pub fn relu(x: f32) -> f32 {
    x.max(0.0)
}

/// `drelu/dx` expressed through the output `y = relu(x)`: 1 where `y > 0`, else 0
/// (PyTorch's convention: the derivative at 0 is 0).
#[inline]
pub fn relu_grad_from_output(y: f32) -> f32 {
    if y > 0.0 {
        1.0
    } else {
        0.0
    }
}
