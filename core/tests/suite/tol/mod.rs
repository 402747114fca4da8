//! The tests' one closeness check, `|actual − expected| ≤ abs + rel·|expected|` element-wise,
//! with a named preset per tolerance in use. A NaN (in either value) always fails: errors are
//! accepted only when `err <= bound`, never reduced with `f32::max`.
//!
//! A module of the suite (`core/tests/suite/main.rs`) uses it with `use crate::tol;`.

thread_local! {
    /// The largest `err / (abs + rel·|expected|)` and the largest `err` of the checks on this
    /// thread since the last [`take_worst`].
    static WORST: std::cell::Cell<(f64, f64)> = const { std::cell::Cell::new((0.0, 0.0)) };
}

/// `(largest err / bound, largest err)` over every element [`Tol::check`] compared on this
/// thread since the last call (NaN errors aside: they fail the check), then starts again from 0.
/// A ratio ≤ 1 passed; it says how much of the tolerance a path uses.
pub fn take_worst() -> (f64, f64) {
    WORST.with(|w| w.replace((0.0, 0.0)))
}

/// A tolerance `|actual − expected| ≤ abs + rel·|expected|`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tol {
    /// Absolute part.
    pub abs: f64,
    /// Relative part (times `|expected|`).
    pub rel: f64,
}

impl Tol {
    /// PyTorch float64 fixtures and hand-checked PyTorch values against the f32 CPU path, and a
    /// WGSL kernel against its CPU twin: 1e-5 + 1e-4·|ref|.
    pub const FIXTURE: Tol = Tol::new(1e-5, 1e-4);
    /// One computation reached through two code paths of the CPU reference (the inspector's
    /// trace against the batched forward, pieces against the whole): 1e-5 + 1e-5·|ref|.
    pub const TWO_PATHS: Tol = Tol::new(1e-5, 1e-5);
    /// The same sample inside a padded batch and alone (packed sequences): 1e-5 absolute.
    pub const PACKED: Tol = Tol::new(1e-5, 0.0);
    /// Activations and other single roundings against a float64 reference or their twin:
    /// 1e-6 absolute.
    pub const ROUNDING: Tol = Tol::new(1e-6, 0.0);
    /// Gradients of the classifier head (values of order 1/C): 1e-6 + 1e-4·|ref|.
    pub const HEAD_GRAD: Tol = Tol::new(1e-6, 1e-4);
    /// Sums accumulated in another order (gradient accumulation, Adam's parameters):
    /// 1e-6 + 1e-5·|ref|.
    pub const ACCUMULATED: Tol = Tol::new(1e-6, 1e-5);
    /// Gradient-norm clipping (norm and clipped values): 1e-6 + 1e-6·|ref|.
    pub const CLIP: Tol = Tol::new(1e-6, 1e-6);
    /// Small values of order 1e-4…1e-2 (Adam's first moment, clipped huge gradients):
    /// 1e-7 + 1e-5·|ref|.
    pub const SMALL: Tol = Tol::new(1e-7, 1e-5);
    /// Tiny values of order 1e-8 (Adam's second moment): 1e-9 + 1e-5·|ref|.
    pub const TINY: Tol = Tol::new(1e-9, 1e-5);
    /// Huge values (a norm of order 1e21): 1e-5 relative.
    pub const HUGE: Tol = Tol::new(0.0, 1e-5);
    /// A large finite loss (of order 1000, from extreme logits): 1e-5 + 1e-6·|ref|.
    pub const LARGE_LOSS: Tol = Tol::new(1e-5, 1e-6);
    /// Adam's step scalars (step count, step size, √(bias correction 2)) on the GPU against the
    /// CPU's float64-derived values: 2e-6 relative.
    pub const ADAM_SCALARS: Tol = Tol::new(0.0, 2e-6);
    /// A GPU training step's loss against the CPU's, a few Adam steps in: 1e-4 + 1e-4·|ref|.
    pub const GPU_STEP_LOSS: Tol = Tol::new(1e-4, 1e-4);
    /// Parameters after many training steps on two backends: 1e-3 + 1e-2·|ref|.
    pub const TRAINED_PARAMS: Tol = Tol::new(1e-3, 1e-2);
    /// Losses over many training steps on two backends: 1e-3 absolute.
    pub const TRAINED_LOSSES: Tol = Tol::new(1e-3, 0.0);

