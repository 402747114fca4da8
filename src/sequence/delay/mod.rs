//! The delay-copy part of the sequence lab page (`?lesson=delay`): RNN and LSTM (or the cells
//! chosen by `cell`) learn to output the token from `delay` steps back, several seeds per cell,
//! in the engine's Web Worker ([`unroll_core::engine`]) on WebGPU or the CPU path (`backend`). The page's buttons send commands to the sweep's
//! driver ([`DelayDriver`]: the lab's one driver, [`crate::sequence::driver`], for the part
//! [`DelayCopy`]), which applies what the worker reports to the page's model
//! ([`crate::sequence::runs`], plain data compiled natively too); the page renders it.
//!
//! Every number comes from [`unroll_core::delay`]: parameter counts from the layouts, held-out
//! accuracy and loss from the fixed held-out set ([`unroll_core::train::sweep`]), training-batch
//! figures from the steps, predictions from the current weights, outcome sentences from
//! [`unroll_core::delay::outcome`] (typed verdicts rendered by [`text::verdict_text`]). The sweep
//! summaries (final held-out accuracy vs delay, one per set of settings, shown side by side),
//! the last configurations' finished runs and the sweep in progress are kept in IndexedDB
//! ([`store`], through [`crate::sequence::store::DELAY`]) with the training seed's latest
//! checkpoint; a sweep stopped by a reload is
//! offered for Resume, which goes on from that checkpoint.
//!
//! Test hooks (`data-testid`, raw numbers in `data-value`, fractions 0–1): `delay-start`,
//! `delay-pause`, `delay-resume`, `delay-reset`, `delay-status` (idle/running/paused/finished),
//! `delay-invalid` (the rule when `0 < delay < length` fails), `delay-preset-<d>` (8, 16, 32,
//! 64), `cfg-<key>` for the form controls; `delay-progress` (fraction of the steps),
//! `delay-runs-done`, `delay-time-left` (seconds), `delay-elapsed` (seconds), `delay-budget`
//! (steps per run); per cell (`rnn`, `lstm`, `gru`): `delay-params-<cell>`,
//! `delay-step-<cell>` (steps of the cell's latest run), `delay-heldout-acc-<cell>` and
//! `delay-heldout-loss-<cell>` (mean over the seeds' latest evaluations), `delay-seeds-<cell>`
//! (seeds with a held-out curve), `delay-seed-acc-<cell>` (one per seed: `data-seed`,
//! `data-step`, latest held-out accuracy), `delay-loss-<cell>` / `delay-acc-<cell>` (training
//! batch, mean of the last 20 steps of the latest run), `delay-loss-first-<cell>` (its step 1),
//! `delay-backend-<cell>` (the path its runs train on, `webgpu`/`cpu`; `data-notice`
//! measured/fallback/lost, `data-gpu-ms` and `data-cpu-ms` when `backend=auto` measured),
//! `delay-run-backend` (in a seed's row: the path that run trained on);
//! `window.unrollDebug.loseDevice()` destroys the sweep's GPU device;
//! `chart-delay-acc` / `chart-delay-loss` (held-out, points drawn), `chart-delay-batch`;
//! `delay-outcome` (`data-value` = the outcome's kind) with `delay-outcome-sentence`,
//! `delay-budget-warning` (steps per run, when below recipe R's) and `delay-forget-pointer`
//! (`forget_bias`, when the LSTM stayed at chance with it at most 0); `delay-forget-bias-note`
//! (the note's section); `delay-resume-offer` (runs kept, after a reload during a sweep;
//! `data-seed` / `data-step`: the training seed's number in the sweep and the step its
//! checkpoint resumes from, when one was kept); `delay-checkpoint` (step of the training seed's
//! latest kept checkpoint, `data-seed` its number in the sweep);
//! `delay-summary` (`data-value` = runs recorded with the form's settings),
//! `delay-summary-row` / `delay-summary-cell` / `delay-summary-outcome` (`data-delay`,
//! `data-settings` = the settings that differ between the rows' sets, `data-current` = the
//! form's settings; cells also `data-cell`, `data-seeds`, mean accuracy),
//! `delay-summary-settings` (a row's label); `delay-capacity` (bits); `delay-forget-bias-lstm`
//! (mean of the LSTM's initial forget block of `bias_ih_l0`, first seed); `delay-example` (T),
//! `delay-example-pred-<cell>` (accuracy on the example), `copy-link`.

mod as_pytorch;
mod example;
mod progress;
mod question;
pub(crate) mod settings;
pub mod store;
mod summary;
pub mod text;

