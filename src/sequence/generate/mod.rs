//! The generation lab's part of the sequence lab page (`?v=1&lesson=generate`): a
//! character-level model of the names, conditioned on the language
//! ([`unroll_core::task::generate`]), trained through the lab's run flow in the engine's Web
//! Worker on the names data set, and a sampler that writes a name letter by letter with the
//! run's weights, showing each step's softmax and h_t ([`sampler`]). Its request is in the URL
//! (`language`, `prefix`, `temperature`, `top_k`, `sample_seed`, `greedy`), so a written name
//! is a shareable link.
//!
//! Test hooks: `generate-page`, `generate-data` (`data-value` = languages once loaded),
//! `generate-start` / `-pause` / `-resume` / `-reset`, `generate-status`, `generate-progress`
//! (`data-value` = fraction of the steps), `generate-heldout` (`data-value` = the last
//! held-out loss per character, `data-step`), `generate-error`; the sampler's (see
//! [`sampler`]).

mod curves;
mod sampler;
pub mod text;

use self::curves::CurvesPanel;
use self::sampler::SamplerPanel;
use self::text::GenerateText;
use super::flow::{PartEvents, RunFlow};
use crate::kit::fmt::count_commas;
use crate::shell::engine_client::{DataRef, EngineClient};
use crate::shell::i18n::use_locale;
use crate::shell::run_status::RunStatus;
use crate::shell::url::{PageNotice, UrlNotice};
use crate::widgets::run_controls::{RunAction, RunControls};
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::rc::Rc;
use std::sync::Arc;
use unroll_core::config::delay::DelayConfig;
use unroll_core::math::params::CellKind;
use unroll_core::task::generate::{Conditioning, GenerateTask, LmBaselines};
use unroll_core::task::GENERATE_SPLIT_SEED;
use unroll_core::data::names::NamesDataset;
use unroll_core::train::messages::TrainError;
use unroll_core::train::plan::generate_recipe;
use unroll_core::train::sweep::{Progress, RunId, SweepCheckpoint, Tick, Weights};

