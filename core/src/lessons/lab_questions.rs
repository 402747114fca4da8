//! "Predict, then see" on the two labs: the questions about a run the learner trains, answered
//! from the run's own results by the code that judges them on the page.
//!
//! - Names lab ([`NAMES_BASELINE`]): after the first epoch, is the validation accuracy above the
//!   majority-class baseline? Answered from the epoch's [`ValReport`] (its confusion matrix):
//!   [`ValReport::accuracy`] against [`ValReport::majority_baseline`].
//! - Long-memory lab ([`DELAY_CHANCE`]): at the page's delay, which cells leave chance? Answered
//!   from the [`Outcome`] the page's verdict shows ([`crate::delay::outcome::judge`] on every
//!   finished seed), so the question and the verdict cannot disagree.
//! - Generation lab ([`GENERATE_BIDIR`]): will the bidirectional model write better names than
//!   the unidirectional one? Answered from the two runs the page compares
//!   ([`BidirComparison`]): its samples' bigram loss against the unidirectional model's, the
//!   figures the page's verdict sentence states.
//!
//! A lab's answer needs a finished run: until then the functions say what is missing
//! ([`Pending`]) and the page keeps Reveal disabled with that sentence.

use super::questions::Answer;
use crate::delay::outcome::{CellRange, Outcome};
use crate::math::params::CellKind;
use crate::task::names::ValReport;
use serde::{Deserialize, Serialize};

/// The names lab's question key.
pub const NAMES_BASELINE: &str = "names-baseline";
/// The long-memory lab's question key.
pub const DELAY_CHANCE: &str = "delay-chance";
/// The generation lab's question key.
pub const GENERATE_BIDIR: &str = "generate-bidir";

/// The labs' questions: `(page key, question key)`; the page key is the URL's `lesson`.
pub const LAB_QUESTIONS: &[(&str, &str)] = &[
    ("names", NAMES_BASELINE),
    ("delay", DELAY_CHANCE),
    ("generate", GENERATE_BIDIR),
];

/// The question keys of the lab page `page` (`names`, `delay` or `generate`).
pub fn lab_keys(page: &str) -> impl Iterator<Item = &'static str> + '_ {
    LAB_QUESTIONS
        .iter()
        .filter(move |(p, _)| *p == page)
        .map(|(_, k)| *k)
}

/// Why a lab's question has no answer yet.
#[derive(Clone, Debug, PartialEq)]
pub enum Pending {
    /// No validation report of epoch 1 (no run, or the run has not finished its first epoch).
    NoFirstEpoch,
    /// `cell` has `have` finished seeds of the `need` the verdict waits for.
    Runs {
        /// The first cell short of runs.
        cell: CellKind,
        /// Finished seeds.
        have: usize,
        /// Seeds the page runs.
        need: usize,
    },
    /// The seeds of `cell` disagree (or sit between the thresholds): the page claims nothing.
    Unclear {
        /// The cell.
        cell: CellRange,
    },
    /// The cells that left chance are not one of the question's choices.
    NotAChoice {
        /// The cells that left chance.
        learned: Vec<CellKind>,
    },
}

// ------------------------------------------------------------------------------------ names lab

/// The names lab's answer: the first epoch's validation accuracy against the majority-class
/// baseline. Choice 0: above the baseline; 1: at or below it.
#[derive(Clone, Debug, PartialEq)]
pub struct AboveBaseline {
    /// The epoch of the report (1).
    pub epoch: u32,
    /// Validation accuracy, 0–1 (correct names over validation names).
    pub accuracy: f32,
    /// Share of the validation names in the largest class, 0–1.
    pub baseline: f32,
    /// The largest class's index (the first one on a tie).
    pub majority: usize,
    /// Validation names.
    pub total: usize,
}

impl AboveBaseline {
    /// The answer: 0 above, 1 at or below.
    pub fn answer(&self) -> Answer {
        Answer::Choice(usize::from(self.accuracy <= self.baseline))
    }
}

