//! The classic long-memory tasks' part of the sequence lab page (`?lesson=delay&task=adding`,
//! `copy`, `order`): what the task is and its paper, T, the recipe and budget, parameter
//! counts, RNN, LSTM and GRU trained seed by seed, taking turns, in the engine's Web Worker
//! ([`unroll_core::train::sweep`]) on WebGPU or the CPU path (`backend`, each cell's path and
//! its step-1 loss shown), their held-out loss on one chart with the task's
//! memoryless baseline and its "solved" level drawn over the runs' lines (a log axis on
//! request), and a summary per run ("solved after N sequences",
//! next to the paper's figure), what the runs show (one sentence from
//! [`unroll_core::memory::outcome::judge`], [`text::outcome_text`]) with the spread of every
//! cell over its seeds, and a form for T, the budget, the seeds and the recipe (URL keys of the
//! lab page). Sweeps are kept across reloads, a sweep in training with its seed's latest
//! checkpoint ([`store`], through [`crate::sequence::store::MEMORY`]).
//!
//! Test hooks: `memory-page` (`data-value` = the task), `task-baseline` (`data-value` = the
//! baseline's held-out loss), `memory-length` (T), `memory-budget` (steps per run),
//! `memory-params-<cell>`, `memory-start` / `-pause` / `-resume` / `-reset`, `memory-status`,
//! `memory-progress` (fraction of the steps), `memory-time-left` (seconds),
//! `memory-backend-<cell>` (the path its runs train on, `webgpu`/`cpu`; `data-notice`
//! measured/fallback/lost, `data-gpu-ms` and `data-cpu-ms` when `backend=auto` measured),
//! `memory-loss-first-<cell>` (its first seed's step-1 training loss), `mcfg-backend`,
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

mod form;
mod outcome;
mod panels;
pub mod store;
pub mod text;

use self::form::SettingsForm;
use self::outcome::OutcomePanel;
use self::panels::{AsPytorchPanel, ChartPanel, RunPanel, SummaryPanel, TaskIntro};
use crate::sequence::driver::{LabDriver, Part};
use crate::sequence::store::{Records, MEMORY};
use crate::shell::run_status::RunStatus;
use crate::shell::url::{PageNotice, UrlNotice};
use leptos::prelude::*;
use unroll_core::config::delay::DelayConfig;
use unroll_core::train::sweep::SweepPlan;

/// The long-memory tasks' sweeps: the held-out curves of each sweep kept at every point
/// ([`store::KeptSweep`]), the engine's checkpoint alone ([`store::ResumePoint`]); a sweep a reload
/// stopped is shown stopped with Go on; the page shows the kept sweep of whatever
/// configuration the form names.
pub struct LongMemory;

impl Part for LongMemory {
    type Kept = Vec<store::KeptSweep>;
    type Curves = ();
    const RECORDS: Records = MEMORY;
    const OFFER: RunStatus = RunStatus::Stopped;
    const FOLLOWS_FORM: bool = true;
}

/// The long-memory sweep shown.
pub type MemoryDriver = LabDriver<LongMemory>;

/// The plan of a long-memory configuration (`None` for delay-copy), or why T does not fit.
pub fn memory_plan(
    config: &DelayConfig,
) -> Option<Result<SweepPlan, unroll_core::memory::task::LengthError>> {
    config.task.memory()?;
    Some(SweepPlan::of_lab(config).map_err(|e| match e {
        unroll_core::task::TaskError::Length(e) => e,
        unroll_core::task::TaskError::Delay(_) | unroll_core::task::TaskError::NoData => {
            unreachable!("a long-memory task")
        }
    }))
}

/// The part of a long-memory task (the configuration names one of the three): what it is, its
/// form, its run, chart, outcome, summary and script.
#[component]
pub fn MemoryPart(
    /// The page's configuration (its `task` picks the task shown).
    cfg: RwSignal<DelayConfig>,
    /// The page's notices of adjusted URL values (the form adds to them).
    notices: RwSignal<Vec<PageNotice>>,
    /// The long-memory sweep.
    driver: MemoryDriver,
) -> impl IntoView {
    let kind = Memo::new(move |_| cfg.with(|c| c.task.memory()));
    // The kept sweep of the configuration shown (after a reload, a task switch or a change of
    // the form), unless a sweep is training.
    Effect::new(move |_| {
        // Again once the kept sweeps have been read.
        driver.loaded.track();
        cfg.with(|c| driver.show(c))
    });
    let plan = Memo::new(move |_| driver.plan().map(Ok).or_else(|| cfg.with(memory_plan)));
    // The task's files carry its plan.
    crate::widgets::export::provide_file_tag(Signal::derive(move || match plan.get() {
        Some(Ok(p)) => p.file_tag(),
        _ => cfg.with(|c| {
            c.task
                .memory()
                .map_or_else(|| c.file_tag(), |k| k.as_str().to_owned())
        }),
    }));
    view! {
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
