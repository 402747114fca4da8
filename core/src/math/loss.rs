//! Softmax cross-entropy: `log_softmax` + NLL, mean over the batch, and its fused gradient
//! (`nn.CrossEntropyLoss` with `reduction='mean'`; the fused form follows llm.c's classifier).
//!
//! log-softmax subtracts the row maximum before `exp`, so logits like `[1000, 0, −1000]` give
//! `[0, −1000, −2000]` instead of NaN.

/// `out = log_softmax(logits)` for one row `[C]`: `x_j − max − ln Σ_k e^{x_k − max}`.
///
/// # Panics
/// If `out.len() != logits.len()`.
pub fn log_softmax(logits: &[f32], out: &mut [f32]) {
    assert_eq!(logits.len(), out.len(), "log_softmax: length mismatch");
    let max = logits.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let sum: f32 = logits.iter().map(|&x| (x - max).exp()).sum();
    let log_sum = sum.ln();
    for (o, &x) in out.iter_mut().zip(logits) {
        *o = x - max - log_sum;
    }
}

/// Softmax probabilities of one row `[C]` (`exp(log_softmax)`).
pub fn softmax(logits: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0f32; logits.len()];
    log_softmax(logits, &mut out);
    for p in &mut out {
        *p = p.exp();
    }
    out
}

/// Mean cross-entropy `(1/B) Σ_b −log_softmax(logits[b])[labels[b]]`.
///
/// - `logits`: `[B, C]`; `labels`: `[B]` class indices `< C`.
///
/// # Panics
/// If the shapes disagree or a label is `≥ C`.
pub fn cross_entropy(logits: &[f32], labels: &[u32], num_classes: usize) -> f32 {
    let mut scratch = vec![0.0f32; logits.len()];
    softmax_cross_entropy(
        logits,
        labels,
        num_classes,
        labels.len() as f32,
        &mut scratch,
    ) / labels.len() as f32
}

/// Fused loss and gradient: returns the **sum** of the per-sample cross-entropies and writes
/// `d_logits[b] = (softmax(logits[b]) − onehot(labels[b])) / divisor`.
///
/// `divisor` is the batch size of the mean: `B` for a whole batch, or the full batch size when
/// a batch is split into micro-batches whose gradients are summed.
///
/// - `logits`, `d_logits`: `[B, C]`; `labels`: `[B]` class indices `< C`.
///
/// # Panics
/// If the shapes disagree or a label is `≥ C`.
pub fn softmax_cross_entropy(
    logits: &[f32],
    labels: &[u32],
    num_classes: usize,
    divisor: f32,
    d_logits: &mut [f32],
) -> f32 {
    assert_eq!(
        logits.len(),
        labels.len() * num_classes,
        "softmax_cross_entropy: logits are not [B, C]"
    );
    assert_eq!(
        d_logits.len(),
        logits.len(),
        "softmax_cross_entropy: d_logits are not [B, C]"
    );
    let mut total = 0.0f32;
    for ((row, d_row), &label) in logits
        .chunks_exact(num_classes)
        .zip(d_logits.chunks_exact_mut(num_classes))
        .zip(labels)
    {
        let label = label as usize;
        assert!(
            label < num_classes,
            "softmax_cross_entropy: label {label} ≥ {num_classes} classes"
        );
        log_softmax(row, d_row);
        total -= d_row[label];
        for (j, d) in d_row.iter_mut().enumerate() {
            let target = if j == label { 1.0 } else { 0.0 };
            *d = (d.exp() - target) / divisor;
        }
    }
    total
}

