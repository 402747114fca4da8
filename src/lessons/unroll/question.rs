//! Lesson 1's question: h_t at the time step shown, predicted before the page shows it.

use crate::kit::fmt::{fixed, sub};
use crate::kit::question::{ready, Kind, Question, QuestionPanel, Reveal};
use leptos::prelude::*;
use unroll_core::config::lessons::{LessonState, UnrollConfig};
use unroll_core::config::Lang;
use unroll_core::lessons::questions::{unroll_h, UNROLL_RANGE};

fn config(s: &LessonState) -> Option<&UnrollConfig> {
    match s {
        LessonState::Unroll(c) => Some(c),
        _ => None,
    }
}

fn ask(s: &LessonState, lang: Lang) -> String {
    let Some(c) = config(s) else {
        return String::new();
    };
    let t = c.t.clamp(1, c.x.len().max(1));
    let h = format!("h{}", sub(t));
    match (lang, c.hidden_size > 1) {
        (Lang::En, false) => {
            format!("At time step t = {t}, what is {h} for these inputs and weights?")
        }
        (Lang::En, true) => {
            format!("At time step t = {t}, what is unit 1 of {h} for these inputs?")
        }
        (Lang::Zh, false) => format!("在这些输入和权重下，时间步 t = {t} 时 {h} 是多少？"),
        (Lang::Zh, true) => {
            format!("在这些输入下，时间步 t = {t} 时 {h} 的第 1 个分量是多少？")
        }
    }
}

fn kind(_: &LessonState, _: Lang) -> Kind {
    Kind::Number(UNROLL_RANGE)
}

fn reveal(s: &LessonState, lang: Lang) -> Option<Reveal> {
    let a = unroll_h(config(s)?).ok()?;
    let (t, tp) = (sub(a.t), sub(a.t - 1));
    let formula = format!(
        "h{t} = tanh(W_xh·x{t} + W_hh·h{tp} + b) = tanh({} + {} + {}) = tanh({}) = {}",
        fixed(a.input_term, 4),
        fixed(a.recurrent_term, 4),
        fixed(a.bias, 4),
        fixed(a.z, 4),
        fixed(a.h, 4)
    );
    let why = match lang {
        Lang::En => format!("{formula}: the step squashes the input's part plus the recurrent part of the step before."),
        Lang::Zh => format!("{formula}：本步把输入项与上一步的循环项相加，再经 tanh 压缩。"),
    };
    Some(Reveal {
        answer: a.answer(),
        shown: fixed(a.h, 4),
        why,
    })
}

/// The question.
pub const QUESTION: Question = Question {
    key: "unroll-h",
    ask,
    kind,
    reveal,
    until: ready,
};

/// Lesson 1's questions, on the page's state.
#[component]
pub fn UnrollQuestions(
    /// The page's state.
    cfg: RwSignal<UnrollConfig>,
) -> impl IntoView {
    view! { <QuestionPanel question=QUESTION state=Signal::derive(move || LessonState::Unroll(cfg.get())) /> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reveal_follows_the_state() {
        let c = UnrollConfig::default();
        let a = reveal(&LessonState::Unroll(c.clone()), Lang::En).unwrap();
        let b = reveal(&LessonState::Unroll(UnrollConfig { t: 1, ..c }), Lang::Zh).unwrap();
        assert_eq!(a.shown, "0.8981");
        assert_eq!(b.shown, "0.4621");
        assert!(
            b.why.contains("h₁ = tanh(W_xh·x₁ + W_hh·h₀ + b)"),
            "{}",
            b.why
        );
        assert!(reveal(
            &LessonState::default_for(unroll_core::config::lessons::LessonId::Gru),
            Lang::En
        )
        .is_none());
    }
}
