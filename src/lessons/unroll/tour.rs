//! Lesson 1's tour: step 2 of the chain, stage by stage, then W_hh set to 0, and the
//! question.

use super::text::UnrollText;
use crate::kit::tour::{Tour, TourStep};
use unroll_core::config::lessons::UnrollConfig;

/// One unit (the sliders' mode), at least two inputs, the scrubber at step 2.
fn second_step(c: &mut UnrollConfig) {
    c.hidden_size = 1;
    if c.x.len() < 2 {
        c.x.push(1.0);
    }
    c.t = 2;
}

/// The chain at step 2, at `stage`.
const fn chain(stage: usize) -> TourStep<UnrollConfig> {
    TourStep {
        target: "unroll-diagram",
        set: Some(second_step),
        stage: Some(stage),
    }
}

/// The tour; its cues are [`UnrollText::tour`].
pub const TOUR: Tour<UnrollConfig> = Tour {
    steps: &[
        chain(0),
        chain(1),
        chain(2),
        TourStep {
            target: "unroll-w_hh",
            set: Some(|c| c.w_hh = 0.0),
            stage: None,
        },
        TourStep::look("question"),
    ],
    cues: |l| UnrollText::of(l).tour,
};
