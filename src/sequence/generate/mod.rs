//! The generation lab's part of the sequence lab page (`?v=1&lesson=generate`): a
//! character-level model of the names, conditioned on the language
//! ([`unroll_core::task::generate`]), trained through the lab's run flow in the engine's Web
//! Worker on the names data set, and a sampler that writes a name letter by letter with the
//! run's weights, showing each step's softmax and h_t ([`sampler`]). Its request is in the URL
//! (`language`, `prefix`, `temperature`, `top_k`, `sample_seed`, `greedy`), so a written name
//! is a shareable link.
//!
//! Its runs train on the lab's one driver and are kept in the browser under their training
//! settings ([`keep`]): a reload shows a finished run again with its curves, held-out figures
//! and weights (the sampler and the quality panel write with them), and offers to resume a run
//! it stopped from its checkpoint.
//!
//! Test hooks: `generate-page`, `generate-data` (`data-value` = languages once loaded),
//! `generate-start` / `-pause` / `-resume` / `-reset`, `generate-status`, `generate-progress`
//! (`data-value` = fraction of the steps), `generate-heldout` (`data-value` = the last
//! held-out loss per character, `data-step`), `generate-error`, `generate-backend-<cell>`
//! (the path the run trains on) and `generate-loss-first-<cell>` (its step-1 training loss per
//! character; both [`crate::sequence::cells`]); what is kept's (see [`keep`]);
//! the sampler's (see [`sampler`]).

mod bidir;
mod curves;
pub mod keep;
mod quality;
mod question;
mod sampler;
mod script;
pub mod text;

use self::bidir::BidirPanel;
use self::curves::CurvesPanel;
use self::keep::{training, GenerateDriver, KeptNotes};
use self::quality::QualityPanel;
use self::sampler::SamplerPanel;
use self::text::GenerateText;
use super::flow::RunFlow;
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
use unroll_core::config::query::encode;
use unroll_core::data::names::NamesDataset;
use unroll_core::engine::generate::{request_of, GenerateJob, QUALITY_SAMPLES};
use unroll_core::math::params::CellKind;
use unroll_core::task::generate::sample::{Quality, SampleRequest};
use unroll_core::task::generate::{Conditioning, GenerateTask, LmBaselines};
use unroll_core::task::GENERATE_SPLIT_SEED;
use unroll_core::train::plan::generate_recipe;
use unroll_core::train::sweep::Weights;

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

/// The runs of one direction: unidirectional (0) or bidirectional (1).
#[derive(Clone, Copy)]
pub struct Direction {
    /// Held-out loss per character of its run, `(step, loss)`.
    pub heldout: RwSignal<Vec<(u64, f64)>>,
    /// Training-batch loss per character of its run, `(step, loss)`, every step.
    pub train: RwSignal<Vec<(u64, f64)>>,
    /// Its run's latest weights.
    pub weights: RwSignal<Option<Rc<Weights>>, LocalStorage>,
    /// Its samples' quality, one entry per language (after its run finished).
    pub quality: RwSignal<Vec<Quality>>,
    /// The configuration its run trained (for the quality's template).
    pub trained: RwSignal<Option<DelayConfig>>,
}

impl Direction {
    fn new() -> Self {
        Direction {
            heldout: RwSignal::new(Vec::new()),
            train: RwSignal::new(Vec::new()),
            weights: RwSignal::new_local(None),
            quality: RwSignal::new(Vec::new()),
            trained: RwSignal::new(None),
        }
    }

    /// The last held-out loss per character.
    pub fn loss(&self) -> Option<f64> {
        self.heldout.with(|h| h.last().map(|p| p.1))
    }
}

/// The generation lab's state: its data set, the runs of both directions and the weights the
/// sampler writes with.
#[derive(Clone, Copy)]
pub struct GenerateModel {
    /// The names data set.
    pub data: RwSignal<DataState, LocalStorage>,
    /// The runs on the lab's driver (trained, kept, resumed).
    pub driver: GenerateDriver,
    /// The driver's run flow (status, seconds, paths, session).
    pub flow: RunFlow,
    /// Unidirectional (0) and bidirectional (1), as [`keep::follow`] feeds them.
    pub dirs: [Direction; 2],
    /// Steps done and in all of the run shown.
    pub progress: Memo<(u64, u64)>,
    /// Why measuring the samples failed.
    pub error: RwSignal<Option<String>>,
    /// Train the bidirectional model after the unidirectional one (the comparison).
    chain: StoredValue<bool>,
    /// The quality's engine session (Reset stops it).
    measuring: RwSignal<Option<u64>>,
    /// The weights' step each direction's quality was measured with (or is being measured).
    measured: StoredValue<[Option<u64>; 2]>,
    /// The canonical queries of the runs trained in this visit (the others shown were kept
    /// from an earlier one).
    here: RwSignal<Vec<String>>,
    /// The names classifier kept in this browser, as the last quality measurement found it.
    pub classifier: RwSignal<quality::Kept>,
    /// The baselines fitted on the training names (once the data set is loaded).
    pub baselines: RwSignal<Option<LmBaselines>>,
    /// The symbols the head chooses among (letters and the end marker).
    pub classes: RwSignal<usize>,
    /// The cell of the run shown.
    pub cell: RwSignal<Option<CellKind>>,
    /// The direction the chart and the sampler show (the page's `bidirectional`).
    pub shown: Memo<usize>,
}

