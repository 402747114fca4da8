//! The classic long-memory tasks on the long-memory lab page (`?lesson=delay&task=adding`,
//! `copy`, `order`): what the task is and its paper, T, the recipe and budget, parameter
//! counts, RNN, LSTM and GRU trained seed by seed, taking turns, in the engine's Web Worker
//! ([`unroll_core::train::sweep`]), their held-out loss on one chart with the task's
//! memoryless baseline and its "solved" level drawn over the runs' lines (a log axis on
//! request), and a summary per run ("solved after N sequences",
//! next to the paper's figure), what the runs show (one sentence from
//! [`unroll_core::memory::outcome::judge`], [`text::outcome_text`]) with the spread of every
//! cell over its seeds, and a form for T, the budget, the seeds and the recipe (URL keys of the
//! lab page). Sweeps are kept across reloads, a sweep in training with its seed's latest
//! checkpoint ([`store`]). A task switcher at the top of the
//! page moves between delay-copy and the three tasks.
//!
//! Test hooks: `task-switch-<key>` (delay, adding, copy, order; `aria-pressed` on the shown
//! one), `memory-page` (`data-value` = the task), `task-baseline` (`data-value` = the
//! baseline's held-out loss), `memory-length` (T), `memory-budget` (steps per run),
//! `memory-params-<cell>`, `memory-start` / `-pause` / `-resume` / `-reset`, `memory-status`,
//! `memory-progress` (fraction of the steps), `memory-time-left` (seconds),
//! `memory-interrupted` (`data-value` = runs finished, `data-step` = the step of the seed Go on
//! resumes, absent when it starts again) with `memory-go-on`, `memory-saved` (the training
//! seed's checkpoint is kept: `data-value` = its step, `data-seed` = its number from 1),
//! `memory-store-error`, `memory-error`,
//! `mcfg-<key>` (the form's inputs), `memory-default-shows`, `chart-memory-loss` (points drawn),
//! `memory-log-y` (the log-axis switch),
//! `memory-outcome` (`data-value` = the outcome's key: `unfinished`, `no-difference`, `split`,
//! `all-beat`, `seeds-disagree`), `memory-spread-row` (`data-cell`, `data-seeds`, `data-min`,
//! `data-max`, `data-beat`, `data-solved`),
//! `memory-summary` (`data-value` = runs finished) with `memory-summary-row` (`data-cell`,
//! `data-seed`, `data-value` = final held-out loss, `data-solved` = sequences or empty).

mod driver;
mod form;
mod outcome;
mod panels;
pub mod store;
pub mod text;

use self::driver::memory_plan;
use self::driver::MemoryDriver;
use self::form::SettingsForm;
use self::outcome::OutcomePanel;
use self::panels::{AsPytorchPanel, ChartPanel, RunPanel, SummaryPanel, TaskIntro};
use crate::kit::nav::use_nav;
use crate::shell::i18n::use_locale;
use crate::shell::url::{PageNotice, UrlNotice};
use leptos::prelude::*;
use std::collections::HashMap;
use text::MemoryText;
use unroll_core::config::delay::{DelayConfig, LabTask};
use unroll_core::config::query::{encode, quiz_on, with_quiz};

