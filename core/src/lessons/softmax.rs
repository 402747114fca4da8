//! Lesson 7, logits → softmax → log → NLL (`nn.CrossEntropyLoss` = `log_softmax` + `NLLLoss`).
//!
//! `log_softmax` is [`crate::math::loss::log_softmax`] (max subtracted before `exp`, so it never
//! overflows); the NLL of a target class is `−log_softmax[target]` and equals
//! [`crate::math::loss::cross_entropy`] of the logits. The stability demo shifts every logit so
//! that the largest becomes 100 and computes the textbook `exp(x) / Σ exp` in f32 (e^100
//! overflows f32) next to `log_softmax`, which a shift does not change.

use crate::config::lessons::SoftmaxConfig;
use crate::math::loss::{cross_entropy, log_softmax};

/// The largest logit after the stability demo's shift.
pub const SHIFTED_MAX: f32 = 100.0;

/// Everything the lesson shows. Vectors are `[C]`, one entry per class.
#[derive(Clone, Debug, PartialEq)]
pub struct Softmax {
    /// The logits.
    pub logits: Vec<f32>,
    /// max(logits), subtracted before `exp`.
    pub max: f32,
    /// log Σ exp(logits) (log-sum-exp).
    pub log_sum_exp: f32,
    /// log_softmax(logits) = logits − log_sum_exp.
    pub log_softmax: Vec<f32>,
    /// softmax = exp(log_softmax).
    pub probs: Vec<f32>,
    /// Target class, from 0.
    pub target: usize,
    /// NLL = −log_softmax[target].
    pub nll: f32,
    /// `cross_entropy(logits, target)` from the trainer's loss (equals `nll`).
    pub cross_entropy: f32,
    /// The common mistake: NLL applied to probabilities, `−softmax[target]` (negative).
    pub nll_of_probs: f32,
    /// Stability demo: the shift added to every logit (`SHIFTED_MAX − max`).
    pub shift: f32,
    /// Stability demo: the textbook softmax of the shifted logits in f32 (NaN where e^x overflows).
    pub naive_shifted: Vec<f32>,
    /// Stability demo: log_softmax of the shifted logits (equal to `log_softmax` up to rounding).
    pub log_softmax_shifted: Vec<f32>,
}

/// Runs the lesson. An empty logit list gives empty vectors and a NaN loss.
pub fn softmax(config: &SoftmaxConfig) -> Softmax {
    let logits: Vec<f32> = config.logits.iter().map(|&v| v as f32).collect();
    let classes = logits.len();
    let target = config.target.min(classes.saturating_sub(1));
    let mut ls = vec![0.0f32; classes];
    log_softmax(&logits, &mut ls);
    let probs: Vec<f32> = ls.iter().map(|v| v.exp()).collect();
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let log_sum_exp = logits
        .first()
        .zip(ls.first())
        .map_or(f32::NAN, |(x, l)| x - l);
    let nll = ls.get(target).map_or(f32::NAN, |v| -v);
    let cross_entropy = if classes == 0 {
        f32::NAN
    } else {
        cross_entropy(&logits, &[target as u32], classes)
    };
    let shift = SHIFTED_MAX - max;
    let shifted: Vec<f32> = logits.iter().map(|x| x + shift).collect();
    let exps: Vec<f32> = shifted.iter().map(|x| x.exp()).collect();
    let sum: f32 = exps.iter().sum();
    let naive_shifted = exps.iter().map(|e| e / sum).collect();
    let mut log_softmax_shifted = vec![0.0f32; classes];
    log_softmax(&shifted, &mut log_softmax_shifted);
    Softmax {
        nll_of_probs: probs.get(target).map_or(f32::NAN, |p| -p),
        logits,
        max,
        log_sum_exp,
        log_softmax: ls,
        probs,
        target,
        nll,
        cross_entropy,
        shift,
        naive_shifted,
        log_softmax_shifted,
    }
}
