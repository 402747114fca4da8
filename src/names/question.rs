//! The names lab's question: before training, will the first epoch beat the majority-class
//! baseline? Answered from the run's own first validation report by
//! [`unroll_core::lessons::lab_questions::names_above_baseline`]. A prediction locked once the
//! run has started is kept as answered after seeing, not counted.

use crate::kit::handout::NamesEpoch1Note;
use crate::kit::question::{store, Asked, Kind, Question, QuestionPanel, Reveal};
use crate::names::session::{RunStatus, TrainingSession};
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use unroll_core::config::{Head, Lang};
use unroll_core::lessons::handout::names_epoch1;
use unroll_core::lessons::lab_questions::{names_above_baseline, NAMES_BASELINE};
use unroll_core::task::names::ValReport;

/// What the question is asked about: the run's first validation report (none before it)
/// and the data set's languages (to name the majority class).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NamesAsked {
    /// The validation report of epoch 1.
    pub first: Option<ValReport>,
    /// The class names, in class order.
    pub classes: Vec<String>,
}

impl Asked for NamesAsked {
    fn keep(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    fn restore(_: &str, kept: &str) -> Option<Self> {
        serde_json::from_str(kept).ok()
    }
}

fn ask(_: &NamesAsked, lang: Lang) -> String {
    match lang {
        Lang::En => "Before you train: after its first epoch, will the model name more validation \
                     names correctly than the majority-class baseline (always answering the \
                     largest language)?"
            .to_owned(),
        Lang::Zh => "训练之前先预测：第一轮结束后，模型在验证集上答对的比例会高于多数类基线\
                     （总是回答人数最多的那种语言）吗？"
            .to_owned(),
    }
}

fn options(lang: Lang) -> [&'static str; 2] {
    match lang {
        Lang::En => ["above the baseline", "at or below the baseline"],
        Lang::Zh => ["高于基线", "不高于基线"],
    }
}

fn kind(_: &NamesAsked, lang: Lang) -> Kind {
    Kind::Choice(options(lang).map(str::to_owned).to_vec())
}

fn until(s: &NamesAsked, lang: Lang) -> Option<String> {
    names_above_baseline(s.first.as_ref())
        .err()
        .map(|_| match lang {
            Lang::En => "The answer is this run's validation accuracy after epoch 1: press Start \
                         training and let the first epoch finish, then Reveal."
                .to_owned(),
            Lang::Zh => {
                "答案来自本次运行第一轮结束时的验证准确率：点击“开始训练”，等第一轮结束后再揭晓。"
                    .to_owned()
            }
        })
}

fn pct(x: f32) -> String {
    format!("{:.1}%", x * 100.0)
}

fn reveal(s: &NamesAsked, lang: Lang) -> Option<Reveal> {
    let a = names_above_baseline(s.first.as_ref()).ok()?;
    let answer = a.answer();
    let unroll_core::lessons::questions::Answer::Choice(i) = answer else {
        return None;
    };
    let majority = s.classes.get(a.majority).map_or_else(
        || (a.majority + 1).to_string(),
        |c| super::text::language_name(lang, c),
    );
    let (acc, base) = (pct(a.accuracy), pct(a.baseline));
    let diff = format!("{:.1}", (a.accuracy - a.baseline).abs() * 100.0);
    let total = a.total.to_string();
    let level = diff == "0.0";
    let why = match (lang, i) {
        (Lang::En, 0) => format!(
            "After epoch 1 the model named {acc} of the {total} validation names right; always \
             answering “{majority}” gets {base}: {diff} points above the baseline."
        ),
        (Lang::En, _) if level => format!(
            "After epoch 1 the model named {acc} of the {total} validation names right; always \
             answering “{majority}” gets {base}: level with the baseline — one epoch was not \
             enough to beat guessing the largest class."
        ),
        (Lang::En, _) => format!(
            "After epoch 1 the model named {acc} of the {total} validation names right; always \
             answering “{majority}” gets {base}: {diff} points below the baseline."
        ),
        (Lang::Zh, 0) => format!(
            "第一轮结束后，模型答对了 {total} 个验证名字中的 {acc}；总是回答“{majority}”能答对 {base}：\
             比基线高 {diff} 个百分点。"
        ),
        (Lang::Zh, _) if level => format!(
            "第一轮结束后，模型答对了 {total} 个验证名字中的 {acc}；总是回答“{majority}”能答对 {base}：\
             与基线持平——一轮训练还不足以胜过总猜最大类。"
        ),
        (Lang::Zh, _) => format!(
            "第一轮结束后，模型答对了 {total} 个验证名字中的 {acc}；总是回答“{majority}”能答对 {base}：\
             比基线低 {diff} 个百分点。"
        ),
    };
    Some(Reveal {
        answer,
        shown: options(lang)[i].to_owned(),
        why,
    })
}

/// The question.
pub const QUESTION: Question<NamesAsked> = Question {
    key: NAMES_BASELINE,
    ask,
    kind,
    reveal,
    until,
};

/// The names lab's question, on the page's session: it keeps the run's first validation
/// report (a later epoch's does not replace it; a new run's first one does).
#[component]
pub fn NamesQuestion(
    /// The page's session.
    session: TrainingSession,
    /// The data set's class names (empty before it loads).
    #[prop(into)]
    classes: Signal<Vec<String>>,
    /// The lines of each class file of the built-in data (`None` for own data): with them,
    /// the revealed answer gets the handout's note.
    #[prop(into)]
    raw_lines: Signal<Option<Vec<usize>>>,
) -> impl IntoView {
    let lang = use_lang();
    let first = RwSignal::new(None::<ValReport>);
    Effect::new(move |_| {
        session.last_val.with(|r| {
            if let Some(r) = r.as_deref().filter(|r| r.epoch == 1) {
                if first.with_untracked(|f| f.as_ref() != Some(r)) {
                    first.set(Some(r.clone()));
                }
            }
        })
    });
    let state = Signal::derive(move || NamesAsked {
        first: first.get(),
        classes: classes.get(),
    });
    // The run has started once it has taken a step or left Idle (a restored model counts: its
    // metrics are on the page).
    let started = Signal::derive(move || {
        session.step.get() > 0
            || session.status.get() != RunStatus::Idle
            || first.with(Option::is_some)
    });
    // Once revealed, the handout's note: its 0.4859 against this run's figures.
    let progress = store::progress();
    let revealed = move || {
        progress.with(|p| {
            p.records
                .get(NAMES_BASELINE)
                .is_some_and(|r| r.phase == store::Phase::Revealed)
        })
    };
    let figures = Signal::derive(move || {
        if !revealed() {
            return None;
        }
        // The note contrasts the course's padded head with the page's own: a run that read
        // the padded step is not what it describes.
        let last_head = session
            .weights
            .with(|w| w.as_ref().is_some_and(|w| w.model.head == Head::Last));
        if !last_head {
            return None;
        }
        let report = first.get()?;
        let lines = raw_lines.get()?;
        let n = names_epoch1(&report, session.first_train_acc.get(), &lines)?;
        let language = classes
            .with(|c| c.get(n.raw_majority).cloned())
            .map(|c| super::text::language_name(lang.get(), &c))?;
        Some((n, language))
    });
    view! {
        <QuestionPanel question=QUESTION state=state started=started />
        <NamesEpoch1Note figures=figures />
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::lessons::questions::Answer;

    fn asked(confusion: Vec<u32>, epoch: u32) -> NamesAsked {
        NamesAsked {
            first: Some(ValReport {
                epoch,
                num_classes: 2,
                confusion,
            }),
            classes: vec!["English".into(), "Korean".into()],
        }
    }

    #[test]
    fn the_reveal_follows_the_run() {
        // 8 English, 2 Korean validation names; 9 right → above 80 %.
        let above = reveal(&asked(vec![8, 0, 1, 1], 1), Lang::En).unwrap();
        assert_eq!(above.answer, Answer::Choice(0));
        assert!(above.why.contains("90.0% of the 10"), "{}", above.why);
        assert!(
            above
                .why
                .contains("“English” gets 80.0%: 10.0 points above"),
            "{}",
            above.why
        );
        // Every name called English: level with the baseline.
        let level = reveal(&asked(vec![8, 0, 2, 0], 1), Lang::Zh).unwrap();
        assert_eq!(
            (level.answer, level.shown.as_str()),
            (Answer::Choice(1), "不高于基线")
        );
        assert!(level.why.contains("80.0%：与基线持平"), "{}", level.why);
        // The class in the page's language.
        assert!(level.why.contains("总是回答“英语”"), "{}", level.why);
        // 7 right of 10 (70 %) against 80 %.
        let below = reveal(&asked(vec![7, 1, 2, 0], 1), Lang::En).unwrap();
        assert!(
            below.why.contains("gets 80.0%: 10.0 points below"),
            "{}",
            below.why
        );
    }

    #[test]
    fn the_answer_waits_for_the_first_epoch_and_reads_back() {
        let none = NamesAsked::default();
        assert!(reveal(&none, Lang::En).is_none());
        assert!(until(&none, Lang::En).unwrap().contains("epoch 1"));
        assert!(until(&asked(vec![1, 0, 0, 1], 2), Lang::Zh).is_some());
        let s = asked(vec![8, 0, 1, 1], 1);
        assert_eq!(until(&s, Lang::En), None);
        assert_eq!(NamesAsked::restore(NAMES_BASELINE, &s.keep()), Some(s));
    }
}