/// The names lab's answer from the first epoch's validation report.
///
/// # Errors
/// [`Pending::NoFirstEpoch`] without a report, with a report of another epoch, or with an
/// empty one.
pub fn names_above_baseline(first: Option<&ValReport>) -> Result<AboveBaseline, Pending> {
    let r = first
        .filter(|r| r.epoch == 1 && r.total() > 0)
        .ok_or(Pending::NoFirstEpoch)?;
    let counts = r.class_counts();
    let max = counts.iter().copied().max().unwrap_or(0);
    Ok(AboveBaseline {
        epoch: r.epoch,
        accuracy: r.accuracy(),
        baseline: r.majority_baseline(),
        majority: counts.iter().position(|&n| n == max).unwrap_or(0),
        total: r.total(),
    })
}

// ------------------------------------------------------------------------------ long-memory lab

/// The long-memory lab's choices for the cells `cells` (the page's `cell` key, in its order):
/// each set of cells that may be the ones to leave chance — every cell alone, the LSTM and the
/// GRU together (with three cells), all of them (with two or more), none.
pub fn delay_choices(cells: &[CellKind]) -> Vec<Vec<CellKind>> {
    let mut choices: Vec<Vec<CellKind>> = cells.iter().map(|&c| vec![c]).collect();
    if cells.len() == 3 {
        choices.push(vec![CellKind::Lstm, CellKind::Gru]);
    }
    if cells.len() >= 2 {
        choices.push(cells.to_vec());
    }
    choices.push(Vec::new());
    choices
}

/// The long-memory lab's answer: which cells left chance in every seed.
#[derive(Clone, Debug, PartialEq)]
pub struct LeftChance {
    /// The cells that left chance in every seed, in the page's order.
    pub learned: Vec<CellKind>,
    /// Every cell's seeds (lowest, highest, mean final held-out accuracy).
    pub ranges: Vec<CellRange>,
    /// Chance accuracy 1/V (None where the outcome does not carry it: every seed solved).
    pub chance: Option<f64>,
    /// The index of `learned` in [`delay_choices`].
    pub choice: usize,
}

impl LeftChance {
    /// The answer: the index of the choice.
    pub fn answer(&self) -> Answer {
        Answer::Choice(self.choice)
    }
}

/// The long-memory lab's answer for the page's cells `cells` from the verdict's `outcome`.
///
/// # Errors
/// [`Pending::Runs`] until every seed of every cell has finished, [`Pending::Unclear`] when
/// the verdict claims nothing, [`Pending::NotAChoice`] when the cells that left chance are
/// not one of [`delay_choices`].
pub fn delay_left_chance(cells: &[CellKind], outcome: &Outcome) -> Result<LeftChance, Pending> {
    let (ranges, learned_ranges, chance): (Vec<CellRange>, Vec<CellRange>, Option<f64>) =
        match outcome {
            Outcome::NotEnoughRuns { cell, have, need } => {
                return Err(Pending::Runs {
                    cell: *cell,
                    have: *have,
                    need: *need,
                })
            }
            Outcome::Unclear { cell, .. } => return Err(Pending::Unclear { cell: *cell }),
            Outcome::AllSolved { cells } => (cells.clone(), cells.clone(), None),
            Outcome::AllLearned { cells, chance } => (cells.clone(), cells.clone(), Some(*chance)),
            Outcome::Leads { leader, others } => {
                let all: Vec<CellRange> = std::iter::once(*leader)
                    .chain(others.iter().copied())
                    .collect();
                (all.clone(), all, None)
            }
            Outcome::AllAtChance { cells, chance } => (cells.clone(), Vec::new(), Some(*chance)),
            Outcome::OnlySome {
                learned,
                at_chance,
                chance,
            } => (
                learned.iter().chain(at_chance).copied().collect(),
                learned.clone(),
                Some(*chance),
            ),
        };
    let learned: Vec<CellKind> = cells
        .iter()
        .copied()
        .filter(|c| learned_ranges.iter().any(|r| r.cell == *c))
        .collect();
    let mut ranges = ranges;
    ranges.sort_by_key(|r| cells.iter().position(|c| *c == r.cell));
    let same_cells = |choice: &Vec<CellKind>| {
        choice.len() == learned.len() && choice.iter().all(|c| learned.contains(c))
    };
    let choice = delay_choices(cells)
        .iter()
        .position(same_cells)
        .ok_or_else(|| Pending::NotAChoice {
            learned: learned.clone(),
        })?;
    Ok(LeftChance {
        learned,
        ranges,
        chance,
        choice,
    })
}

