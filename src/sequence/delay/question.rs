//! The long-memory lab's question: at this delay, which cells will leave chance? Answered
//! from the verdict on the sweep's finished runs by
//! [`unroll_core::lessons::lab_questions::delay_left_chance`], so it cannot disagree with
//! the page's verdict line.

use super::text::{cell_name, fmt_cell_names as cells_text};
use super::DelayDriver;
use crate::kit::question::{Asked, Kind, Question, QuestionPanel, Reveal};
use crate::shell::run_status::RunStatus;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::Lang;
use unroll_core::delay::outcome::{outcome_of_results, Outcome, LEFT_CHANCE};
use unroll_core::lessons::lab_questions::{
    delay_choices, delay_left_chance, Pending, DELAY_CHANCE,
};
use unroll_core::lessons::questions::Answer;
use unroll_core::math::params::CellKind;

/// What the question is asked about: the sweep's delay, cells and vocabulary, and the verdict
/// on its finished runs (none before a sweep).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DelayAsked {
    /// The delay d.
    pub delay: usize,
    /// The cells trained side by side, in the page's order.
    pub cells: Vec<CellKind>,
    /// Vocabulary size V (chance is 1/V).
    pub vocab: usize,
    /// Seeds per cell.
    pub seeds: usize,
    /// The verdict on the sweep's finished runs (None: no sweep of these settings).
    pub outcome: Option<Outcome>,
}

impl DelayAsked {
    /// The question's state for the form's configuration `shown` and the sweep's (`run`, with
    /// its finished `results`); a sweep of other settings than the form's is not asked about.
    pub fn of(
        shown: &DelayConfig,
        run: Option<&DelayConfig>,
        results: &[unroll_core::train::sweep::RunResult],
    ) -> DelayAsked {
        let cfg = run.unwrap_or(shown);
        DelayAsked {
            delay: cfg.delay,
            cells: cfg.cell.cells().to_vec(),
            vocab: cfg.vocab,
            seeds: cfg.seeds,
            outcome: run.map(|c| outcome_of_results(c, results)),
        }
    }

    fn chance(&self) -> f64 {
        1.0 / self.vocab.max(1) as f64
    }
}

