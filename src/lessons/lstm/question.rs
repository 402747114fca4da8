//! Lesson 4's question: the cell state at the last step, predicted before the page shows it.

use crate::kit::fmt::{fixed, sub};
use crate::kit::question::{ready, Kind, Question, QuestionPanel, Reveal};
use leptos::prelude::*;
use unroll_core::config::lessons::{LessonState, LstmConfig};
use unroll_core::config::Lang;
use unroll_core::lessons::questions::{lstm_c, lstm_range};

fn config(s: &LessonState) -> Option<&LstmConfig> {
    match s {
        LessonState::Lstm(c) => Some(c),
        _ => None,
    }
}

/// A factor in a product: negative numbers in parentheses.
fn factor(v: f32) -> String {
    let s = fixed(v, 4);
    if s.starts_with('−') {
        format!("({s})")
    } else {
        s
    }
}

fn ask(s: &LessonState, lang: Lang) -> String {
    let Some(c) = config(s) else {
        return String::new();
    };
    let t = lstm_c(c).map_or(1, |a| a.t);
    let ct = format!("C{}", sub(t));
    match lang {
        Lang::En => format!("What is the cell state {ct} at the last step, T = {t}?"),
        Lang::Zh => format!("最后一步 T = {t} 时，细胞状态 {ct} 是多少？"),
    }
}

fn kind(s: &LessonState, _: Lang) -> Kind {
    Kind::Number(config(s).map_or(unroll_core::lessons::questions::UNROLL_RANGE, lstm_range))
}

fn reveal(s: &LessonState, lang: Lang) -> Option<Reveal> {
    let a = lstm_c(config(s)?).ok()?;
    let (t, tp) = (sub(a.t), sub(a.t - 1));
    let formula = format!(
        "C{t} = f{t}·C{tp} + i{t}·g{t} = {}·{} + {}·{} = {}",
        factor(a.f),
        factor(a.c_prev),
        factor(a.i),
        factor(a.g),
        fixed(a.c, 4)
    );
    let why = match lang {
        Lang::En => format!("{formula}: the forget gate keeps a share of the belt, the input gate writes a share of the candidate."),
        Lang::Zh => format!("{formula}：遗忘门保留传送带上的一部分，输入门写入候选值的一部分。"),
    };
    Some(Reveal {
        answer: a.answer(),
        shown: fixed(a.c, 4),
        why,
    })
}

/// The question.
pub const QUESTION: Question = Question {
    key: "lstm-c",
    ask,
    kind,
    reveal,
    until: ready,
};

/// Lesson 4's questions, on the page's state.
#[component]
pub fn LstmQuestions(
    /// The page's state.
    cfg: RwSignal<LstmConfig>,
) -> impl IntoView {
    view! { <QuestionPanel question=QUESTION state=Signal::derive(move || LessonState::Lstm(cfg.get())) /> }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::config::lessons::LstmMode;

    #[test]
    fn the_reveal_follows_the_state() {
        let c = LstmConfig::default();
        let a = reveal(&LessonState::Lstm(c.clone()), Lang::En).unwrap();
        assert_eq!(a.shown, "−0.4200");
        assert!(
            a.why
                .starts_with("C₂ = f₂·C₁ + i₂·g₂ = 0.3000·0.4000 + 0.9000·(−0.6000) = −0.4200"),
            "{}",
            a.why
        );
        let keep = LstmConfig {
            mode: LstmMode::Run,
            f: vec![1.0],
            i: vec![0.0],
            c0: 2.0,
            n: 20,
            ..c
        };
        let b = reveal(&LessonState::Lstm(keep.clone()), Lang::Zh).unwrap();
        assert_eq!(b.shown, "2.0000");
        assert_eq!(
            ask(&LessonState::Lstm(keep), Lang::En),
            "What is the cell state C₂₀ at the last step, T = 20?"
        );
    }
}
