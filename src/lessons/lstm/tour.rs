//! Lesson 4's tour: one step of the belt, stage by stage, then the forget gate moved towards 1,
//! and the question.

use super::text::LstmText;
use crate::kit::tour::{Tour, TourStep};
use unroll_core::config::lessons::{LstmConfig, LstmMode};

/// The gates set by hand, with at least two steps (a second one as the add button makes it),
/// and the scrubber at step 2, where C_{t−1} is the first step's C.
fn second_step(c: &mut LstmConfig) {
    c.mode = LstmMode::Gates;
    let n = c.gate_steps();
    for list in [&mut c.f, &mut c.i, &mut c.g, &mut c.o] {
        list.truncate(n);
        while list.len() < 2 {
            let last = list.last().copied().unwrap_or(0.5);
            list.push(last);
        }
    }
    c.t = 2;
}

/// The belt at step 2, at `stage`.
const fn belt(stage: usize) -> TourStep<LstmConfig> {
    TourStep {
        target: "lstm-belt",
        set: Some(second_step),
        stage: Some(stage),
    }
}

/// The tour; its cues are [`LstmText::tour`].
pub const TOUR: Tour<LstmConfig> = Tour {
    steps: &[
        belt(0),
        belt(1),
        belt(2),
        belt(3),
        belt(4),
        TourStep {
            target: "lstm-f-2",
            set: Some(|c| {
                if let Some(f) = c.f.get_mut(1) {
                    *f = 0.95;
                }
            }),
            stage: None,
        },
        TourStep::look("question"),
    ],
    cues: |l| LstmText::of(l).tour,
};
