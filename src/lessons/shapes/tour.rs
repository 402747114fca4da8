//! Lesson 2's tour: the call, a second layer in the grid and the count, and the question.

use super::text::ShapesText;
use crate::kit::tour::{Tour, TourStep};
use unroll_core::config::lessons::ShapesConfig;

/// The tour; its cues are [`ShapesText::tour`].
pub const TOUR: Tour<ShapesConfig> = Tour {
    steps: &[
        TourStep::look("shapes-code"),
        TourStep {
            target: "shapes-num_layers",
            set: Some(|c| c.num_layers = 2),
            stage: None,
        },
        TourStep::look("shapes-grid"),
        TourStep::look("shapes-param-count"),
        TourStep::look("question"),
    ],
    cues: |l| ShapesText::of(l).tour,
};