impl Asked for DelayAsked {
    fn keep(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    fn restore(_: &str, kept: &str) -> Option<Self> {
        serde_json::from_str(kept).ok()
    }
}

fn choice_label(choice: &[CellKind], all: usize, lang: Lang) -> String {
    match (choice.len(), lang) {
        (0, Lang::En) => "none".to_owned(),
        (0, Lang::Zh) => "都没有".to_owned(),
        (2, Lang::En) if all == 2 => format!("both {}", cells_text(choice, lang)),
        (2, Lang::Zh) if all == 2 => format!("{} 都会", cells_text(choice, lang)),
        (n, Lang::En) if n == all && n > 1 => format!("all: {}", cells_text(choice, lang)),
        (n, Lang::Zh) if n == all && n > 1 => format!("全部：{}", cells_text(choice, lang)),
        (_, Lang::En) => format!("only {}", cells_text(choice, lang)),
        (_, Lang::Zh) => format!("只有 {}", cells_text(choice, lang)),
    }
}

fn ask(s: &DelayAsked, lang: Lang) -> String {
    let (d, cells) = (s.delay, cells_text(&s.cells, lang));
    let left = s.chance() + LEFT_CHANCE * (1.0 - s.chance());
    let (chance, left) = (format!("{:.3}", s.chance()), format!("{left:.3}"));
    let pct = format!("{:.0}", LEFT_CHANCE * 100.0);
    match lang {
        Lang::En => format!(
            "At delay {d}, which of {cells} will leave chance in every seed? Chance is 1/V = \
             {chance}; leaving it means a final held-out accuracy of at least {left}, {pct} % of \
             the way from chance to 1."
        ),
        Lang::Zh => format!(
            "在延迟 {d} 时，{cells} 中哪些会在每个种子上都脱离随机猜测水平？随机猜测为 1/V = {chance}；\
             脱离它指最终留出准确率至少为 {left}，即从随机水平到 1 走了 {pct}% 的距离。"
        ),
    }
}

fn kind(s: &DelayAsked, lang: Lang) -> Kind {
    let all = s.cells.len();
    Kind::Choice(
        delay_choices(&s.cells)
            .iter()
            .map(|c| choice_label(c, all, lang))
            .collect(),
    )
}

fn until(s: &DelayAsked, lang: Lang) -> Option<String> {
    let Some(outcome) = &s.outcome else {
        return Some(match lang {
            Lang::En => "The answer is the verdict on this page's runs: press Start and let \
                         every seed of every cell finish, then Reveal."
                .to_owned(),
            Lang::Zh => {
                "答案来自本页运行结果的结论：点击“开始”，等每个单元的每个种子都跑完后再揭晓。"
                    .to_owned()
            }
        });
    };
    delay_left_chance(&s.cells, outcome)
        .err()
        .map(|p| pending_text(&p, lang))
}

fn pending_text(p: &Pending, lang: Lang) -> String {
    match (p, lang) {
        (Pending::Runs { cell, have, need }, Lang::En) => format!(
            "Waiting for the runs: {} has {have} of {} finished.",
            cell_name(*cell),
            crate::kit::text::count_en(&need.to_string(), "seed")
        ),
        (Pending::Runs { cell, have, need }, Lang::Zh) => format!(
            "等待运行结束：{} 已完成 {need} 个种子中的 {have} 个。",
            cell_name(*cell)
        ),
        (Pending::Unclear { cell }, Lang::En) => format!(
            "The seeds of {} disagree (from {:.3} to {:.3}): the page claims nothing, so there \
             is no answer to reveal. Try more seeds or a longer budget.",
            cell_name(cell.cell),
            cell.min,
            cell.max
        ),
        (Pending::Unclear { cell }, Lang::Zh) => format!(
            "{} 的各个种子结果不一致（从 {:.3} 到 {:.3}）：本页不下结论，因此没有答案可揭晓。\
             可以增加种子数或训练步数。",
            cell_name(cell.cell),
            cell.min,
            cell.max
        ),
        (Pending::NotAChoice { learned }, Lang::En) => format!(
            "{} left chance: not one of the choices, so there is no answer to reveal.",
            cells_text(learned, lang)
        ),
        (Pending::NotAChoice { learned }, Lang::Zh) => format!(
            "脱离随机猜测的是 {}：不在选项之中，因此没有答案可揭晓。",
            cells_text(learned, lang)
        ),
        (Pending::NoFirstEpoch, _) => String::new(),
    }
}

fn reveal(s: &DelayAsked, lang: Lang) -> Option<Reveal> {
    let a = delay_left_chance(&s.cells, s.outcome.as_ref()?).ok()?;
    let Answer::Choice(i) = a.answer() else {
        return None;
    };
    let ranges: Vec<String> = a
        .ranges
        .iter()
        .map(|r| {
            if r.seeds > 1 {
                format!("{} {:.3}–{:.3}", cell_name(r.cell), r.min, r.max)
            } else {
                format!("{} {:.3}", cell_name(r.cell), r.mean)
            }
        })
        .collect();
    let (d, chance) = (s.delay, format!("{:.3}", s.chance()));
    let why = match lang {
        Lang::En => format!(
            "Final held-out accuracy (lowest–highest seed) at delay {d}: {} (chance {chance}); the page's \
             verdict judges every seed against the same thresholds.",
            ranges.join(", ")
        ),
        Lang::Zh => format!(
            "延迟 {d} 时的最终留出准确率（最低–最高种子）：{}（随机猜测 {chance}）；本页的结论用同样的阈值判断每个种子。",
            ranges.join("，")
        ),
    };
    let choices = delay_choices(&s.cells);
    Some(Reveal {
        answer: a.answer(),
        shown: choice_label(&choices[i], s.cells.len(), lang),
        why,
    })
}

/// The question.
pub const QUESTION: Question<DelayAsked> = Question {
    key: DELAY_CHANCE,
    ask,
    kind,
    reveal,
    until,
};

/// The long-memory lab's question, on the sweep shown.
#[component]
pub fn DelayQuestion(driver: DelayDriver, shown_cfg: Signal<DelayConfig>) -> impl IntoView {
    let state = Signal::derive(move || {
        let run = driver.run_cfg.get();
        let shown = shown_cfg.get();
        driver
            .results
            .with(|rs| DelayAsked::of(&shown, run.as_ref(), rs))
    });
    // A sweep has started once it runs or has left results on the page.
    let started = Signal::derive(move || {
        driver.run_cfg.with(Option::is_some) || driver.flow.status.get() != RunStatus::Idle
    });
    view! { <QuestionPanel question=QUESTION state=state started=started /> }
}

#[cfg(test)]
mod tests {
    use super::*;
    use unroll_core::delay::outcome::{judge, CellAccuracies};

