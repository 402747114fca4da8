//! Lesson 3's question: is the gradient product above or below 10⁻³ after T steps?

use crate::kit::fmt::{fixed, sci64, short};
use crate::kit::question::{ready, Kind, Question, QuestionPanel, Reveal};
use leptos::prelude::*;
use unroll_core::config::lessons::{BpttAct, BpttConfig, LessonState};
use unroll_core::config::Lang;
use unroll_core::lessons::questions::{bptt_product, Answer};

fn config(s: &LessonState) -> Option<&BpttConfig> {
    match s {
        LessonState::Bptt(c) => Some(c),
        _ => None,
    }
}

fn ask(s: &LessonState, lang: Lang) -> String {
    let Some(c) = config(s) else {
        return String::new();
    };
    let (t, w) = (c.steps, short(c.w_hh));
    match lang {
        Lang::En => format!("After T = {t} steps at W_hh = {w}, is the gradient product |∂h_T/∂h_0| above or below 10⁻³?"),
        Lang::Zh => format!("在 W_hh = {w} 下经过 T = {t} 步，梯度乘积 |∂h_T/∂h_0| 高于还是低于 10⁻³？"),
    }
}

fn options(lang: Lang) -> [&'static str; 2] {
    match lang {
        Lang::En => ["Above 10⁻³ (or equal)", "Below 10⁻³"],
        Lang::Zh => ["高于 10⁻³（或相等）", "低于 10⁻³"],
    }
}

fn kind(_: &LessonState, lang: Lang) -> Kind {
    Kind::Choice(options(lang).map(str::to_owned).to_vec())
}

fn reveal(s: &LessonState, lang: Lang) -> Option<Reveal> {
    let c = config(s)?;
    let a = bptt_product(c);
    // Each factor as the page's activation writes it (the identity's derivative is 1).
    let factor = match c.act {
        BpttAct::Tanh => "tanh'(z_t)·W_hh",
        BpttAct::Relu => "relu'(z_t)·W_hh",
        BpttAct::Linear => "1·W_hh",
    };
    let answer = a.answer();
    let Answer::Choice(i) = answer else {
        return None;
    };
    let (t, p, m) = (
        a.steps,
        sci64(f64::from(a.product)),
        fixed(a.mean_factor, 4),
    );
    let why = match lang {
        Lang::En => format!("∂h_T/∂h_0, the product of T = {t} factors {factor}, is {p}: on average each step multiplies the gradient by {m}."),
        Lang::Zh => format!("∂h_T/∂h_0 是 T = {t} 个因子 {factor} 的乘积，等于 {p}：平均每一步把梯度乘以 {m}。"),
    };
    Some(Reveal {
        answer,
        shown: match lang {
            Lang::En => format!("{} ({p})", options(lang)[i]),
            Lang::Zh => format!("{}（{p}）", options(lang)[i]),
        },
        why,
    })
}

/// The question.
pub const QUESTION: Question = Question {
    key: "bptt-product",
    ask,
    kind,
    reveal,
    until: ready,
};

/// Lesson 3's questions, on the page's state.
#[component]
pub fn BpttQuestions(
    /// The page's state.
    cfg: RwSignal<BpttConfig>,
) -> impl IntoView {
    view! { <QuestionPanel question=QUESTION state=Signal::derive(move || LessonState::Bptt(cfg.get())) /> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reveal_follows_the_state() {
        let c = BpttConfig {
            x: vec![0.3],
            steps: 20,
            w_hh: 0.5,
            ..BpttConfig::default()
        };
        let a = reveal(&LessonState::Bptt(c.clone()), Lang::En).unwrap();
        assert_eq!(a.answer, Answer::Choice(1));
        assert!(a.shown.starts_with("Below 10⁻³ ("), "{}", a.shown);
        let b = reveal(&LessonState::Bptt(BpttConfig { steps: 2, ..c }), Lang::Zh).unwrap();
        assert_eq!(b.answer, Answer::Choice(0));
        assert!(
            b.why
                .starts_with("∂h_T/∂h_0 是 T = 2 个因子 tanh'(z_t)·W_hh"),
            "{}",
            b.why
        );
    }
}
