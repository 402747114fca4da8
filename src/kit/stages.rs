//! Stages within one time step: a diagram that draws a step in parts (lesson 4's belt: the
//! carried state, the forget gate, the write, the sum, the output) shows them one after the
//! other while Play runs, and the step controls can stop at any of them.
//!
//! A lesson names its stages once ([`Stages::new`]); the diagram reads [`Stages::reached`] for
//! each part it draws and writes the stage's name into its `data-stage` attribute (the tests'
//! hook). Outside Play the stage is the last one: the whole step is drawn. The motion between
//! stages is a CSS transition on elements that stay in place, which `prefers-reduced-motion`
//! turns off: the stages still change, without tweening.

use crate::shell::i18n::Lang;
use leptos::prelude::*;

/// Where Play goes next from step `t` (of `1..=max_t`) at stage `stage` (of `0..n_stages`):
/// the next stage of the same step, else stage 0 of the next step; `None` at the last stage of
/// the last step (Play stops there).
pub fn advance(t: usize, stage: usize, max_t: usize, n_stages: usize) -> Option<(usize, usize)> {
    let last = n_stages.max(1) - 1;
    if stage < last {
        Some((t, stage + 1))
    } else if t < max_t {
        Some((t + 1, 0))
    } else {
        None
    }
}

/// Where Play starts from step `t` at stage `stage`: at the end (the last stage of the last
/// step) it starts over at step 1, stage 0; in the middle of a step it goes on from there; at
/// step 1 shown whole (after ◀◀) it plays step 1's stages; another whole step shown is
/// followed by the next step's first stage.
pub fn play_from(t: usize, stage: usize, max_t: usize, n_stages: usize) -> (usize, usize) {
    let last = n_stages.max(1) - 1;
    if stage < last || t <= 1 {
        (t.max(1), if stage < last { stage } else { 0 })
    } else {
        advance(t, stage, max_t, n_stages).unwrap_or((1, 0))
    }
}

/// A lesson's stages and the one shown.
#[derive(Clone, Copy)]
pub struct Stages {
    /// The stage shown, `0..names.len()`; the last one draws the whole step.
    pub now: RwSignal<usize>,
    /// The stages' names, as the diagram's `data-stage` writes them.
    pub names: &'static [&'static str],
    /// A stage's name in the page's language (the stage slider's label, the tour's cues).
    pub label: fn(Lang, usize) -> &'static str,
}

impl Stages {
    /// The stages `names`, showing the whole step.
    pub fn new(names: &'static [&'static str], label: fn(Lang, usize) -> &'static str) -> Self {
        Stages {
            now: RwSignal::new(names.len().max(1) - 1),
            names,
            label,
        }
    }

    /// The last stage's index (the whole step).
    pub fn last(&self) -> usize {
        self.names.len().max(1) - 1
    }

    /// Whether stage `k` has been reached (reactive).
    pub fn reached(&self, k: usize) -> bool {
        self.now.get() >= k
    }

    /// The name of the stage shown (reactive), for `data-stage`.
    pub fn name(&self) -> &'static str {
        let k = self.now.get();
        self.names.get(k).copied().unwrap_or("")
    }

    /// Shows the whole step.
    pub fn show_all(&self) {
        self.now.set(self.last());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn play_walks_every_stage_of_every_step_then_stops() {
        let (max_t, n) = (2, 3);
        let mut at = play_from(2, 2, max_t, n);
        assert_eq!(at, (1, 0), "from the end Play starts over");
        let mut seen = vec![at];
        while let Some(next) = advance(at.0, at.1, max_t, n) {
            seen.push(next);
            at = next;
        }
        assert_eq!(seen, vec![(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]);
    }

    #[test]
    fn play_goes_on_mid_step_and_after_a_whole_step() {
        assert_eq!(play_from(1, 1, 3, 5), (1, 1));
        assert_eq!(play_from(2, 4, 3, 5), (3, 0));
        assert_eq!(play_from(3, 4, 3, 5), (1, 0));
        // ◀◀ shows step 1 whole: Play then plays step 1's stages, not step 2's.
        assert_eq!(play_from(1, 4, 3, 5), (1, 0));
        assert_eq!(play_from(1, 0, 1, 1), (1, 0));
        // One stage: whole steps, as without stages.
        assert_eq!(advance(1, 0, 3, 1), Some((2, 0)));
        assert_eq!(advance(3, 0, 3, 1), None);
        assert_eq!(advance(3, 0, 3, 0), None);
    }
}
