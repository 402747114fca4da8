//! Lesson 8's tour: the sequential cell, the measurement, the chart, and the checkpoint.

use super::super::tour::{Tour, TourStep};
use super::text::ParallelText;
use unroll_core::config::lessons::ParallelConfig;

/// The tour; its cues are [`ParallelText::tour`].
pub const TOUR: Tour<ParallelConfig> = Tour {
    steps: &[
        TourStep {
            target: "parallel-cell",
            set: None,
            stage: None,
        },
        TourStep {
            target: "parallel-run",
            set: None,
            stage: None,
        },
        TourStep {
            target: "parallel-chart",
            set: None,
            stage: None,
        },
        TourStep {
            target: "checkpoint",
            set: None,
            stage: None,
        },
    ],
    cues: |l| ParallelText::of(l).tour,
};
