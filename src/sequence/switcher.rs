//! The sequence lab's task switcher: one button per task (delay-copy, adding, copy memory,
//! temporal order, names generation), the shown one pressed, all waiting while a sweep trains.
//! Test hooks: `task-switch-<key>` (delay, adding, copy, order, generate; `aria-pressed` on the
//! shown one).

use crate::kit::nav::use_nav;
use crate::sequence::memory::text::{self, MemoryText};
use crate::shell::i18n::use_locale;
use crate::shell::url::PageNotice;
use leptos::prelude::*;
use std::collections::HashMap;
use unroll_core::config::delay::{DelayConfig, LabTask};
use unroll_core::config::query::{quiz_on, with_quiz};
use unroll_core::config::Lang;
use unroll_core::train::plan::encode_lab;

/// Buttons between delay-copy and the three tasks. A switch is a new history entry (Back
/// returns to the task left). Each task opens with its own defaults the first time and with the
/// settings it was left with after that (for this visit: the page stays mounted); the notices
/// of the link the page was opened with are about that link, so a switch clears them.
#[component]
pub fn TaskSwitcher(
    cfg: RwSignal<DelayConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    /// A sweep of the page is running (the switcher waits for it).
    busy: Signal<bool>,
    /// Called before a switch (the task part left lets go of what it showed).
    on_switch: Callback<()>,
) -> impl IntoView {
    let loc = use_locale();
    let nav = use_nav();
    let label = move |task: LabTask| task_name(task, loc.lang());
    let locked = move || busy.get();
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
        on_switch.run(());
        notices.set(Vec::new());
        let quiz = quiz_on(&nav.search.get_untracked());
        nav.push(&with_quiz(
            encode_lab(&next, loc.chosen.get_untracked()),
            quiz,
        ));
    };
    view! {
        // Its styles are in www/styles.css: the first frame (www/frame.js) draws it too.
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

/// A task's name in the switcher (and in the first frame's copy of it).
pub fn task_name(task: LabTask, lang: Lang) -> &'static str {
    let t = MemoryText::of(lang);
    match task {
        LabTask::Generate => crate::sequence::generate::text::GenerateText::of(lang).name,
        task => task.memory().map_or(t.delay, |k| t.names[text::index(k)]),
    }
}