use self::example::ExamplePanel;
use self::progress::ProgressPanel;
use self::settings::SettingsPanel;
use self::summary::SummaryPanel;
use crate::charts::delay::{self as chart, CurveChart};
use crate::kit::fmt::count_commas;
use crate::kit::nav::CopyLink;
use crate::kit::text::Text;
use crate::sequence::driver::{LabDriver, Part};
use crate::sequence::runs::{batch_lines, heldout_lines, RunView};
use crate::sequence::store::{Records, DELAY};
use crate::shell::i18n::{use_locale, Locale};
use crate::shell::run_status::RunStatus;
use crate::shell::url::{PageNotice, UrlNotice};
use leptos::prelude::*;
use text::DelayText;
use unroll_core::config::delay::{DelayConfig, DelayRangeError};
use unroll_core::config::Lang;
use unroll_core::delay::outcome::Outcome;
use unroll_core::delay::task::{eval_every_for, HELDOUT_SEQUENCES};
use unroll_core::math::params::CellKind;
use unroll_core::train::sweep::SweepPlan;

/// The delay-copy part's sweeps: summaries and finished runs per configuration kept
/// ([`store::Kept`]), the checkpoint with the page's training-batch curves
/// ([`crate::sequence::runs::KeptCurves`]); a sweep a reload stopped is shown paused, and
/// Resume goes on with it; only the configuration the page opens with is shown again.
pub struct DelayCopy;

impl Part for DelayCopy {
    type Kept = store::Kept;
    type Curves = Vec<crate::sequence::runs::KeptCurves>;
    const RECORDS: Records = DELAY;
    const OFFER: RunStatus = RunStatus::Paused;
    const FOLLOWS_FORM: bool = false;
}

/// The delay-copy sweep shown.
pub type DelayDriver = LabDriver<DelayCopy>;

/// The rule `0 < delay < length` in words.
fn invalid_text(e: &DelayRangeError, lang: Lang) -> String {
    let max = e.length.saturating_sub(1).max(1).to_string();
    if e.delay == 0 {
        (DelayText::of(lang).invalid_zero)(&max)
    } else {
        (DelayText::of(lang).invalid_long)(&e.delay.to_string(), &e.length.to_string(), &max)
    }
}

/// The outcome's kind, for the test hook.
fn outcome_key(o: &Outcome) -> &'static str {
    match o {
        Outcome::NotEnoughRuns { .. } => "not-enough-runs",
        Outcome::AllSolved { .. } => "all-solved",
        Outcome::AllAtChance { .. } => "all-at-chance",
        Outcome::OnlySome { .. } => "only-some",
        Outcome::Leads { .. } => "leads",
        Outcome::AllLearned { .. } => "all-learned",
        Outcome::Unclear { .. } => "unclear",
    }
}

/// The first trained cell with a forget gate (`f`: the LSTM), which `forget_bias` acts on.
fn forget_gate_cell(config: &DelayConfig) -> Option<CellKind> {
    config
        .cell
        .cells()
        .iter()
        .copied()
        .find(|c| c.spec().gate_index("f").is_some())
}

/// Mean of the initial forget block of the LSTM's `bias_ih_l0` for `config`'s first seed
/// (`None` when no LSTM is trained).
fn forget_block_mean(config: &DelayConfig) -> Option<f64> {
    let model = SweepPlan::of_lab(config)
        .ok()?
        .model(forget_gate_cell(config)?);
    let params = model.init(u64::from(config.seed), config.forget_bias as f32);
    let block = model.forget_block(&params)?;
    Some(block.iter().map(|&b| f64::from(b)).sum::<f64>() / block.len().max(1) as f64)
}

/// The delay-copy part of the sequence lab page: its intro, notes, settings and the panels of
/// the sweep `driver` shows (the configuration's, or the form's when none is shown).
#[component]
pub fn DelayPart(
    /// The page's configuration.
    cfg: RwSignal<DelayConfig>,
    /// The page's notices of adjusted URL values (the form adds to them).
    notices: RwSignal<Vec<PageNotice>>,
    /// The delay-copy sweep.
    driver: DelayDriver,
) -> impl IntoView {
    let loc = use_locale();
    let invalid = Memo::new(move |_| cfg.with(|c| c.check().err()));
    let run_cfg = driver.run_cfg;
    let shown_cfg = Signal::derive(move || run_cfg.get().unwrap_or_else(|| cfg.get()));
    crate::widgets::export::provide_file_tag(Signal::derive(move || {
        shown_cfg.with(DelayConfig::file_tag)
    }));
    let t = move |pick: Text| move || pick(loc.lang());

    view! {
        <div class="training-page delay-page" data-testid="delay-page">
            <section class="page-intro lx-intro">
                <h1>{t(|l| DelayText::of(l).title)}</h1>
                <p class="lede">{t(|l| DelayText::of(l).lede)}</p>
                <p class="dl-cpu-note" data-testid="delay-cpu-note">{t(|l| DelayText::of(l).cpu_note)}</p>
                // The page's buttons in one row, as on every lesson page.
                <div class="lx-intro-actions">
                    <CopyLink />
                    <crate::kit::embed::CopyEmbed title=Signal::derive(move || DelayText::of(loc.lang()).title.to_owned()) />
                </div>
            </section>
            <UrlNotice notices=notices />
            <PageNotes driver=driver invalid=invalid />
            <div class="layout">
                <SettingsPanel cfg=cfg notices=notices driver=driver invalid=invalid />
                <div class="main-column">
                    <ProgressPanel driver=driver shown_cfg=shown_cfg />
                    <question::DelayQuestion driver=driver shown_cfg=shown_cfg />
                    <ChartsPanel driver=driver shown_cfg=shown_cfg />
                    <SummaryPanel driver=driver shown_cfg=shown_cfg />
                    <ForgetBiasPanel cfg=cfg shown_cfg=shown_cfg />
                    <ExamplePanel driver=driver shown_cfg=shown_cfg />
                    <as_pytorch::DelayAsPytorch shown_cfg=shown_cfg />
                    <AboutPanel />
                </div>
            </div>
        </div>
    }
}

