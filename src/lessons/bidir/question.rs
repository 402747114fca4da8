//! Lesson 6's question: which half of the last position's output has read every token?

use crate::kit::fmt::fixed;
use crate::kit::question::{ready, Kind, Question, QuestionPanel, Reveal};
use leptos::prelude::*;
use unroll_core::config::lessons::{BidirConfig, LessonState};
use unroll_core::config::Lang;
use unroll_core::lessons::bidir::HIDDEN;
use unroll_core::lessons::questions::{bidir_last, Answer};

fn config(s: &LessonState) -> Option<&BidirConfig> {
    match s {
        LessonState::Bidir(c) => Some(c),
        _ => None,
    }
}

fn ask(s: &LessonState, lang: Lang) -> String {
    let Some(c) = config(s) else {
        return String::new();
    };
    let (t, w) = (c.tokens.len(), 2 * HIDDEN);
    match lang {
        Lang::En if t == 1 => format!("Which half of output[:, -1, :] (the last position, {w} values) has read the whole sequence, here 1 token?"),
        Lang::En => format!("Which half of output[:, -1, :] (the last position, {w} values) has read the whole sequence of {t} tokens?"),
        Lang::Zh => format!("最后一个位置的输出（共 {w} 个值）中，哪一半已经读完全部 {t} 个词元？"),
    }
}

fn options(lang: Lang) -> [String; 3] {
    let h = HIDDEN;
    match lang {
        Lang::En => [
            format!("the forward half [:{h}]"),
            format!("the backward half [{h}:]"),
            "both halves".to_owned(),
        ],
        Lang::Zh => [
            format!("前向一半（前 {h} 个值）"),
            format!("后向一半（后 {h} 个值）"),
            "两半都是".to_owned(),
        ],
    }
}

fn kind(_: &LessonState, lang: Lang) -> Kind {
    Kind::Choice(options(lang).to_vec())
}

fn reveal(s: &LessonState, lang: Lang) -> Option<Reveal> {
    let a = bidir_last(config(s)?).ok()?;
    let answer = a.answer();
    let Answer::Choice(i) = answer else {
        return None;
    };
    let (t, last, gap) = (a.tokens, &a.last_token, fixed(a.backward_gap, 4));
    let why = match (lang, i) {
        (Lang::En, 2) => "With one token, the forward half equals h_n[0] and the backward half h_n[1]: each direction's final state.".to_owned(),
        (Lang::Zh, 2) => "只有一个词元时，前向一半等于 h_n[0]，后向一半等于 h_n[1]：两个方向的最终状态。".to_owned(),
        (Lang::En, _) => format!("The forward half equals h_n[0], the forward direction after all {t} tokens; the backward half is the backward direction after its first step, “{last}” alone: entry by entry it differs from h_n[1], the backward read of the whole sentence, by up to {gap} (the largest |output[0, −1, H:] − h_n[1]|)."),
        (Lang::Zh, _) => format!("前向一半等于 h_n[0]，即前向方向读完全部 {t} 个词元后的状态；后向一半只是后向方向的第一步，只读了“{last}”：逐个分量与 h_n[1]（后向方向读完整句后的状态）相比，差的绝对值最大为 {gap}。"),
    };
    Some(Reveal {
        answer,
        shown: options(lang)[i].clone(),
        why,
    })
}

/// The question.
pub const QUESTION: Question = Question {
    key: "bidir-last",
    ask,
    kind,
    reveal,
    until: ready,
};

/// Lesson 6's questions, on the page's state.
#[component]
pub fn BidirQuestions(
    /// The page's state.
    cfg: RwSignal<BidirConfig>,
) -> impl IntoView {
    view! { <QuestionPanel question=QUESTION state=Signal::derive(move || LessonState::Bidir(cfg.get())) /> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reveal_follows_the_state() {
        let c = BidirConfig::default();
        let a = reveal(&LessonState::Bidir(c.clone()), Lang::En).unwrap();
        assert_eq!(a.answer, Answer::Choice(0));
        assert!(
            a.why.contains("after all 3 tokens") && a.why.contains("“中国” alone"),
            "{}",
            a.why
        );
        // The gap says what it measures: the largest entry-wise difference from h_n[1].
        let gap = fixed(
            unroll_core::lessons::questions::bidir_last(&c)
                .unwrap()
                .backward_gap,
            4,
        );
        assert!(
            a.why.contains(&format!("entry by entry it differs from h_n[1], the backward read of the whole sentence, by up to {gap} (the largest |output[0, −1, H:] − h_n[1]|)")),
            "{}",
            a.why
        );
        let zh = reveal(&LessonState::Bidir(c.clone()), Lang::Zh).unwrap();
        assert!(
            zh.why.contains(&format!(
                "逐个分量与 h_n[1]（后向方向读完整句后的状态）相比，差的绝对值最大为 {gap}"
            )),
            "{}",
            zh.why
        );
        let one = BidirConfig {
            tokens: vec!["York".into()],
            ..c
        };
        let b = reveal(&LessonState::Bidir(one), Lang::Zh).unwrap();
        assert_eq!(
            (b.answer, b.shown.as_str()),
            (Answer::Choice(2), "两半都是")
        );
    }
}
