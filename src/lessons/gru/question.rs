//! Lesson 5's question: with this z, is h_t nearer h_{t−1} or the candidate?

use crate::kit::fmt::{fixed, short};
use crate::kit::question::{ready, Kind, Question, QuestionPanel, Reveal};
use leptos::prelude::*;
use unroll_core::config::lessons::{GruConfig, LessonState};
use unroll_core::config::Lang;
use unroll_core::lessons::questions::{gru_nearer, Answer};

fn config(s: &LessonState) -> Option<&GruConfig> {
    match s {
        LessonState::Gru(c) => Some(c),
        _ => None,
    }
}

fn ask(s: &LessonState, lang: Lang) -> String {
    let Some(c) = config(s) else {
        return String::new();
    };
    let (z, h, n) = (short(c.z), short(c.h_prev), short(c.n));
    match lang {
        Lang::En => {
            format!("With z = {z} (the course's convention, h_t = (1 − z)·h_{{t−1}} + z·h̃), is h_t nearer h_{{t−1}} = {h} or the candidate h̃ = {n}?")
        }
        Lang::Zh => format!("当 z = {z} 时（课程的约定：h_t = (1 − z)·h_{{t−1}} + z·h̃），h_t 更接近 h_{{t−1}} = {h} 还是候选值 h̃ = {n}？"),
    }
}

fn options(lang: Lang) -> [&'static str; 3] {
    match lang {
        Lang::En => ["h_{t−1}", "the candidate h̃", "equally near"],
        Lang::Zh => ["h_{t−1}", "候选值 h̃", "一样近"],
    }
}

fn kind(_: &LessonState, lang: Lang) -> Kind {
    Kind::Choice(options(lang).map(str::to_owned).to_vec())
}

fn reveal(s: &LessonState, lang: Lang) -> Option<Reveal> {
    let a = gru_nearer(config(s)?);
    let answer = a.answer();
    let Answer::Choice(i) = answer else {
        return None;
    };
    let formula = format!(
        "h_t = (1 − z)·h_{{t−1}} + z·h̃ = {}·{} + {}·{} = {}",
        fixed(1.0 - a.z, 2),
        fixed(a.h_prev, 2),
        fixed(a.z, 2),
        fixed(a.n, 2),
        fixed(a.h, 4)
    );
    let (p, c) = (fixed(a.to_prev, 4), fixed(a.to_candidate, 4));
    let why = match lang {
        Lang::En => {
            format!("{formula}: h_t is {p} away from h_{{t−1}} and {c} away from h̃ (z is the candidate's share of the blend, 1 − z the old state's).")
        }
        Lang::Zh => {
            format!("{formula}：h_t 与 h_{{t−1}} 相距 {p}，与 h̃ 相距 {c}（z 是候选值在混合中所占的份额，1 − z 是旧状态的份额）。")
        }
    };
    Some(Reveal {
        answer,
        shown: options(lang)[i].to_owned(),
        why,
    })
}

/// The question.
pub const QUESTION: Question = Question {
    key: "gru-nearer",
    ask,
    kind,
    reveal,
    until: ready,
};

/// Lesson 5's questions, on the page's state.
#[component]
pub fn GruQuestions(
    /// The page's state.
    cfg: RwSignal<GruConfig>,
) -> impl IntoView {
    view! { <QuestionPanel question=QUESTION state=Signal::derive(move || LessonState::Gru(cfg.get())) /> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reveal_follows_the_state() {
        let c = GruConfig::default();
        let a = reveal(&LessonState::Gru(c.clone()), Lang::En).unwrap();
        assert_eq!((a.answer, a.shown.as_str()), (Answer::Choice(0), "h_{t−1}"));
        assert!(
            a.why.contains("= 0.70·0.20 + 0.30·0.70 = 0.3500"),
            "{}",
            a.why
        );
        let b = reveal(&LessonState::Gru(GruConfig { z: 0.9, ..c }), Lang::Zh).unwrap();
        assert_eq!(
            (b.answer, b.shown.as_str()),
            (Answer::Choice(1), "候选值 h̃")
        );
    }
}