// ------------------------------------------------------------------------------- generation lab

/// The generation lab's two runs compared: the same model without (index 0) and with (index 1)
/// a backward direction, each measured on the held-out names (teacher forcing) and on the names
/// it writes ([`crate::task::generate::sample::quality`], averaged over the languages).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct BidirComparison {
    /// Held-out loss per character with teacher forcing, nats: unidirectional, bidirectional.
    pub loss: [f64; 2],
    /// Bigram loss per character of the samples' letters, nats (lower: letter pairs more like
    /// the training names'): unidirectional, bidirectional.
    pub bigram: [f64; 2],
    /// Mean length of the samples, letters: unidirectional, bidirectional.
    pub length: [f64; 2],
    /// The data's mean length (letters) and bigram loss per character (nats).
    pub data: (f64, f64),
}

impl BidirComparison {
    /// The bidirectional run's teacher-forced loss is lower.
    pub fn loss_lower(&self) -> bool {
        self.loss[1] < self.loss[0]
    }

    /// The bidirectional run's samples are worse: their letter pairs are less like the data's
    /// (a higher bigram loss; an equal one is not worse).
    pub fn samples_worse(&self) -> bool {
        self.bigram[1] > self.bigram[0]
    }

    /// The leak the course's claim predicts: a lower teacher-forced loss and worse samples.
    pub fn leaks(&self) -> bool {
        self.loss_lower() && self.samples_worse()
    }

