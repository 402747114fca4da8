//! Lesson 5, GRU update-gate fusion (Cho et al. 2014; PyTorch docs, `torch.nn.GRU`).
//!
//! PyTorch (and [`crate::math::gru`]): `h' = (1 − z)·n + z·h` — z is the share of the **old**
//! state. The course: `h_t = (1 − z)·h_{t−1} + z·h̃` — z is the share of the **new** candidate.
//! The two are the same update with `z_pytorch = 1 − z_course`; [`course_update`] is literally
//! [`pytorch_update`] called with `1 − z`.
//!
//! Reset gate (PyTorch's "reset-after" form): `n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn))`,
//! so r scales the whole hidden contribution including its bias b_hn.
//!
//! `math::gru::forward_step` computes the gates from pre-activations and then these
//! expressions in one function; the lesson sets z, n and r directly, so the two halves are
//! [`pytorch_update`] and [`candidate`] here (tests check them against `forward_step`).

use crate::config::lessons::GruConfig;
use crate::math::activation::tanh;

/// PyTorch's GRU update (as in `math::gru::forward_step`): `(1 − z)·n + z·h_prev`.
pub fn pytorch_update(z: f32, n: f32, h_prev: f32) -> f32 {
    (1.0 - z) * n + z * h_prev
}

/// The course's GRU update `(1 − z)·h_prev + z·n`, computed as [`pytorch_update`] with
/// `z_pytorch = 1 − z`.
pub fn course_update(z: f32, n: f32, h_prev: f32) -> f32 {
    pytorch_update(1.0 - z, n, h_prev)
}

/// PyTorch's candidate: `tanh(gi_n + r·gh_n)` with `gi_n = W_in x + b_in` and
/// `gh_n = W_hn h + b_hn` (as in `math::gru::forward_step`).
pub fn candidate(gi_n: f32, r: f32, gh_n: f32) -> f32 {
    tanh(gi_n + r * gh_n)
}

/// The reset-gate panel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResetPanel {
    /// `W_in·x` (b_in = 0).
    pub input_part: f32,
    /// `W_hn·h_{t−1} + b_hn`.
    pub hidden_part: f32,
    /// `r·(W_hn·h_{t−1} + b_hn)`.
    pub gated: f32,
    /// n with the slider r.
    pub n: f32,
    /// n with r = 1 (the hidden part fully used).
    pub n_r1: f32,
    /// n with r = 0 (the past ignored: `tanh(W_in x + b_in)`).
    pub n_r0: f32,
}

/// Everything the lesson shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gru {
    /// Course form: `(1 − z)·h_{t−1}`, the part of the old state kept.
    pub kept: f32,
    /// Course form: `z·h̃`, the part of the candidate written.
    pub written: f32,
    /// Course form result h_t.
    pub h: f32,
    /// PyTorch's formula with the same z: `(1 − z)·n + z·h` (a different state unless z = 0.5).
    pub pytorch_same_z: f32,
    /// The z PyTorch needs for the course's h_t: `1 − z`.
    pub pytorch_z: f32,
    /// PyTorch's formula with `1 − z` (equals [`Gru::h`]).
    pub pytorch_h: f32,
    /// Reset-gate panel.
    pub reset: ResetPanel,
}

/// Runs the lesson.
pub fn gru(config: &GruConfig) -> Gru {
    let (h_prev, z, n) = (config.h_prev as f32, config.z as f32, config.n as f32);
    let pytorch_z = 1.0 - z;
    let input_part = config.w_in as f32 * config.x as f32;
    let hidden_part = config.w_hn as f32 * h_prev + config.b_hn as f32;
    let r = config.r as f32;
    Gru {
        kept: (1.0 - z) * h_prev,
        written: z * n,
        h: course_update(z, n, h_prev),
        pytorch_same_z: pytorch_update(z, n, h_prev),
        pytorch_z,
        pytorch_h: pytorch_update(pytorch_z, n, h_prev),
        reset: ResetPanel {
            input_part,
            hidden_part,
            gated: r * hidden_part,
            n: candidate(input_part, r, hidden_part),
            n_r1: candidate(input_part, 1.0, hidden_part),
            n_r0: candidate(input_part, 0.0, hidden_part),
        },
    }
}
