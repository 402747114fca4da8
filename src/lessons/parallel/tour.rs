//! Lesson 8's tour: the sequential cell, the measurement, the chart, and the question.

use super::text::ParallelText;
use crate::kit::tour::{Tour, TourStep};
use unroll_core::config::lessons::ParallelConfig;

/// The tour; its cues are [`ParallelText::tour`].
pub const TOUR: Tour<ParallelConfig> = Tour {
    steps: &[
        TourStep::look("parallel-cell"),
        TourStep::look("parallel-run"),
        TourStep::look("parallel-chart"),
        TourStep::look("question"),
    ],
    cues: |l| ParallelText::of(l).tour,
};