/// Squared error: returns the **sum** `Σ_i (outputs[i] − values[i])²` (in f64) and writes
/// `d_outputs[i] = 2 (outputs[i] − values[i]) / divisor` (`nn.MSELoss` with `reduction='mean'`
/// over `divisor` readouts).
///
/// - `outputs`, `values`, `d_outputs`: `[N]`.
///
/// # Panics
/// If the lengths disagree.
pub fn squared_error(outputs: &[f32], values: &[f32], divisor: f32, d_outputs: &mut [f32]) -> f64 {
    assert_eq!(
        outputs.len(),
        values.len(),
        "squared_error: one value per output"
    );
    assert_eq!(
        d_outputs.len(),
        outputs.len(),
        "squared_error: d_outputs are not [N]"
    );
    let mut loss_sum = 0.0f64;
    for ((d, &y), &t) in d_outputs.iter_mut().zip(outputs).zip(values) {
        let e = y - t;
        loss_sum += f64::from(e) * f64::from(e);
        *d = 2.0 * e / divisor;
    }
    loss_sum
}

#[cfg(test)]
mod tests {
    use super::*;

    /// PyTorch's `F.cross_entropy`: logits [2, 1, 0.1], target 0 → 0.41703002.
    #[test]
    fn cross_entropy_matches_pytorch_value() {
        let ce = cross_entropy(&[2.0, 1.0, 0.1], &[0], 3);
        assert!((ce - 0.417_03).abs() <= 1e-6, "{ce}");
    }

    /// Extreme logits stay finite: log_softmax [0, −1000, −2000], CE 0 / 2000.
    #[test]
    fn extreme_logits_are_stable() {
        let mut out = [0.0f32; 3];
        log_softmax(&[1000.0, 0.0, -1000.0], &mut out);
        assert_eq!(out, [0.0, -1000.0, -2000.0]);
        assert_eq!(cross_entropy(&[1000.0, 0.0, -1000.0], &[0], 3), 0.0);
        assert_eq!(cross_entropy(&[1000.0, 0.0, -1000.0], &[2], 3), 2000.0);
        let mut d = [0.0f32; 3];
        softmax_cross_entropy(&[1000.0, 0.0, -1000.0], &[2], 3, 1.0, &mut d);
        assert_eq!(d, [1.0, 0.0, -1.0]);
    }

    /// d_logits = (softmax − onehot) / divisor; each row of the gradient sums to 0.
    #[test]
    fn fused_gradient_is_softmax_minus_onehot_over_divisor() {
        let logits = [2.0, 1.0, 0.1, -1.0, 0.5, 3.0];
        let mut d = [0.0f32; 6];
        let sum = softmax_cross_entropy(&logits, &[0, 2], 3, 4.0, &mut d);
        let p0 = softmax(&logits[..3]);
        let p1 = softmax(&logits[3..]);
        let want = [
            (p0[0] - 1.0) / 4.0,
            p0[1] / 4.0,
            p0[2] / 4.0,
            p1[0] / 4.0,
            p1[1] / 4.0,
            (p1[2] - 1.0) / 4.0,
        ];
        for (g, w) in d.iter().zip(want) {
            assert!((g - w).abs() <= 1e-7, "{g} vs {w}");
        }
        assert!((sum - (-p0[0].ln() - p1[2].ln())).abs() <= 1e-5);
    }
}

/// Loss and accuracy sums over a batch's readouts (the supervised positions of a sequence task):
/// sums, not means, so that micro-batches and slices add up exactly before one division.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ReadoutSums {
    /// Sum (not mean) of the per-readout losses: cross-entropies in nats, or squared errors.
    pub loss_sum: f64,
    /// Readouts whose arg-max is the target (0 for a regression readout).
    pub correct: u64,
    /// Readouts counted.
    pub count: u64,
}

impl ReadoutSums {
    /// Adds another batch's (or slice's) sums.
    pub fn add(&mut self, other: ReadoutSums) {
        self.loss_sum += other.loss_sum;
        self.correct += other.correct;
        self.count += other.count;
    }

    /// Mean loss per readout (0 when there is none).
    pub fn mean_loss(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.loss_sum / self.count as f64
        }
    }

    /// Accuracy per readout, a fraction 0–1 (0 when there is none).
    pub fn accuracy(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.correct as f64 / self.count as f64
        }
    }
}