    /// The answer to "will the bidirectional model write better names?": choice 0 yes (its
    /// samples are not worse), 1 no (they are worse).
    pub fn answer(&self) -> Answer {
        Answer::Choice(usize::from(self.samples_worse()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::delay::outcome::{judge, CellAccuracies};

    fn report(epoch: u32, confusion: Vec<u32>, c: usize) -> ValReport {
        ValReport {
            epoch,
            num_classes: c,
            confusion,
        }
    }

    #[test]
    fn the_names_answer_follows_the_confusion_matrix() {
        // 10 names, class 0 has 6 (baseline 0.6), 6 right (accuracy 0.6).
        let level = report(1, vec![5, 1, 0, 2, 1, 1, 0, 0, 0], 3);
        let a = names_above_baseline(Some(&level)).unwrap();
        assert_eq!((a.total, a.majority), (10, 0));
        assert!((a.accuracy - 0.6).abs() < 1e-6 && (a.baseline - 0.6).abs() < 1e-6);
        // Accuracy equal to the baseline is not above it.
        assert_eq!(a.answer(), Answer::Choice(1));
        let better = report(1, vec![6, 0, 0, 0, 2, 0, 0, 0, 1], 3);
        assert_eq!(
            names_above_baseline(Some(&better)).unwrap().answer(),
            Answer::Choice(0)
        );
        // Always predicting one class of a 2-class set with 3:1 → exactly the baseline.
        let majority_only = report(1, vec![3, 0, 1, 0], 2);
        let m = names_above_baseline(Some(&majority_only)).unwrap();
        assert_eq!(
            (m.accuracy, m.baseline, m.answer()),
            (0.75, 0.75, Answer::Choice(1))
        );
    }

    #[test]
    fn the_names_answer_waits_for_the_first_epoch() {
        assert_eq!(names_above_baseline(None), Err(Pending::NoFirstEpoch));
        let second = report(2, vec![1, 0, 0, 1], 2);
        assert_eq!(
            names_above_baseline(Some(&second)),
            Err(Pending::NoFirstEpoch)
        );
        let empty = report(1, vec![0; 4], 2);
        assert_eq!(
            names_above_baseline(Some(&empty)),
            Err(Pending::NoFirstEpoch)
        );
    }

    fn cells(accs: &[(CellKind, &[f64])]) -> Vec<CellAccuracies> {
        accs.iter()
            .map(|(c, a)| CellAccuracies {
                cell: *c,
                accs: a.to_vec(),
            })
            .collect()
    }

    #[test]
    fn the_delay_answer_follows_the_verdict() {
        use CellKind::{Gru, Lstm, Rnn};
        let both = [Rnn, Lstm];
        assert_eq!(
            delay_choices(&both),
            vec![vec![Rnn], vec![Lstm], vec![Rnn, Lstm], vec![]]
        );
        let chance = 0.1;
        // The course's delay-32 picture: the LSTM leaves chance, the RNN does not.
        let o = judge(
            &cells(&[(Rnn, &[0.10, 0.11]), (Lstm, &[0.6, 0.7])]),
            2,
            chance,
        );
        let a = delay_left_chance(&both, &o).unwrap();
        assert_eq!(
            (a.learned.clone(), a.answer()),
            (vec![Lstm], Answer::Choice(1))
        );
        assert_eq!(
            a.ranges.iter().map(|r| r.cell).collect::<Vec<_>>(),
            vec![Rnn, Lstm]
        );
        // Both stay at chance → "none" (the last choice).
        let o = judge(
            &cells(&[(Rnn, &[0.10, 0.1]), (Lstm, &[0.1, 0.1])]),
            2,
            chance,
        );
        assert_eq!(
            delay_left_chance(&both, &o).unwrap().answer(),
            Answer::Choice(3)
        );
        // Both leave chance → "both".
        let o = judge(
            &cells(&[(Rnn, &[0.5, 0.6]), (Lstm, &[0.5, 0.7])]),
            2,
            chance,
        );
        assert_eq!(
            delay_left_chance(&both, &o).unwrap().answer(),
            Answer::Choice(2)
        );
        // Three cells, the gated two leave chance → the LSTM-and-GRU choice.
        let all = [Rnn, Lstm, Gru];
        let o = judge(
            &cells(&[(Rnn, &[0.1]), (Lstm, &[0.9]), (Gru, &[0.8])]),
            1,
            chance,
        );
        assert_eq!(
            delay_left_chance(&all, &o).unwrap().answer(),
            Answer::Choice(3)
        );
    }

    #[test]
    fn the_delay_answer_waits_for_every_seed_and_a_clear_verdict() {
        use CellKind::{Lstm, Rnn};
        let both = [Rnn, Lstm];
        let o = judge(&cells(&[(Rnn, &[0.1]), (Lstm, &[0.6, 0.7])]), 2, 0.1);
        assert_eq!(
            delay_left_chance(&both, &o),
            Err(Pending::Runs {
                cell: Rnn,
                have: 1,
                need: 2
            })
        );
        // Seeds that disagree: one at chance, one far above.
        let o = judge(&cells(&[(Rnn, &[0.1, 0.9]), (Lstm, &[0.6, 0.7])]), 2, 0.1);
        assert!(matches!(
            delay_left_chance(&both, &o),
            Err(Pending::Unclear { .. })
        ));
    }

    #[test]
    fn the_generate_answer_follows_the_samples_not_the_loss() {
        // The documented one-epoch pair: the bidirectional loss near zero, its samples collapsed.
        let leak = BidirComparison {
            loss: [2.017, 0.0007],
            bigram: [2.359, 5.031],
            length: [4.98, 1.01],
            data: (6.34, 2.659),
        };
        assert!(leak.loss_lower() && leak.samples_worse() && leak.leaks());
        assert_eq!(leak.answer(), Answer::Choice(1));
        // A lower loss alone does not make better names; equal samples are not worse.
        let same = BidirComparison {
            bigram: [2.4, 2.4],
            ..leak
        };
        assert!(same.loss_lower() && !same.samples_worse() && !same.leaks());
        assert_eq!(same.answer(), Answer::Choice(0));
        let kept: BidirComparison =
            serde_json::from_str(&serde_json::to_string(&leak).unwrap()).unwrap();
        assert_eq!(kept, leak);
        assert_eq!(lab_keys("generate").collect::<Vec<_>>(), [GENERATE_BIDIR]);
    }
}