/// What the task is about (three paragraphs under the charts).
#[component]
fn AboutPanel() -> impl IntoView {
    let loc = use_locale();
    let t = move |pick: Text| move || pick(loc.lang());
    view! {
        <section class="panel">
            <h2>{t(|l| DelayText::of(l).about)}</h2>
            <p class="lx-text">{t(|l| DelayText::of(l).about_1)}</p>
            <p class="lx-text">{t(|l| DelayText::of(l).about_2)}</p>
            <p class="lx-text">{t(|l| DelayText::of(l).about_3)}</p>
        </section>
    }
}

/// The page's notes above the layout: the rule `0 < delay < length` when the form breaks it,
/// the offer to resume a sweep a reload stopped, and a failure to keep the summaries.
#[component]
fn PageNotes(driver: DelayDriver, invalid: Memo<Option<DelayRangeError>>) -> impl IntoView {
    let loc = use_locale();
    let lang = move || loc.lang();
    let (resume_offer, store_error) = (driver.flow.offer, driver.flow.store.error);
    view! {
        {move || invalid.get().map(|e| view! {
            <div class="notice notice-error dl-invalid" role="alert" data-testid="delay-invalid" data-value=e.delay.to_string()>
                <div class="notice-body">{move || invalid_text(&e, lang())}</div>
            </div>
        })}
        {move || resume_offer.get().map(|o| view! {
            <div
                class="notice notice-info"
                role="status"
                data-testid="delay-resume-offer"
                data-value=o.done.to_string()
                data-seed=o.from.map(|f| f.seed.to_string())
                data-step=o.from.map(|f| f.step.to_string())
            >
                <div class="notice-body">
                    {move || {
                        let t = DelayText::of(lang());
                        let (done, planned) = (o.done.to_string(), o.planned.to_string());
                        match o.from {
                            Some(f) => (t.resume_offer_from)(&done, &planned, &f.seed.to_string(), &f.seeds.to_string(), &count_commas(f.step)),
                            None => (t.resume_offer)(&done, &planned),
                        }
                    }}
                </div>
            </div>
        })}
        {move || store_error.get().map(|e| {
            let detail = e.detail();
            view! {
                <div class="notice notice-warn" role="status" data-testid="delay-store-error">
                    <div class="notice-body" title=detail>
                        {move || (DelayText::of(lang()).summary_store_failed)(&(crate::kit::keep_text::KeepText::of(lang()).storage_error)(&e))}
                    </div>
                </div>
            }
        })}
    }
}

