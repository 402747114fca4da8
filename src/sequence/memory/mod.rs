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

/// The tasks' styles.
pub(super) const CSS: &str = r#"
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
.mt-form .field:has(select) { grid-column: span 2; }
.mt-spread-head { font-size: 15px; margin: 12px 0 4px; }
.memory-page .notice .btn { margin-left: 12px; }
"#;

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