    fn asked(rnn: &[f64], lstm: &[f64]) -> DelayAsked {
        let cells = vec![
            CellAccuracies {
                cell: CellKind::Rnn,
                accs: rnn.to_vec(),
            },
            CellAccuracies {
                cell: CellKind::Lstm,
                accs: lstm.to_vec(),
            },
        ];
        DelayAsked {
            delay: 32,
            cells: vec![CellKind::Rnn, CellKind::Lstm],
            vocab: 10,
            seeds: 2,
            outcome: Some(judge(&cells, 2, 0.1)),
        }
    }

    #[test]
    fn the_reveal_follows_the_runs() {
        let s = asked(&[0.1, 0.105], &[0.5, 0.61]);
        assert_eq!(until(&s, Lang::En), None);
        let r = reveal(&s, Lang::En).unwrap();
        assert_eq!(
            (r.answer, r.shown.as_str()),
            (Answer::Choice(1), "only LSTM")
        );
        assert!(
            r.why.contains("RNN 0.100–0.105, LSTM 0.500–0.610"),
            "{}",
            r.why
        );
        let both = reveal(&asked(&[0.4, 0.5], &[0.5, 0.61]), Lang::Zh).unwrap();
        assert_eq!(
            (both.answer, both.shown.as_str()),
            (Answer::Choice(2), "RNN 与 LSTM 都会")
        );
        let none = reveal(&asked(&[0.1, 0.1], &[0.1, 0.1]), Lang::En).unwrap();
        assert_eq!(
            (none.answer, none.shown.as_str()),
            (Answer::Choice(3), "none")
        );
    }

    #[test]
    fn the_answer_waits_for_the_runs() {
        let mut s = asked(&[0.1], &[0.5, 0.61]);
        assert_eq!(
            until(&s, Lang::En).as_deref(),
            Some("Waiting for the runs: RNN has 1 of 2 seeds finished.")
        );
        assert!(reveal(&s, Lang::En).is_none());
        s.outcome = None;
        assert!(until(&s, Lang::Zh).unwrap().contains("运行"));
        let unclear = asked(&[0.1, 0.9], &[0.5, 0.61]);
        assert!(until(&unclear, Lang::En)
            .unwrap()
            .contains("disagree (from 0.100 to 0.900)"));
        assert_eq!(
            DelayAsked::restore(DELAY_CHANCE, &unclear.keep()),
            Some(unclear)
        );
    }

    #[test]
    fn the_question_quotes_the_thresholds() {
        let s = asked(&[0.1, 0.1], &[0.1, 0.1]);
        let q = ask(&s, Lang::En);
        assert!(q.contains("At delay 32, which of RNN and LSTM"), "{q}");
        assert!(
            q.contains("Chance is 1/V = 0.100; leaving it means a final held-out accuracy of at least 0.145, 5 % of the way"),
            "{q}"
        );
    }
}