/// The charts panel: held-out accuracy and loss (one line per cell and seed, the band per
/// cell) and the training-batch loss.
#[component]
fn ChartsPanel(driver: DelayDriver, shown_cfg: Signal<DelayConfig>) -> impl IntoView {
    let loc = use_locale();
    let lang = move || loc.lang();
    let t = move |pick: Text| move || pick(loc.lang());
    let (runs, restored) = (driver.runs, driver.restored);
    let heldout = move |acc: bool| heldout_chart(loc, shown_cfg, runs, acc);
    view! {
        <section class="panel charts-panel">
            <p class="panel-note">
                {move || {
                    let c = shown_cfg.get();
                    (DelayText::of(lang()).chart_heldout_acc)(&HELDOUT_SEQUENCES.to_string(), &eval_every_for(c.steps).to_string())
                }}
                " "
                {t(|l| DelayText::of(l).seed_lines)}
            </p>
            <div class="charts">
                {crate::charts::canvas::chart_canvas(
                    "chart-delay-acc",
                    Signal::derive(move || DelayText::of(loc.lang()).chart_heldout_acc_title),
                    move || heldout(true),
                    chart::point_count,
                    |area, c, style| {
                        let _ = chart::draw(area, c, style);
                    },
                )}
                {crate::charts::canvas::chart_canvas(
                    "chart-delay-loss",
                    Signal::derive(move || DelayText::of(loc.lang()).chart_heldout_loss),
                    move || heldout(false),
                    chart::point_count,
                    |area, c, style| {
                        let _ = chart::draw(area, c, style);
                    },
                )}
                {crate::charts::canvas::chart_canvas(
                    "chart-delay-batch",
                    Signal::derive(move || DelayText::of(loc.lang()).chart_batch_loss),
                    move || batch_chart(loc, shown_cfg, runs, restored),
                    chart::point_count,
                    |area, c, style| {
                        let _ = chart::draw(area, c, style);
                    },
                )}
            </div>
            <div class="export-row">
                <crate::charts::csv::CsvButton
                    file=crate::widgets::export::tagged_file("unroll-delay-heldout", "csv")
                    rows=Signal::derive(move || runs.with(|rs| rs.iter().map(|r| r.heldout.len()).sum::<usize>()))
                    csv=Callback::new(move |()| runs.with_untracked(|rs| crate::charts::csv::heldout_csv(rs.iter().flat_map(|r| &r.heldout))))
                    label=Signal::derive(move || DelayText::of(loc.lang()).chart_heldout_loss.to_owned())
                />
            </div>
        </section>
    }
}

/// A held-out chart (accuracy when `acc`, else loss): one line per (cell, seed), the band
/// per cell. The charts' texts follow a language switch a frame after the page's
/// (`Locale::drawn`).
fn heldout_chart(
    loc: Locale,
    shown_cfg: Signal<DelayConfig>,
    runs: RwSignal<Vec<RunView>>,
    acc: bool,
) -> CurveChart {
    let l = loc.drawn_lang();
    let vocab = shown_cfg.get().vocab.max(2) as f64;
    let (lines, bands) = runs.with(|rs| heldout_lines(rs, acc));
    CurveChart {
        lines,
        bands,
        y_max: if acc { 1.0 } else { vocab.ln() },
        percent: acc,
        chance: Some((
            if acc { 1.0 / vocab } else { vocab.ln() },
            DelayText::of(l).chance,
        )),
        solved: None,
        log_y: false,
        x_desc: DelayText::of(l).axis_step,
        y_desc: if acc {
            DelayText::of(l).axis_acc
        } else {
            DelayText::of(l).axis_loss
        },
        empty: DelayText::of(l).chart_empty,
    }
}

/// The training-batch loss chart: one line per (cell, seed).
fn batch_chart(
    loc: Locale,
    shown_cfg: Signal<DelayConfig>,
    runs: RwSignal<Vec<RunView>>,
    restored: RwSignal<bool>,
) -> CurveChart {
    let l = loc.drawn_lang();
    let vocab = shown_cfg.get().vocab.max(2) as f64;
    let lines = runs.with(|rs| batch_lines(rs));
    CurveChart {
        lines,
        bands: Vec::new(),
        y_max: vocab.ln(),
        percent: false,
        chance: Some((vocab.ln(), DelayText::of(l).chance)),
        solved: None,
        log_y: false,
        x_desc: DelayText::of(l).axis_step,
        y_desc: DelayText::of(l).axis_loss,
        empty: if restored.get() {
            DelayText::of(l).batch_not_kept
        } else {
            DelayText::of(l).chart_empty
        },
    }
}

/// The note on the forget-gate bias: what the form's bias starts the gate at, and the LSTM's
/// initial forget block for the first seed.
#[component]
fn ForgetBiasPanel(cfg: RwSignal<DelayConfig>, shown_cfg: Signal<DelayConfig>) -> impl IntoView {
    let loc = use_locale();
    let lang = move || loc.lang();
    let t = move |pick: Text| move || pick(loc.lang());
    let forget_mean = Memo::new(move |_| forget_block_mean(&shown_cfg.get()));
    view! {
        <section class="panel" data-testid="delay-forget-bias-note">
            <h2>{t(|l| DelayText::of(l).forget_bias)}</h2>
            <p class="lx-text">
                {move || {
                    let b = cfg.with(|c| c.forget_bias);
                    let sigma = 1.0 / (1.0 + (-b).exp());
                    (DelayText::of(lang()).forget_bias_note)(&b.to_string(), &format!("{sigma:.2}"))
                }}
            </p>
            {move || forget_mean.get().map(|m| view! {
                <p class="panel-note" data-testid="delay-forget-bias-lstm" data-value=m.to_string()>
                    {move || (DelayText::of(lang()).forget_bias_mean)(&format!("{m:.3}"), &shown_cfg.get().seed.to_string())}
                </p>
            })}
        </section>
    }
}