/// The tasks' styles (and the delay-copy part hidden while a task is shown).
const CSS: &str = r#"
.delay-page.mt-hidden { display: none; }
.mt-switch { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 0 0 12px; }
.mt-switch .btn[aria-pressed="true"],
.mt-switch .btn[aria-pressed="true"]:hover:not(:disabled) { background: #1d4ed8; color: #fff; border-color: #1d4ed8; }
.mt-facts { margin: 0; padding-left: 18px; font-size: 14px; line-height: 1.5; }
.mt-params { display: flex; flex-wrap: wrap; gap: 4px 16px; font-family: var(--mono, monospace); font-size: 13px; }
.mt-baseline { font-weight: 600; }
.mt-log-y { display: inline-flex; align-items: center; gap: 4px; font-size: 13px; margin: 6px 0 0; }
.memory-page .page-intro .panel-note { margin-top: 10px; }
.mt-params-head { margin: 10px 0 4px; }
.mt-controls { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin-top: 0; }
.mt-controls .btn { padding-left: 14px; padding-right: 14px; }
.mt-bar { height: 8px; background: #e2e8f0; border-radius: 4px; overflow: hidden; margin: 8px 0; }
.mt-bar > div { height: 100%; background: #1d4ed8; }
.mt-line { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 13px; color: var(--muted, #627289); }
.mt-table { border-collapse: collapse; font-size: 13px; width: 100%; }
.mt-table th, .mt-table td { border-bottom: 1px solid #e2e8f0; padding: 6px 8px; text-align: left; }
.mt-table-wrap { overflow-x: auto; }
.mt-form { display: grid; grid-template-columns: repeat(auto-fill, minmax(140px, 1fr)); gap: 4px 16px; }
.mt-form .field { display: flex; flex-direction: column; }
.mt-form .field input { margin-top: auto; }
.mt-outcome { font-weight: 600; }
.mt-spread-head { font-size: 15px; margin: 12px 0 4px; }
.memory-page .notice .btn { margin-left: 12px; }
"#;

/// The task switcher, and the task's page when the configuration names one of the three
/// tasks. `delay_busy`: a delay-copy sweep is running (the switcher waits for it).
#[component]
pub fn MemoryPage(
    /// The lab page's configuration (its `task` picks the page part shown).
    cfg: RwSignal<DelayConfig>,
    /// The page's notices of adjusted URL values (the form adds to them).
    notices: RwSignal<Vec<PageNotice>>,
    /// A delay-copy sweep is running.
    delay_busy: Signal<bool>,
) -> impl IntoView {
    let driver = MemoryDriver::new();
    let kind = Memo::new(move |_| cfg.with(|c| c.task.memory()));
    // The kept sweep of the configuration shown (after a reload, a task switch or a change of
    // the form), unless a sweep is training.
    Effect::new(move |_| {
        // Again once the kept sweeps have been read.
        driver.loaded.track();
        cfg.with(|c| driver.show(c))
    });
    let plan = Memo::new(move |_| driver.plan.get().map(Ok).or_else(|| cfg.with(memory_plan)));
    // The task page's files carry its plan (the delay-copy part's carry its own settings).
    crate::widgets::export::provide_file_tag(Signal::derive(move || match plan.get() {
        Some(Ok(p)) => p.file_tag(),
        _ => cfg.with(|c| {
            c.task
                .memory()
                .map_or_else(|| c.file_tag(), |k| k.as_str().to_owned())
        }),
    }));
    view! {
        <style>{CSS}</style>
        <TaskSwitcher cfg=cfg notices=notices driver=driver delay_busy=delay_busy />
        {move || kind.get().map(|kind| view! {
            <div class="training-page memory-page" data-testid="memory-page" data-value=kind.as_str()>
                <TaskIntro cfg=cfg kind=kind plan=plan />
                <UrlNotice notices=notices />
                <SettingsForm cfg=cfg notices=notices driver=driver />
                <RunPanel cfg=cfg driver=driver plan=plan />
                <ChartPanel kind=kind driver=driver plan=plan />
                <OutcomePanel driver=driver />
                <SummaryPanel driver=driver />
                <AsPytorchPanel cfg=cfg plan=plan />
            </div>
        })}
    }
}

/// Buttons between delay-copy and the three tasks. A switch is a new history entry (Back
/// returns to the task left). Each task opens with its own defaults the first time and with the
/// settings it was left with after that (for this visit: the page stays mounted); the notices
/// of the link the page was opened with are about that link, so a switch clears them.
#[component]
fn TaskSwitcher(
    cfg: RwSignal<DelayConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    driver: MemoryDriver,
    delay_busy: Signal<bool>,
) -> impl IntoView {
    let loc = use_locale();
    let nav = use_nav();
    let label = move |task: LabTask| {
        let t = MemoryText::of(loc.lang());
        task.memory().map_or(t.delay, |k| t.names[text::index(k)])
    };
    let locked = move || delay_busy.get() || driver.status.get().busy();
    // Every task's settings as last shown.
    let left_with = StoredValue::new(HashMap::<LabTask, DelayConfig>::new());
    Effect::new(move |_| {
        cfg.with(|c| left_with.update_value(|m| _ = m.insert(c.task, c.clone())));
    });
    let switch = move |task: LabTask| {
        if cfg.with_untracked(|c| c.task) == task {
            return;
        }
        let next = left_with
            .with_value(|m| m.get(&task).cloned())
            .unwrap_or_else(|| DelayConfig {
                task,
                ..DelayConfig::default()
            });
        driver.clear();
        notices.set(Vec::new());
        let quiz = quiz_on(&nav.search.get_untracked());
        nav.push(&with_quiz(encode(&next, loc.chosen.get_untracked()), quiz));
    };
    view! {
        <nav class="mt-switch" aria-label=move || MemoryText::of(loc.lang()).switch>
            <span>{move || MemoryText::of(loc.lang()).switch}</span>
            {LabTask::ALL.iter().zip(LabTask::KEYS).map(|(&task, key)| view! {
                <button
                    class="btn"
                    data-testid=format!("task-switch-{key}")
                    aria-pressed=move || (cfg.with(|c| c.task) == task).to_string()
                    disabled=locked
                    on:click=move |_| switch(task)
                >
                    {move || label(task)}
                </button>
            }).collect_view()}
        </nav>
    }
}
