//! Lesson 6's tour: the step where the two directions meet, stage by stage, then Play, and
//! the question.

use super::text::BidirText;
use crate::kit::tour::{Tour, TourStep};
use unroll_core::config::lessons::BidirConfig;

/// The scrubber at the first step where a position has been read by both directions: after
/// k steps the forward direction has read positions < k and the backward one positions
/// ≥ n − k, so position k − 1 has both once 2k − 1 ≥ n.
fn meeting_step(c: &mut BidirConfig) {
    let n = c.tokens.len().max(1);
    c.set_step((n + 2) / 2);
}

/// The meeting step at `stage`.
const fn meet(stage: usize) -> TourStep<BidirConfig> {
    TourStep {
        target: "bidir-diagram",
        set: Some(meeting_step),
        stage: Some(stage),
    }
}

/// The tour; its cues are [`BidirText::tour`].
pub const TOUR: Tour<BidirConfig> = Tour {
    steps: &[
        meet(0),
        meet(1),
        meet(2),
        TourStep::look("bidir-play"),
        TourStep::look("question"),
    ],
    cues: |l| BidirText::of(l).tour,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_meeting_step_joins_a_position_for_every_length() {
        for n in 1..=12 {
            let mut c = BidirConfig {
                tokens: (0..n).map(|i| i.to_string()).collect(),
                ..BidirConfig::default()
            };
            meeting_step(&mut c);
            let k = c.step_shown();
            // Position k − 1 is read forward at step k and backward since step n − (k − 1).
            assert!(2 * k > n, "n = {n}: step {k}");
            // One step earlier no position had both.
            assert!(
                k == 1 || 2 * (k - 1) - 1 < n,
                "n = {n}: step {k} is not the first"
            );
        }
    }
}
