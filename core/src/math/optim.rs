//! Adam and gradient clipping over flat parameter slices (one layout for params, grads, m, v).
//!
//! - [`adam_update`]: `torch.optim.Adam` (Kingma & Ba 2015) exactly as PyTorch's single-tensor
//!   implementation computes it: no weight decay, no amsgrad, bias correction from the step
//!   count. The CPU twin of `shaders/adam_update.wgsl`.
//! - [`clip_grad_norm`]: `torch.nn.utils.clip_grad_norm_` (global L2 norm over all gradients),
//!   except that a non-finite norm skips the step instead of writing NaN/0 into the gradients.

/// Hyper-parameters of `torch.optim.Adam` (no weight decay).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamConfig {
    /// Learning rate (PyTorch default 1e-3).
    pub lr: f32,
    /// β1, decay of the first moment (0.9).
    pub beta1: f32,
    /// β2, decay of the second moment (0.999).
    pub beta2: f32,
    /// ε added to the denominator (1e-8).
    pub eps: f32,
}

impl Default for AdamConfig {
    /// PyTorch's defaults: lr 1e-3, betas (0.9, 0.999), eps 1e-8.
    fn default() -> Self {
        AdamConfig {
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        }
    }
}

/// The per-step scalars of Adam, computed once in f64 (the GPU kernel gets the same values as
/// uniforms): `step_size = lr / (1 − β1^step)`, `bias_correction2_sqrt = √(1 − β2^step)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AdamStepScalars {
    /// `lr / (1 − β1^step)`.
    pub step_size: f32,
    /// `√(1 − β2^step)`.
    pub bias_correction2_sqrt: f32,
}

impl AdamConfig {
    /// The scalars of step number `step` (1 for the first update).
    pub fn step_scalars(&self, step: u32) -> AdamStepScalars {
        let t = step as i32;
        let bc1 = 1.0 - (self.beta1 as f64).powi(t);
        let bc2 = 1.0 - (self.beta2 as f64).powi(t);
        AdamStepScalars {
            step_size: (self.lr as f64 / bc1) as f32,
            bias_correction2_sqrt: bc2.sqrt() as f32,
        }
    }
}

/// One Adam update, element-wise over flat slices of equal length:
///
/// ```text
/// m = β1·m + (1 − β1)·g
/// v = β2·v + (1 − β2)·g²
/// p = p − step_size · m / (√v / bias_correction2_sqrt + ε)
/// ```
///
/// - `step`: the step number, counted from 1 (bias correction).
/// - `params`, `grads`, `m`, `v`: `[N]` each, same layout.
///
/// # Panics
/// If the slices differ in length or `step == 0`.
pub fn adam_update(
    config: &AdamConfig,
    step: u32,
    params: &mut [f32],
    grads: &[f32],
    m: &mut [f32],
    v: &mut [f32],
) {
    assert!(step >= 1, "adam_update: steps are counted from 1");
    let n = params.len();
    assert!(
        grads.len() == n && m.len() == n && v.len() == n,
        "adam_update: slice lengths differ"
    );
    let s = config.step_scalars(step);
    let (b1, b2) = (config.beta1, config.beta2);
    for (((p, &g), m), v) in params
        .iter_mut()
        .zip(grads)
        .zip(m.iter_mut())
        .zip(v.iter_mut())
    {
        *m = b1 * *m + (1.0 - b1) * g;
        *v = b2 * *v + (1.0 - b2) * g * g;
        let denom = v.sqrt() / s.bias_correction2_sqrt + config.eps;
        *p -= s.step_size * *m / denom;
    }
}

/// Adam's state for one flat parameter vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Adam {
    /// Hyper-parameters.
    pub config: AdamConfig,
    /// Updates done so far.
    pub step: u32,
    /// `[N]` first moments.
    pub m: Vec<f32>,
    /// `[N]` second moments.
    pub v: Vec<f32>,
}

impl Adam {
    /// Zero moments for `len` parameters.
    pub fn new(config: AdamConfig, len: usize) -> Self {
        Adam {
            config,
            step: 0,
            m: vec![0.0; len],
            v: vec![0.0; len],
        }
    }

    /// Counts one step and applies [`adam_update`].
    ///
    /// # Panics
    /// If `params`/`grads` do not have the length given to [`Adam::new`].
    pub fn update(&mut self, params: &mut [f32], grads: &[f32]) {
        self.step += 1;
        adam_update(
            &self.config,
            self.step,
            params,
            grads,
            &mut self.m,
            &mut self.v,
        );
    }
}

/// What [`clip_grad_norm`] did.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ClipOutcome {
    /// The norm was at most `max_norm`; gradients untouched.
    Unchanged {
        /// Total L2 norm.
        norm: f64,
    },
    /// Gradients were scaled by `scale = max_norm / (norm + 1e-6)`.
    Clipped {
        /// Total L2 norm before clipping.
        norm: f64,
        /// The factor applied.
        scale: f64,
    },
    /// The norm is NaN or infinite: the gradients are untouched and the caller must skip this
    /// optimizer step (weights unchanged) and report it.
    NonFinite {
        /// The non-finite norm.
        norm: f64,
    },
}

impl ClipOutcome {
    /// True when the optimizer step must be skipped.
    pub fn skip_step(&self) -> bool {
        matches!(self, ClipOutcome::NonFinite { .. })
    }

    /// The global L2 norm before clipping.
    pub fn norm(&self) -> f64 {
        match *self {
            ClipOutcome::Unchanged { norm }
            | ClipOutcome::Clipped { norm, .. }
            | ClipOutcome::NonFinite { norm } => norm,
        }
    }
}

/// Clips gradients by their global L2 norm (`clip_grad_norm_(params, max_norm)` semantics):
/// `norm = √(Σ g²)` over **all** elements (accumulated in f64, so 100 gradients of 1e20 give
/// 1e21 rather than an f32 overflow), then every gradient is multiplied by
/// `min(1, max_norm / (norm + 1e-6))`.
///
/// - `grads`: `[N]` flat gradients of every parameter tensor.
///
/// A non-finite norm leaves `grads` untouched and returns [`ClipOutcome::NonFinite`].
pub fn clip_grad_norm(grads: &mut [f32], max_norm: f32) -> ClipOutcome {
    let norm = grads
        .iter()
        .map(|&g| (g as f64) * (g as f64))
        .sum::<f64>()
        .sqrt();
    if !norm.is_finite() {
        return ClipOutcome::NonFinite { norm };
    }
    let scale = max_norm as f64 / (norm + 1e-6);
    if scale >= 1.0 {
        return ClipOutcome::Unchanged { norm };
    }
    for g in grads.iter_mut() {
        *g = (*g as f64 * scale) as f32;
    }
    ClipOutcome::Clipped { norm, scale }
}