    /// Every preset with its name.
    pub const PRESETS: [(&'static str, Tol); 15] = [
        ("FIXTURE", Tol::FIXTURE),
        ("TWO_PATHS", Tol::TWO_PATHS),
        ("PACKED", Tol::PACKED),
        ("ROUNDING", Tol::ROUNDING),
        ("HEAD_GRAD", Tol::HEAD_GRAD),
        ("ACCUMULATED", Tol::ACCUMULATED),
        ("CLIP", Tol::CLIP),
        ("SMALL", Tol::SMALL),
        ("TINY", Tol::TINY),
        ("HUGE", Tol::HUGE),
        ("LARGE_LOSS", Tol::LARGE_LOSS),
        ("ADAM_SCALARS", Tol::ADAM_SCALARS),
        ("GPU_STEP_LOSS", Tol::GPU_STEP_LOSS),
        ("TRAINED_PARAMS", Tol::TRAINED_PARAMS),
        ("TRAINED_LOSSES", Tol::TRAINED_LOSSES),
    ];

    /// `abs + rel·|expected|`.
    pub const fn new(abs: f64, rel: f64) -> Tol {
        Tol { abs, rel }
    }

    /// True when `actual` is within the tolerance of `expected`; false when either is NaN
    /// (a NaN error compares false with `<=`).
    pub fn accepts(self, actual: f32, expected: f64) -> bool {
        let err = (f64::from(actual) - expected).abs();
        err <= self.abs + self.rel * expected.abs()
    }

    /// Checks `actual` against `expected`; `Err` names the tensor, counts the mismatches and
    /// shows the largest error and the first mismatches with flat indices.
    pub fn check<E: Copy + Into<f64>>(
        self,
        name: &str,
        actual: &[f32],
        expected: &[E],
    ) -> Result<(), String> {
        self.check_shaped(name, actual, expected, &[])
    }

    /// [`Tol::check`] reporting mismatches with multi-dimensional indices of `shape` (flat
    /// indices when `shape` is empty).
    pub fn check_shaped<E: Copy + Into<f64>>(
        self,
        name: &str,
        actual: &[f32],
        expected: &[E],
        shape: &[usize],
    ) -> Result<(), String> {
        if actual.len() != expected.len() {
            return Err(format!(
                "{name}: {} values, expected {}",
                actual.len(),
                expected.len()
            ));
        }
        let mut bad = 0usize;
        let mut max_err = 0.0f64;
        let mut any_nan = false;
        let mut first = Vec::new();
        let mut margin = 0.0f64;
        for (i, (&a, &e)) in actual.iter().zip(expected).enumerate() {
            let e: f64 = e.into();
            let err = (f64::from(a) - e).abs();
            if err.is_nan() {
                any_nan = true;
            } else {
                max_err = max_err.max(err);
                margin = margin.max(err / (self.abs + self.rel * e.abs()));
            }
            if !self.accepts(a, e) {
                bad += 1;
                if first.len() < 5 {
                    first.push(format!(
                        "{} got {a} want {e} (err {err:.3e})",
                        index_string(i, shape)
                    ));
                }
            }
        }
        WORST.with(|w| {
            let (m, e) = w.get();
            w.set((m.max(margin), e.max(max_err)));
        });
        if bad == 0 {
            return Ok(());
        }
        let max = if any_nan {
            "NaN".to_string()
        } else {
            format!("{max_err:.3e}")
        };
        Err(format!(
            "{name}: {bad} of {} values outside |err| <= {:e} + {:e}*|ref| (max err {max}); first: {}",
            actual.len(),
            self.abs,
            self.rel,
            first.join("; ")
        ))
    }

    /// Panics with [`Tol::check`]'s message on failure.
    #[track_caller]
    pub fn assert<E: Copy + Into<f64>>(self, name: &str, actual: &[f32], expected: &[E]) {
        if let Err(e) = self.check(name, actual, expected) {
            panic!("{e}");
        }
    }
}

/// `[i]` or, with a shape, `[i0, i1, …]`.
fn index_string(flat: usize, shape: &[usize]) -> String {
    if shape.is_empty() || shape.iter().product::<usize>() <= flat {
        return format!("[{flat}]");
    }
    let mut idx = vec![0; shape.len()];
    let mut rest = flat;
    for (k, &d) in shape.iter().enumerate().rev() {
        idx[k] = rest % d;
        rest /= d;
    }
    format!("{idx:?}")
}
