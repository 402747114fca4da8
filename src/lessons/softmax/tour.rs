//! Lesson 7's tour: the stable shift, one logit raised, the loss, and the question.

use super::text::SoftmaxText;
use crate::kit::tour::{Tour, TourStep};
use unroll_core::config::lessons::SoftmaxConfig;

/// The tour; its cues are [`SoftmaxText::tour`].
pub const TOUR: Tour<SoftmaxConfig> = Tour {
    steps: &[
        TourStep::look("softmax-max"),
        TourStep {
            target: "softmax-logits-1",
            set: Some(|c| {
                if let Some(z) = c.logits.first_mut() {
                    *z = 8.0;
                }
            }),
            stage: None,
        },
        TourStep::look("softmax-nll"),
        TourStep::look("question"),
    ],
    cues: |l| SoftmaxText::of(l).tour,
};
