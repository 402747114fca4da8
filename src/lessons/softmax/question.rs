//! Lesson 7's question: which class would have the lowest NLL?

use crate::kit::fmt::{fixed, short};
use crate::kit::question::{ready, Kind, Question, QuestionPanel, Reveal};
use leptos::prelude::*;
use unroll_core::config::lessons::{LessonState, SoftmaxConfig};
use unroll_core::config::Lang;
use unroll_core::lessons::questions::softmax_lowest;

fn config(s: &LessonState) -> Option<&SoftmaxConfig> {
    match s {
        LessonState::Softmax(c) => Some(c),
        _ => None,
    }
}

fn ask(_: &LessonState, lang: Lang) -> String {
    match lang {
        Lang::En => {
            "If it were the target, which class would have the lowest loss NLL = −log softmax(x)_k?"
                .to_owned()
        }
        Lang::Zh => {
            "如果把它作为目标类别，哪个类别的损失 NLL = −log softmax(x)_k 最低？".to_owned()
        }
    }
}

fn class(k: usize, lang: Lang) -> String {
    match lang {
        Lang::En => format!("class {k}"),
        Lang::Zh => format!("类别 {k}"),
    }
}

fn kind(s: &LessonState, lang: Lang) -> Kind {
    let logits = config(s).map(|c| c.logits.clone()).unwrap_or_default();
    Kind::Choice(
        logits
            .iter()
            .enumerate()
            .map(|(k, x)| match lang {
                Lang::En => format!("{} (x_{k} = {})", class(k, lang), short(*x)),
                Lang::Zh => format!("{}（x_{k} = {}）", class(k, lang), short(*x)),
            })
            .collect(),
    )
}

fn reveal(s: &LessonState, lang: Lang) -> Option<Reveal> {
    let a = softmax_lowest(config(s)?);
    let (k, nll, p) = (a.class, fixed(a.nll[a.class], 4), fixed(a.prob, 4));
    let next = a.runner_up.map(|(j, v)| (class(j, lang), fixed(v, 4)));
    let why = match (lang, next) {
        (Lang::En, next) => format!(
            "NLL = −log p_k and p_k grows with the logit x_k, so the largest logit gives the lowest: class {k}, {nll} (p = {p}){}.",
            next.map_or(String::new(), |(j, v)| format!("; next is {j} with {v}"))
        ),
        (Lang::Zh, next) => format!(
            "NLL = −log p_k，而 p_k 随 x_k 增大，所以最大的 x_k 给出最低的 NLL：类别 {k} 为 {nll}（p = {p}）{}。",
            next.map_or(String::new(), |(j, v)| format!("；其次是{j}，为 {v}"))
        ),
    };
    Some(Reveal {
        answer: a.answer(),
        shown: match lang {
            Lang::En => format!("{} (NLL {nll})", class(k, lang)),
            Lang::Zh => format!("{}（NLL {nll}）", class(k, lang)),
        },
        why,
    })
}

/// The question.
pub const QUESTION: Question = Question {
    key: "softmax-lowest",
    ask,
    kind,
    reveal,
    until: ready,
};

/// Lesson 7's questions, on the page's state.
#[component]
pub fn SoftmaxQuestions(
    /// The page's state.
    cfg: RwSignal<SoftmaxConfig>,
) -> impl IntoView {
    view! { <QuestionPanel question=QUESTION state=Signal::derive(move || LessonState::Softmax(cfg.get())) /> }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::lessons::questions::Answer;

    #[test]
    fn the_reveal_follows_the_state() {
        let c = SoftmaxConfig::default();
        let a = reveal(&LessonState::Softmax(c.clone()), Lang::En).unwrap();
        assert_eq!(a.answer, Answer::Choice(1));
        assert!(a.why.contains("next is class 0"), "{}", a.why);
        let b = reveal(
            &LessonState::Softmax(SoftmaxConfig {
                logits: vec![0.5, -1.0, 4.0],
                ..c
            }),
            Lang::Zh,
        )
        .unwrap();
        assert_eq!(b.answer, Answer::Choice(2));
        assert!(b.shown.starts_with("类别 2"), "{}", b.shown);
    }
}