/// The part's styles.
pub(super) const CSS: &str = r#"
.gen-form { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 8px 16px; align-items: end; }
.gen-form .field { display: flex; flex-direction: column; gap: 2px; font-size: 13px; }
.gen-modes { display: inline-flex; gap: 0; }
.gen-modes .btn[aria-pressed="true"] { background: #1d4ed8; color: #fff; border-color: #1d4ed8; }
.gen-name { font-family: var(--mono, monospace); font-size: 28px; letter-spacing: 2px; margin: 8px 0 2px; min-height: 36px; }
.gen-name .gen-prefix { color: var(--muted, #627289); }
.gen-name .gen-next { border-bottom: 2px solid #ea580c; }
.gen-bars { display: grid; grid-template-columns: 56px 1fr 56px; gap: 3px 8px; align-items: center; font-size: 13px; max-width: 520px; }
.gen-bar { height: 14px; background: #cbd5e1; border-radius: 2px; }
.gen-bar-row.chosen .gen-bar { background: #ea580c; }
.gen-bar-row.chosen .gen-sym { font-weight: 700; }
.gen-bar-row { display: contents; }
.gen-sym { font-family: var(--mono, monospace); text-align: right; }
.gen-p { font-family: var(--mono, monospace); color: var(--muted, #627289); }
.gen-step-row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; margin: 8px 0; }
.gen-hidden { overflow-x: auto; max-width: 100%; }
.generate-page .page-intro .panel-note { margin-top: 10px; }
.gen-bars { grid-template-columns: 56px 1fr 110px; }
"#;

/// Where the names data set stands.
#[derive(Clone)]
pub enum DataState {
    /// Fetching: files fetched, files in all (0 until the manifest is read).
    Loading(usize, usize),
    /// Loaded, and offered to the engine.
    Ready(Rc<NamesDataset>),
    /// Why it did not load.
    Failed(crate::kit::names_data::DataLoadError),
}

/// The generation lab's state: its data set, its run and the weights the sampler writes with.
#[derive(Clone, Copy)]
pub struct GenerateModel {
    /// The names data set.
    pub data: RwSignal<DataState, LocalStorage>,
    /// The run flow (status, seconds, paths, session).
    pub flow: RunFlow,
    /// Held-out loss per character of the first run, `(step, loss)`.
    pub heldout: RwSignal<Vec<(u64, f64)>>,
    /// Steps done and in all.
    pub progress: RwSignal<(u64, u64)>,
    /// The latest weights of the first run.
    pub weights: RwSignal<Option<Rc<Weights>>, LocalStorage>,
    /// Why the run failed.
    pub error: RwSignal<Option<String>>,
    /// The run the page shows (the sweep's first).
    first: StoredValue<Option<RunId>>,
    /// The baselines fitted on the training names (once the data set is loaded).
    pub baselines: RwSignal<Option<LmBaselines>>,
    /// The symbols the head chooses among (letters and the end marker).
    pub classes: RwSignal<usize>,
    /// The cell of the run shown.
    pub cell: RwSignal<Option<CellKind>>,
}

impl GenerateModel {
    fn new() -> Self {
        let m = GenerateModel {
            data: RwSignal::new_local(DataState::Loading(0, 0)),
            flow: RunFlow::new(super::store::GENERATE),
            first: StoredValue::new(None),
            baselines: RwSignal::new(None),
            classes: RwSignal::new(0),
            cell: RwSignal::new(None),
            heldout: RwSignal::new(Vec::new()),
            progress: RwSignal::new((0, 0)),
            weights: RwSignal::new_local(None),
            error: RwSignal::new(None),
        };
        spawn_local(async move {
            let data = m.data;
            let fetched = crate::kit::names_data::fetch_files(move |d, n| {
                data.set(DataState::Loading(d, n))
            })
            .await;
            crate::shell::defer::next_task().await;
            let state = match fetched.and_then(|files| {
                NamesDataset::from_named_files(files)
                    .map_err(crate::kit::names_data::DataLoadError::Load)
            }) {
                Ok(d) => {
                    let task = GenerateTask::new(
                        Arc::new(d.clone()),
                        GENERATE_SPLIT_SEED,
                        Conditioning::Input,
                    );
                    m.baselines.set(Some(task.baselines()));
                    m.classes.set(task.alphabet().classes());
                    let d = Rc::new(d);
                    EngineClient::get().offer_data(&d);
                    DataState::Ready(d)
                }
                Err(e) => DataState::Failed(e),
            };
            data.set(state);
        });
        m
    }

    /// The data set once loaded.
    pub fn dataset(&self) -> Option<Rc<NamesDataset>> {
        self.data.with(|d| match d {
            DataState::Ready(d) => Some(d.clone()),
            _ => None,
        })
    }

    /// Trains `config` (the first run's weights go to the sampler).
    fn start(&self, config: &DelayConfig) {
        let Some(data) = self.dataset() else {
            return;
        };
        self.heldout.set(Vec::new());
        self.error.set(None);
        self.weights.set(None);
        self.progress.set((0, 0));
        self.first.set_value(None);
        self.flow.set_seconds(0.0);
        self.flow
            .launch_on(config, None, Some(DataRef::Page(data)), Events(*self));
    }

    fn reset(&self) {
        self.flow.clear();
        self.heldout.set(Vec::new());
        self.progress.set((0, 0));
        self.error.set(None);
    }
}

/// The engine's reports of the lab's run.
struct Events(GenerateModel);

impl Events {
    /// Whether `run` is the one the page shows (the first the engine reports).
    fn shown(&self, run: RunId) -> bool {
        let first = self.0.first.get_value().unwrap_or(run);
        self.0.first.set_value(Some(first));
        first == run
    }
}

impl PartEvents for Events {
    fn tick(&self, tick: Tick) {
        if let Some(h) = tick.heldout {
            if self.shown(tick.run) {
                self.0.heldout.update(|c| c.push((h.step, h.loss)));
            }
        }
    }

    fn progress(&self, progress: Progress, _predictions: Vec<(RunId, Vec<u32>)>) {
        self.0
            .progress
            .set((progress.steps_done, progress.steps_total));
    }

    fn checkpoint(&self, _checkpoint: SweepCheckpoint) {}

    fn finished(&self) {
        self.0.progress.update(|(d, n)| *d = *n);
    }

    fn failed(&self, error: TrainError) -> RunStatus {
        self.0.error.set(Some(error.to_string()));
        RunStatus::Error
    }

    fn weights(&self, run: RunId, weights: Rc<Weights>) {
        if self.shown(run) {
            self.0.cell.set(Some(run.cell));
            self.0.weights.set(Some(weights));
        }
    }
}

/// The generation lab: what it is, its training and its sampler.
#[component]
pub fn GeneratePart(
    /// The page's configuration (`task=generate`).
    cfg: RwSignal<DelayConfig>,
    /// The page's notices of adjusted URL values.
    notices: RwSignal<Vec<PageNotice>>,
    /// The part's state, kept while the page is mounted.
    model: GenerateModel,
) -> impl IntoView {
    let loc = use_locale();
    let t = move || GenerateText::of(loc.lang());
    let plan = Memo::new(move |_| {
        let ready = model.data.with(|d| matches!(d, DataState::Ready(_)));
        let (cells, _, r, steps) = cfg.with(generate_recipe);
        ready.then(|| {
            (
                cells[0],
                r.num_layers,
                r.hidden_size,
                r.lr,
                r.batch_size,
                steps,
            )
        })
    });
    let status = model.flow.status;
    let start = RunAction::new(
        move || t().buttons[if status.get().ended() { 1 } else { 0 }],
        move || !status.get().busy() && plan.get().is_some(),
        move || model.start(&cfg.get_untracked()),
    );
    let pause = RunAction::new(
        move || t().buttons[2],
        move || status.get().can_pause(),
        move || model.flow.pause(),
    );
    let resume = RunAction::new(
        move || t().buttons[3],
        move || status.get().can_resume(),
        move || _ = model.flow.resume(),
    );
    let reset = RunAction::new(
        move || t().buttons[4],
        move || status.get() != RunStatus::Idle,
        move || model.reset(),
    );
    let data_line = move || match model.data.get() {
        DataState::Loading(d, n) => {
            view! { <p class="panel-note" data-testid="generate-data">{(t().loading)(&d.to_string(), &n.to_string())}</p> }.into_any()
        }
        DataState::Failed(e) => {
            let text = match loc.lang() {
                unroll_core::config::Lang::En => e.to_string(),
                unroll_core::config::Lang::Zh => crate::kit::names_data::data_failure_zh(&e),
            };
            view! { <p class="notice notice-error" role="alert" data-testid="generate-error">{text}</p> }.into_any()
        }
        DataState::Ready(d) => view! {
            <p class="panel-note" data-testid="generate-data" data-value=d.num_classes().to_string()>
                {move || plan.get().map(|(cell, layers, h, lr, b, steps)| {
                    let cond = t().conditioning[cfg.with(|c| c.conditioning as usize)];
                    (t().recipe)(cell.name(), &layers.to_string(), &h.to_string(), &lr.to_string(), &b.to_string(), &count_commas(steps), cond)
                })}
            </p>
        }
        .into_any(),
    };
    let fraction = move || {
        let (d, n) = model.progress.get();
        if n == 0 {
            0.0
        } else {
            d as f64 / n as f64
        }
    };
    let heldout = move || {
        model.heldout.with(|h| h.last().copied()).map(|(step, loss)| {
            view! {
                <p class="lx-text" data-testid="generate-heldout" data-value=loss.to_string() data-step=step.to_string()>
                    {(t().heldout)(&format!("{loss:.3}"), &format!("{:.2}", loss.exp()), &count_commas(step))}
                </p>
            }
        })
    };
    view! {
        <div class="training-page generate-page" data-testid="generate-page">
            <section class="page-intro lx-intro">
                <h1>{move || t().name}</h1>
                <p class="lede">{move || t().what}</p>
                <p class="panel-note">{move || t().structures}</p>
                <crate::kit::nav::CopyLink />
            </section>
            <UrlNotice notices=notices />
            <section class="panel">
                <h2>{move || t().train}</h2>
                {data_line}
                <RunControls prefix="generate" class="mt-controls" start=start pause=pause resume=resume reset=reset>
                    <span class="panel-note" data-testid="generate-status" data-value=move || status.get().key()>
                        {move || (t().progress)(&count_commas(model.progress.get().0), &count_commas(model.progress.get().1))}
                    </span>
                </RunControls>
                <div class="mt-bar" data-testid="generate-progress" data-value=move || fraction().to_string()>
                    <div style=move || format!("width: {:.1}%", fraction() * 100.0)></div>
                </div>
                {heldout}
                {move || model.error.get().map(|e| view! {
                    <p class="notice notice-error" role="alert" data-testid="generate-error">{(t().failed)(&e)}</p>
                })}
            </section>
            <CurvesPanel model=model />
            <SamplerPanel cfg=cfg model=model />
        </div>
    }
}

/// A fresh state for the part (the page creates it once).
pub fn model() -> GenerateModel {
    GenerateModel::new()
}
