//! Lesson 3's tour: the running product, made to vanish and to explode, and the question.

use super::text::BpttText;
use crate::kit::tour::{Tour, TourStep};
use unroll_core::config::lessons::{BpttAct, BpttConfig};

/// The tour; its cues are [`BpttText::tour`].
pub const TOUR: Tour<BpttConfig> = Tour {
    steps: &[
        TourStep::look("bptt-chart"),
        TourStep {
            target: "bptt-w_hh",
            set: Some(|c| {
                c.w_hh = 0.5;
                c.steps = 20;
            }),
            stage: None,
        },
        TourStep {
            target: "bptt-act-linear",
            set: Some(|c| {
                c.act = BpttAct::Linear;
                c.w_hh = 1.5;
            }),
            stage: None,
        },
        TourStep::look("question"),
    ],
    cues: |l| BpttText::of(l).tour,
};