impl GenerateModel {
    fn new(cfg: RwSignal<DelayConfig>) -> Self {
        let driver = GenerateDriver::new(cfg);
        let m = GenerateModel {
            shown: Memo::new(move |_| usize::from(cfg.with(|c| c.bidirectional))),
            data: RwSignal::new_local(DataState::Loading(0, 0)),
            driver,
            flow: driver.flow,
            dirs: [Direction::new(), Direction::new()],
            chain: StoredValue::new(false),
            measuring: RwSignal::new(None),
            measured: StoredValue::new([None, None]),
            here: RwSignal::new(Vec::new()),
            classifier: RwSignal::new(quality::Kept::Unread),
            baselines: RwSignal::new(None),
            classes: RwSignal::new(0),
            cell: RwSignal::new(None),
            progress: Memo::new(move |_| driver.steps()),
            error: RwSignal::new(None),
        };
        keep::follow(m, cfg);
        spawn_local(async move {
            let data = m.data;
            let fetched =
                crate::kit::names_data::fetch_files(move |d, n| data.set(DataState::Loading(d, n)))
                    .await;
            crate::shell::defer::next_task().await;
            let state = match fetched.and_then(|files| {
                NamesDataset::from_named_files(files)
                    .map_err(crate::kit::names_data::DataLoadError::Load)
            }) {
                Ok(d) => {
                    let names = Arc::new(d.clone());
                    let task =
                        GenerateTask::new(names.clone(), GENERATE_SPLIT_SEED, Conditioning::Input);
                    m.baselines.set(Some(task.baselines()));
                    m.classes.set(task.alphabet().classes());
                    let d = Rc::new(d);
                    EngineClient::get().offer_data(&d);
                    m.driver.set_data(d.clone(), names);
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

    /// Trains `config` (its direction's kept run is replaced); `chain`: then the same model
    /// with a backward direction (whose kept run is forgotten now).
    fn start(&self, config: &DelayConfig, chain: bool) {
        if !self.driver.has_data() {
            return;
        }
        self.stop_measuring();
        if chain {
            self.driver.forget(&keep::pair(config)[1]);
        }
        self.chain.set_value(chain);
        self.error.set(None);
        self.train(training(config));
    }

    /// Starts the run of `config` (without the sampler's keys) on the driver.
    fn train(&self, config: DelayConfig) {
        let query = encode(&config, None);
        self.here.update(|h| {
            if !h.contains(&query) {
                h.push(query)
            }
        });
        self.driver.start(config);
    }

    /// Trains the unidirectional model of `config`, then the bidirectional one.
    fn compare(&self, config: &DelayConfig) {
        let uni = DelayConfig {
            bidirectional: false,
            ..config.clone()
        };
        self.start(&uni, true);
    }

    /// Stops the run, and forgets both directions of the recipe `config` names, in the page
    /// and in the browser.
    fn reset(&self, config: &DelayConfig) {
        self.stop_measuring();
        self.chain.set_value(false);
        self.driver.reset();
        for c in keep::pair(config) {
            self.driver.forget(&c);
        }
        self.error.set(None);
    }

    /// Something of either direction is shown (reactive).
    fn any_shown(&self) -> bool {
        self.dirs.iter().any(|d| d.trained.with(Option::is_some))
    }

    fn stop_measuring(&self) {
        if let Some(id) = self.measuring.get_untracked() {
            EngineClient::get().cancel(id);
            self.measuring.set(None);
        }
    }

    /// Writes [`QUALITY_SAMPLES`] names per language with direction `dir`'s weights at the
    /// sampler's temperature, top-k and seed (no prefix), and keeps their quality.
    fn measure(&self, dir: usize, sampler: &DelayConfig) {
        let (Some(data), Some(weights)) = (self.dataset(), self.dirs[dir].weights.get_untracked())
        else {
            return;
        };
        let Some(trained) = self.dirs[dir].trained.get_untracked() else {
            return;
        };
        let request = SampleRequest {
            prefix: String::new(),
            greedy: false,
            ..request_of(sampler)
        };
        let job = GenerateJob {
            query: encode(&trained, None),
            data: 0,
            weights: (*weights).clone(),
            request,
            classifier: None,
        };
        let languages = (0..data.num_classes() as u32).collect();
        let client = EngineClient::get();
        let session = client.new_session();
        self.measuring.set(Some(session));
        let quality = self.dirs[dir].quality;
        quality.set(Vec::new());
        let me = *self;
        let measured = weights.clone();
        spawn_local(async move {
            // The names classifier kept in this browser judges the samples too, if there is one.
            let (kept, classifier) = quality::read_kept().await;
            me.classifier.set(kept);
            // Reset or trained again meanwhile: these weights are no longer the direction's.
            let current = me.dirs[dir]
                .weights
                .with_untracked(|w| w.as_ref().is_some_and(|w| Rc::ptr_eq(w, &measured)));
            if !current {
                return;
            }
            let job = GenerateJob { classifier, ..job };
            client
                .quality(
                    session,
                    job,
                    &DataRef::Page(data),
                    languages,
                    QUALITY_SAMPLES,
                    move |r| match r {
                        Ok(q) => quality.update(|v| v.push(q)),
                        Err(e) => me.error.set(Some(e.to_string())),
                    },
                )
                .await;
            if me.measuring.get_untracked() == Some(session) {
                me.measuring.set(None);
            }
        });
    }
}

// long: the part's wiring in one place (URL, data set, driver, the two directions' runs), so
// each panel takes its signals from here, as the names page does
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
    // The bidirectional pair's question veils the figures that would answer it.
    crate::kit::question::provide_veil();
    crate::widgets::export::provide_file_tag(script::file_tag(cfg));
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
        move || model.start(&cfg.get_untracked(), false),
    );
    let pause = RunAction::new(
        move || t().buttons[2],
        move || status.get().can_pause(),
        move || model.flow.pause(),
    );
    let resume = RunAction::new(
        move || t().buttons[3],
        move || status.get().can_resume(),
        move || model.driver.resume(),
    );
    let reset = RunAction::new(
        move || t().buttons[4],
        move || status.get() != RunStatus::Idle || model.any_shown(),
        move || model.reset(&cfg.get_untracked()),
    );
    let data_line = move || {
        match model.data.get() {
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
    }
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
        let dir = model.dirs[model.shown.get()];
        dir.heldout.with(|h| h.last().copied()).map(|(step, loss)| {
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
                <label class="mt-log-y">
                    <input type="checkbox" data-testid="gen-bidirectional"
                        disabled=move || status.get().busy()
                        prop:checked=move || cfg.with(|c| c.bidirectional)
                        on:change=move |ev| cfg.update(|c| c.bidirectional = event_target_checked(&ev)) />
                    " "
                    {move || t().bidirectional}
                </label>
                <RunControls prefix="generate" class="mt-controls" start=start pause=pause resume=resume reset=reset>
                    <span class="panel-note" data-testid="generate-status" data-value=move || status.get().key()>
                        {move || (t().progress)(&count_commas(model.progress.get().0), &count_commas(model.progress.get().1))}
                    </span>
                </RunControls>
                <div class="mt-bar" data-testid="generate-progress" data-value=move || fraction().to_string()>
                    <div style=move || format!("width: {:.1}%", fraction() * 100.0)></div>
                </div>
                <crate::sequence::cells::CellLines driver=model.driver prefix="generate" />
                <crate::kit::question::Veiled on=question::bidir_veiled(model) block=true>{heldout}</crate::kit::question::Veiled>
                <KeptNotes model=model />
                {move || model.driver.error.get().or_else(|| model.error.get()).map(|e| view! {
                    <p class="notice notice-error" role="alert" data-testid="generate-error">{(t().failed)(&e)}</p>
                })}
            </section>
            <CurvesPanel model=model />
            <SamplerPanel cfg=cfg model=model />
            <QualityPanel model=model />
            <BidirPanel cfg=cfg model=model />
            <script::GenerateAsPytorch cfg=cfg model=model />
        </div>
    }
}

/// A fresh state for the part (the page creates it once), showing the direction `cfg` names.
pub fn model(cfg: RwSignal<DelayConfig>) -> GenerateModel {
    GenerateModel::new(cfg)
}
