//! Lesson 8's question: whose serial depth grows faster with the length?

use crate::kit::question::{Kind, Question, QuestionPanel, Reveal};
use leptos::prelude::*;
use unroll_core::config::lessons::{LessonState, ParallelConfig};
use unroll_core::config::Lang;
use unroll_core::lessons::parallel::lengths;
use unroll_core::lessons::questions::{parallel_growth, Answer};
use unroll_core::math::params::CellKind;

fn config(s: &LessonState) -> Option<&ParallelConfig> {
    match s {
        LessonState::Parallel(c) => Some(c),
        _ => None,
    }
}

fn ask(s: &LessonState, lang: Lang) -> String {
    let Some(c) = config(s) else {
        return String::new();
    };
    let l = lengths(c.max_len);
    let (a, b) = (
        l.first().copied().unwrap_or(8),
        l.last().copied().unwrap_or(8),
    );
    match lang {
        // One length only: the question is asked without a range (the reveal waits, see `until`).
        Lang::En if a == b => "As the length L grows, whose serial depth (steps that must run one after another) grows faster?".to_owned(),
        Lang::Zh if a == b => "随着长度 L 增加，谁的串行深度（必须依次执行的步数）增长得更快？".to_owned(),
        Lang::En => format!("As the length L grows from {a} to {b}, whose serial depth (steps that must run one after another) grows faster?"),
        Lang::Zh => format!("当长度 L 从 {a} 增加到 {b} 时，谁的串行深度（必须依次执行的步数）增长得更快？"),
    }
}

fn options(cell: CellKind, lang: Lang) -> [String; 3] {
    let c = cell.spec().name;
    match lang {
        Lang::En => [
            format!("the recurrent cell ({c})"),
            "the all-pairs scores".to_owned(),
            "neither".to_owned(),
        ],
        Lang::Zh => [
            format!("循环单元（{c}）"),
            "全部位置两两打分".to_owned(),
            "一样快".to_owned(),
        ],
    }
}

fn kind(s: &LessonState, lang: Lang) -> Kind {
    let cell = config(s).map_or(CellKind::Lstm, |c| c.cell);
    Kind::Choice(options(cell, lang).to_vec())
}

fn reveal(s: &LessonState, lang: Lang) -> Option<Reveal> {
    let c = config(s)?;
    let a = parallel_growth(c);
    let answer = a.answer();
    let Answer::Choice(i) = answer else {
        return None;
    };
    let name = c.cell.spec().name;
    let (r0, r1) = a.recurrent;
    let (a0, a1) = a.all_pairs;
    let why = match lang {
        Lang::En => format!("The {name} needs {r0} → {r1} dependent steps from L = {} to {} (step t waits for h_{{t−1}}); the all-pairs scores Q·Kᵀ need {a0} → {a1}: one batched product.", a.first_len, a.last_len),
        Lang::Zh => format!("从 L = {} 到 {}，{name} 需要 {r0} → {r1} 个依次执行的步骤（第 t 步要等 h_{{t−1}}）；全部位置两两打分 Q·Kᵀ 只需 {a0} → {a1}：一次批量乘积。", a.first_len, a.last_len),
    };
    Some(Reveal {
        answer,
        shown: options(c.cell, lang)[i].clone(),
        why,
    })
}

/// With one length only (the longest set to 8) there is no growth to compare: the reveal waits
/// for a longer one.
fn until(s: &LessonState, lang: Lang) -> Option<String> {
    let c = config(s)?;
    (lengths(c.max_len).len() < 2).then(|| match lang {
        Lang::En => "With the longest sequence at L = 8 there is only one length: set “Longest sequence” above 8 to see growth.".to_owned(),
        Lang::Zh => "最长序列为 L = 8 时只有一个长度：把“最长序列”设为大于 8，才能比较增长。".to_owned(),
    })
}

/// The question.
pub const QUESTION: Question = Question {
    key: "parallel-growth",
    ask,
    kind,
    reveal,
    until,
};

/// Lesson 8's questions, on the page's state.
#[component]
pub fn ParallelQuestions(
    /// The page's state.
    cfg: RwSignal<ParallelConfig>,
) -> impl IntoView {
    view! { <QuestionPanel question=QUESTION state=Signal::derive(move || LessonState::Parallel(cfg.get())) /> }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reveal_follows_the_state() {
        let c = ParallelConfig {
            max_len: 64,
            hidden_size: 8,
            ..ParallelConfig::default()
        };
        let a = reveal(&LessonState::Parallel(c.clone()), Lang::En).unwrap();
        assert_eq!(a.answer, Answer::Choice(0));
        assert!(a.why.contains("needs 8 → 64 dependent steps"), "{}", a.why);
        let b = reveal(
            &LessonState::Parallel(ParallelConfig {
                max_len: 100,
                cell: CellKind::Gru,
                ..c.clone()
            }),
            Lang::Zh,
        )
        .unwrap();
        assert!(b.why.contains("GRU 需要 8 → 100 个"), "{}", b.why);
        assert_eq!(b.shown, "循环单元（GRU）");
        let one = LessonState::Parallel(ParallelConfig {
            max_len: 8,
            ..c.clone()
        });
        assert!(until(&one, Lang::En).is_some_and(|w| w.contains("only one length")));
        assert_eq!(until(&LessonState::Parallel(c), Lang::En), None);
    }
}
