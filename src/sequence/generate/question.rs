//! The generation lab's question, asked before the bidirectional pair runs: will the
//! bidirectional model write better names? Answered from the two runs the page compares by
//! [`BidirComparison::answer`] (its samples' bigram loss against the unidirectional model's),
//! the figures the verdict sentence states, so the two cannot disagree. Until the learner has
//! revealed the answer (or skipped) the verdict and its explanation stay off the page
//! ([`answered`]), and the bidirectional run's figures are veiled ([`bidir_veiled`]).

use super::text::GenerateText;
use crate::kit::question::{veiled, Asked, Kind, Question, QuestionPanel, Reveal};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use unroll_core::config::Lang;
use unroll_core::lessons::lab_questions::{BidirComparison, GENERATE_BIDIR};

/// What the question is asked about: the two runs compared (None until both are trained and
/// their samples measured).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GenerateAsked {
    /// Both directions' held-out loss and samples' figures.
    pub comparison: Option<BidirComparison>,
}

impl Asked for GenerateAsked {
    fn keep(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    fn restore(_: &str, kept: &str) -> Option<Self> {
        serde_json::from_str(kept).ok()
    }
}

fn ask(_: &GenerateAsked, lang: Lang) -> String {
    GenerateText::of(lang).question.to_owned()
}

fn kind(_: &GenerateAsked, lang: Lang) -> Kind {
    Kind::Choice(
        GenerateText::of(lang)
            .question_choices
            .iter()
            .map(|c| (*c).to_owned())
            .collect(),
    )
}

fn until(s: &GenerateAsked, lang: Lang) -> Option<String> {
    s.comparison
        .is_none()
        .then(|| GenerateText::of(lang).question_until.to_owned())
}

fn reveal(s: &GenerateAsked, lang: Lang) -> Option<Reveal> {
    let c = s.comparison?;
    let t = GenerateText::of(lang);
    let answer = c.answer();
    let i = usize::from(c.samples_worse());
    let (f2, f3) = (|v: f64| format!("{v:.2}"), |v: f64| format!("{v:.3}"));
    Some(Reveal {
        answer,
        shown: t.question_choices[i].to_owned(),
        why: (t.question_why)([
            &f3(c.loss[1]),
            &f3(c.loss[0]),
            &f3(c.bigram[1]),
            &f3(c.bigram[0]),
            &f2(c.length[1]),
            &f2(c.length[0]),
        ]),
    })
}

/// The question.
pub const QUESTION: Question<GenerateAsked> = Question {
    key: GENERATE_BIDIR,
    ask,
    kind,
    reveal,
    until,
};

/// Whether the learner has answered (revealed or skipped with both runs measured), or the
/// page asks no questions (`quiz=0`): only then are the verdict and the bidirectional run's
/// figures shown (reactive).
pub fn answered() -> Signal<bool> {
    let waiting = veiled(GENERATE_BIDIR);
    Signal::derive(move || !waiting.get())
}

/// Whether the figures of the bidirectional run shown are veiled now: the page shows that
/// direction (its switch) and the learner has not answered yet ([`answered`]).
pub fn bidir_veiled(model: super::GenerateModel) -> Signal<bool> {
    let shown = answered();
    Signal::derive(move || model.shown.get() == 1 && !shown.get())
}

/// The question on the comparison `comparison`; `started`: the bidirectional run has started
/// (a prediction locked after that is kept as answered after seeing).
#[component]
pub fn GenerateQuestion(
    comparison: Memo<Option<BidirComparison>>,
    started: Signal<bool>,
) -> impl IntoView {
    let state = Signal::derive(move || GenerateAsked {
        comparison: comparison.get(),
    });
    view! { <QuestionPanel question=QUESTION state=state started=started /> }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::lessons::questions::Answer;

    fn leak() -> GenerateAsked {
        GenerateAsked {
            comparison: Some(BidirComparison {
                loss: [2.017, 0.0007],
                bigram: [2.359, 5.031],
                length: [4.98, 1.01],
                data: (6.34, 2.659),
            }),
        }
    }

    #[test]
    fn the_reveal_quotes_both_runs() {
        let r = reveal(&leak(), Lang::En).unwrap();
        assert_eq!(
            (r.answer, r.shown.as_str()),
            (Answer::Choice(1), "No: it will write worse names")
        );
        for figure in ["0.001", "2.017", "5.031", "2.359", "1.01", "4.98"] {
            assert!(r.why.contains(figure), "{figure} in {}", r.why);
        }
        let zh = reveal(&leak(), Lang::Zh).unwrap();
        assert!(
            zh.why.contains("5.031") && zh.shown.contains("更差"),
            "{zh:?}"
        );
    }

    #[test]
    fn the_answer_waits_for_both_runs_and_is_kept() {
        let none = GenerateAsked { comparison: None };
        assert!(reveal(&none, Lang::En).is_none());
        assert!(until(&none, Lang::En)
            .unwrap()
            .contains("Train both directions"));
        assert!(until(&none, Lang::Zh).unwrap().contains("训练两个方向"));
        assert_eq!(until(&leak(), Lang::En), None);
        assert_eq!(
            GenerateAsked::restore(GENERATE_BIDIR, &leak().keep()),
            Some(leak())
        );
        assert_eq!(
            GenerateAsked::restore(GENERATE_BIDIR, &none.keep()),
            Some(none)
        );
    }
}
