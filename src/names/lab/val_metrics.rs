//! The metrics panel's model: one epoch's validation report as the panel shows it (overall and
//! per-class accuracy, the majority-class baseline, the confusion matrix with each row's
//! shares), from the session's [`ValReport`]. Plain data, no Leptos; the panel is
//! [`super::metrics`].

use unroll_core::task::names::ValReport;

/// One epoch's validation report, as the panel shows it (plain data).
#[derive(Clone, Debug, PartialEq)]
pub struct ValMetrics {
    /// 1-based epoch.
    pub epoch: u32,
    /// Number of classes C.
    pub num_classes: usize,
    /// `[C, C]` counts, row = true class, column = predicted.
    pub confusion: Vec<u32>,
    /// Correct / validation names per class (None where a class has none).
    pub per_class: Vec<Option<f32>>,
    /// Overall validation accuracy (0–1).
    pub accuracy: f32,
    /// Majority-class baseline (0–1).
    pub baseline: f32,
    /// Sum of the matrix (the validation size).
    pub total: usize,
}

impl ValMetrics {
    /// Copies what the panel needs out of the session's report.
    pub fn from_report(r: &ValReport) -> Self {
        ValMetrics {
            epoch: r.epoch,
            num_classes: r.num_classes,
            confusion: r.confusion.clone(),
            per_class: r.per_class_accuracy(),
            accuracy: r.accuracy(),
            baseline: r.majority_baseline(),
            total: r.total(),
        }
    }

    /// `[C, C]` each count over its row's sum (the share of a true class predicted as each
    /// class, 0–1; 0 for a row without names): the confusion heatmap's shading.
    pub fn row_shares(&self) -> Vec<f32> {
        let c = self.num_classes;
        self.confusion
            .chunks(c.max(1))
            .flat_map(|row| {
                let sum: u32 = row.iter().sum();
                row.iter()
                    .map(move |&n| if sum == 0 { 0.0 } else { n as f32 / sum as f32 })
            })
            .collect()
    }
}

/// Index and share of the largest count (first on ties); None when all are zero.
pub fn majority(counts: &[usize]) -> Option<(usize, f32)> {
    let total: usize = counts.iter().sum();
    let (i, &n) = counts
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(&a.0)))?;
    (total > 0).then(|| (i, n as f32 / total as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three classes with 4, 2 and 0 validation names:
    ///
    /// ```text
    ///            predicted 0  1  2
    /// true 0               3  1  0
    /// true 1               1  1  0
    /// true 2               0  0  0
    /// ```
    fn report() -> ValReport {
        let mut r = ValReport::new(2, 3);
        for (label, predicted) in [(0, 0), (0, 0), (0, 0), (0, 1), (1, 0), (1, 1)] {
            r.add(label, predicted);
        }
        r
    }

    #[test]
    fn metrics_of_a_known_confusion_matrix() {
        let m = ValMetrics::from_report(&report());
        assert_eq!((m.epoch, m.num_classes, m.total), (2, 3, 6));
        assert_eq!(m.confusion, [3, 1, 0, 1, 1, 0, 0, 0, 0]);
        // Diagonal 3 + 1 of 6 names.
        assert_eq!(m.accuracy, 4.0 / 6.0);
        assert_eq!(m.per_class, [Some(3.0 / 4.0), Some(1.0 / 2.0), None]);
        // The largest class has 4 of the 6 names.
        assert_eq!(m.baseline, 4.0 / 6.0);
        assert_eq!(
            m.row_shares(),
            [0.75, 0.25, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0]
        );
    }

    #[test]
    fn majority_takes_the_first_largest_count() {
        assert_eq!(majority(&[1, 5, 5, 0]), Some((1, 5.0 / 11.0)));
        assert_eq!(majority(&[0, 0]), None);
        assert_eq!(majority(&[]), None);
    }
}
