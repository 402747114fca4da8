//! Lesson 5's tour: z near 0 and near 1, PyTorch's convention beside the course's, and the question.

use super::text::GruText;
use crate::kit::tour::{Tour, TourStep};
use unroll_core::config::lessons::{GruConfig, GruConvention};

/// The tour; its cues are [`GruText::tour`].
pub const TOUR: Tour<GruConfig> = Tour {
    steps: &[
        TourStep {
            target: "gru-z",
            set: Some(|c| c.z = 0.05),
            stage: None,
        },
        TourStep {
            target: "gru-blend",
            set: Some(|c| c.z = 0.95),
            stage: None,
        },
        TourStep {
            target: "gru-convention",
            set: Some(|c| c.convention = GruConvention::Pytorch),
            stage: None,
        },
        TourStep::look("question"),
    ],
    cues: |l| GruText::of(l).tour,
};
