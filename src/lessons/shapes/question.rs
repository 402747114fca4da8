//! Lesson 2's question: does a longer sequence change the parameter count?

use crate::kit::fmt::count;
use crate::kit::question::{ready, Kind, Question, QuestionPanel, Reveal};
use leptos::prelude::*;
use unroll_core::config::lessons::{LessonState, ShapesConfig};
use unroll_core::config::Lang;
use unroll_core::lessons::questions::{shapes_seq_len, Answer};

fn config(s: &LessonState) -> Option<&ShapesConfig> {
    match s {
        LessonState::Shapes(c) => Some(c),
        _ => None,
    }
}

/// The length compared with the page's.
fn other(t: usize) -> usize {
    if t * 2 <= 4096 {
        t * 2
    } else {
        (t / 2).max(1)
    }
}

fn ask(s: &LessonState, lang: Lang) -> String {
    let Some(c) = config(s) else {
        return String::new();
    };
    let (m, t, o) = (c.cell.spec().torch_class, c.seq_len, other(c.seq_len));
    match lang {
        Lang::En => format!("This {m} reads sequences of seq_len T = {t}. At T = {o}, does its parameter count change?"),
        Lang::Zh => format!("这个 {m} 读取 seq_len 为 T = {t} 的序列。改为 T = {o} 时，参数量会变吗？"),
    }
}

fn options(lang: Lang) -> [&'static str; 2] {
    match lang {
        Lang::En => ["It changes", "It stays the same"],
        Lang::Zh => ["会变", "不变"],
    }
}

fn kind(_: &LessonState, lang: Lang) -> Kind {
    Kind::Choice(options(lang).map(str::to_owned).to_vec())
}

fn reveal(s: &LessonState, lang: Lang) -> Option<Reveal> {
    let a = shapes_seq_len(config(s)?).ok()?;
    let answer = a.answer();
    let Answer::Choice(i) = answer else {
        return None;
    };
    let (n, m) = (count(a.count), count(a.other_count));
    let why =
        match (lang, a.layer_adds) {
            (Lang::En, layer) => format!(
            "{n} parameters at T = {} and {m} at T = {}: every step applies the same weights{}.",
            a.seq_len,
            a.other_len,
            layer.map_or(String::new(), |l| format!("; one more layer would add {}", count(l)))
        ),
            (Lang::Zh, layer) => format!(
                "T = {} 时参数量为 {n}，T = {} 时为 {m}：每一步都用同一组权重{}。",
                a.seq_len,
                a.other_len,
                layer.map_or(String::new(), |l| format!("；再加一层则多 {} 个", count(l)))
            ),
        };
    Some(Reveal {
        answer,
        shown: options(lang)[i].to_owned(),
        why,
    })
}

/// The question.
pub const QUESTION: Question = Question {
    key: "shapes-seq-len",
    ask,
    kind,
    reveal,
    until: ready,
};

/// Lesson 2's questions, on the page's state.
#[component]
pub fn ShapesQuestions(
    /// The page's state.
    cfg: RwSignal<ShapesConfig>,
) -> impl IntoView {
    view! { <QuestionPanel question=QUESTION state=Signal::derive(move || LessonState::Shapes(cfg.get())) /> }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::math::params::CellKind;

    #[test]
    fn the_reveal_follows_the_state() {
        let c = ShapesConfig::default();
        let a = reveal(&LessonState::Shapes(c.clone()), Lang::En).unwrap();
        assert_eq!(a.answer, Answer::Choice(1));
        assert!(
            a.why
                .starts_with("160 parameters at T = 3 and 160 at T = 6"),
            "{}",
            a.why
        );
        let lstm = ShapesConfig {
            cell: CellKind::Lstm,
            seq_len: 10,
            ..c
        };
        let b = reveal(&LessonState::Shapes(lstm), Lang::Zh).unwrap();
        assert!(
            b.why.starts_with("T = 10 时参数量为 640，T = 20 时为 640"),
            "{}",
            b.why
        );
    }
}
