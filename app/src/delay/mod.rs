//! The delay-copy page (`?lesson=delay`): RNN and LSTM (or the cells chosen by `cell`) learn
//! to output the token from `delay` steps back, several seeds per cell, on the CPU path of the
//! engine's Web Worker ([`unroll_core::engine`]). The page's buttons send commands to the sweep's
//! driver ([`driver`], not a component), which applies what the worker reports to the page's
//! model ([`sweep`], plain data compiled natively too); the page renders it.
//!
//! Every number comes from [`unroll_core::delay`]: parameter counts from the layouts, held-out
//! accuracy and loss from the fixed held-out set ([`unroll_core::delay::run`]), training-batch
//! figures from the steps, predictions from the current weights, outcome sentences from
//! [`unroll_core::delay::outcome`] (typed verdicts rendered by [`text::verdict_text`]). The sweep
//! summaries (final held-out accuracy vs delay, one per set of settings, shown side by side),
//! the last configurations' finished runs and the sweep in progress are kept in IndexedDB
//! ([`store`]) with the training seed's latest checkpoint; a sweep stopped by a reload is
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
//! batch, mean of the last 20 steps of the latest run), `delay-loss-first-<cell>` (its step 1);
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

pub mod driver;
pub mod store;
pub mod sweep;
pub mod text;

use self::driver::DelayDriver;
use self::sweep::{batch_lines, heldout_lines, mean_last, Predictions, RunView};
use crate::charts::canvas::chart_canvas;
use crate::charts::delay::{self as chart, CurveChart};
use crate::charts::style::cell_colour;
use crate::lessons::fmt::count_commas;
use crate::lessons::{use_nav, CopyLink};
use crate::shell::i18n::use_locale;
use crate::shell::run_status::RunStatus;
use crate::shell::url::PageQueries;
use crate::shell::url::{self, PageNotice, UrlNotice};
use crate::text::Text;
use crate::widgets::number_field::NumberField;
use crate::widgets::run_controls::{RunAction, RunControls};
use crate::widgets::stat::Stat;
use leptos::prelude::*;
use text::DelayText;
use unroll_core::config::delay::{
    CellSet, DelayConfig, DelayRangeError, DELAY_FIELDS, MAX_LENGTH, PRESET_DELAYS,
};
use unroll_core::config::fields;
use unroll_core::config::lessons::{route, Route};
use unroll_core::config::query::{decode, encode, parse_pairs};
use unroll_core::config::{Lang, NoticeKind};
use unroll_core::delay::model::DelayModel;
use unroll_core::delay::outcome::{
    outcome_of_results, settings_labels, verdict, Capacity, Outcome, SweepKey, SweepSummary,
};
use unroll_core::delay::run::{eval_every_for, Progress, HELDOUT_SEQUENCES};
use unroll_core::delay::task::DelayTask;
use unroll_core::delay::trainer::example_batch;
use unroll_core::math::params::CellKind;

/// The page's own styles.
const CSS: &str = r#"
.dl-summary { display: flex; flex-wrap: wrap; gap: 4px 16px; margin-bottom: 8px; font-size: 13px; color: var(--muted, #64748b); }
.dl-none-note { margin: 0; }
.dl-strip { display: flex; flex-wrap: wrap; gap: 10px 14px; font-family: var(--mono, monospace); font-size: 12px; }
.dl-block { display: flex; gap: 2px; }
.dl-col { display: flex; flex-direction: column; gap: 2px; }
.dl-col > span { min-width: 20px; height: 22px; line-height: 22px; text-align: center; border-radius: 4px; background: #f1f5f9; }
.dl-col.dl-head > span { background: transparent; text-align: left; color: var(--muted, #64748b); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; width: 104px; padding-right: 4px; font-family: inherit; font-size: 11px; }
.dl-col > span.dl-none { background: transparent; color: #cbd5e1; }
.dl-col > span.dl-ok { background: #d1fae5; color: #065f46; }
.dl-col > span.dl-bad { background: #fee2e2; color: #991b1b; }
.dl-col > span.dl-pos { background: transparent; color: #94a3b8; font-size: 10px; }
.dl-presets { display: flex; gap: 8px; flex-wrap: wrap; margin: 4px 0 4px; align-items: center; }
.dl-cells { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 12px; }
.dl-cell { border: 1px solid #e2e8f0; border-radius: 10px; padding: 10px 12px; }
.dl-cell h3 { margin: 0 0 6px; font-size: 15px; display: flex; align-items: center; gap: 8px; }
.dl-swatch { width: 14px; height: 4px; border-radius: 2px; display: inline-block; }
.dl-cell .stats { grid-template-columns: repeat(2, minmax(0, 1fr)); }
.dl-seeds { margin: 6px 0 0; padding: 0; list-style: none; font-size: 12px; color: var(--muted, #64748b); }
.dl-bar { height: 8px; background: #e2e8f0; border-radius: 4px; overflow: hidden; margin: 8px 0; }
.dl-bar > div { height: 100%; background: #1d4ed8; }
.dl-progress-line { display: flex; flex-wrap: wrap; gap: 4px 16px; font-size: 13px; color: var(--muted, #64748b); margin-bottom: 8px; }
.dl-table { border-collapse: collapse; font-size: 13px; width: 100%; }
.dl-table th, .dl-table td { border-bottom: 1px solid #e2e8f0; padding: 6px 8px; text-align: left; vertical-align: top; }
.dl-table td.dl-missing { color: #cbd5e1; }
.dl-table-wrap { overflow-x: auto; }
.dl-outcome { font-size: 14px; margin: 8px 0 0; }
.dl-row-outcome { font-size: 12px; color: var(--muted, #64748b); }
.dl-settings { font-family: var(--mono, monospace); font-size: 12px; color: var(--muted, #64748b); }
.dl-caveat { color: #92400e; }
.delay-page .dl-cpu-note { margin: 10px 0 12px; color: var(--muted, #64748b); font-size: 14px; }
.delay-page .dl-invalid { margin-bottom: 16px; }
"#;

use crate::delay::text::{cell_name, fmt_seconds};

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
    let model = DelayModel::new(
        forget_gate_cell(config)?,
        config.vocab.max(2),
        config.hidden_size.max(1),
    );
    let params = model.init_with_forget_bias(u64::from(config.seed), config.forget_bias as f32);
    let block = model.forget_block(&params)?;
    Some(block.iter().map(|&b| f64::from(b)).sum::<f64>() / block.len().max(1) as f64)
}

/// The delay-copy page. Reads its configuration from the URL, keeps the URL canonical, and
/// drives one sweep (every cell × seed of the configuration) at a time.
#[component]
pub fn DelayPage() -> impl IntoView {
    let loc = use_locale();
    let initial = decode::<DelayConfig>(&url::current_search());
    let notices = RwSignal::new(
        initial
            .notices
            .into_iter()
            .map(PageNotice::Url)
            .collect::<Vec<_>>(),
    );
    let cfg = RwSignal::new(initial.config);
    // The URL follows the form while this page is shown, and is written again for every entry
    // the page is shown for (it stays mounted across entries); the shell's links return to it.
    let pages = PageQueries::get();
    let nav = use_nav();
    Effect::new(move |_| {
        let lang = loc.chosen.get();
        let query = cfg.with(|c| encode(c, lang));
        nav.search.track();
        pages.delay.set(Some(query.clone()));
        if pages.route.get() == Route::Delay {
            url::replace_query(url::Entry::shown(), &query);
        }
    });

    // The sweep: its state, and the run in the engine's worker.
    let driver = DelayDriver::new(cfg);
    let status = driver.status;
    let runs = driver.runs;
    let results = driver.results;
    let progress = driver.progress;
    let predictions = driver.predictions;
    let restored = driver.restored;
    let shown_elapsed = driver.shown_elapsed;
    let run_cfg = driver.run_cfg;
    let kept = driver.kept;
    let store_error = driver.store_error;

    // Back/forward to a delay entry with other settings: the form takes them, unless a sweep
    // is running with the form's settings (then the entry is written with the settings shown).
    Effect::new(move |_| {
        let search = nav.search.get();
        if route(&search) != Route::Delay {
            return;
        }
        let wanted = decode::<DelayConfig>(&search).config;
        if !untrack(|| driver.busy()) && cfg.with_untracked(|c| *c != wanted) {
            cfg.set(wanted);
        }
    });

    let invalid = Memo::new(move |_| cfg.with(|c| c.check().err()));
    let busy = move || driver.busy();
    let shown_cfg = move || run_cfg.get().unwrap_or_else(|| cfg.get());
    let param_counts = Memo::new(move |_| {
        let c = shown_cfg();
        c.cell
            .cells()
            .iter()
            .map(|&cell| {
                let m = DelayModel::new(cell, c.vocab.max(2), c.hidden_size.max(1));
                (cell, m.param_count(), m.recurrent_param_count())
            })
            .collect::<Vec<_>>()
    });
    let example_seed = driver.example_seed;
    let resume_offer = driver.resume_offer;
    let saved = driver.saved;
    let example = Memo::new(move |_| {
        let c = shown_cfg();
        let seed = example_seed.get().unwrap_or(c.seed);
        DelayTask::new(c.vocab, c.length, c.delay)
            .ok()
            .map(|task| example_batch(&task, u64::from(seed)).sequence(0))
    });
    let forget_mean = Memo::new(move |_| forget_block_mean(&shown_cfg()));

    let start = move || driver.start(cfg.get_untracked());
    let pause = move || driver.pause();
    let resume = move || driver.resume();
    let reset = move || driver.reset();

    // A form control or preset: through the codec, like a link.
    let set = move |key: &'static str, value: String| {
        let mut pairs = parse_pairs(&cfg.with_untracked(|c| encode(c, None)));
        pairs.retain(|(k, _)| k != key);
        pairs.push((key.to_owned(), value.trim().to_owned()));
        let query = serde_urlencoded::to_string(&pairs).unwrap_or_default();
        let d = decode::<DelayConfig>(&query);
        // The rule `0 < delay < length` is shown by the page itself.
        let adjusted: Vec<PageNotice> = d
            .notices
            .into_iter()
            .filter(|n| !matches!(n.kind, NoticeKind::Inconsistent { .. }))
            .map(PageNotice::Url)
            .collect();
        if !adjusted.is_empty() {
            notices.update(|n| n.extend(adjusted));
        }
        cfg.set(d.config);
    };

    let lang = move || loc.lang();
    let t = move |pick: Text| move || pick(loc.lang());

    let number = move |key: &'static str,
                       name: Text,
                       help: fn(Lang, &DelayConfig) -> String,
                       enabled: fn(&DelayConfig) -> bool,
                       get: fn(&DelayConfig) -> String| {
        // A link may ask for any delay in 0–256 (so the page can show the rule); the input
        // offers only delays some length allows.
        let range = (key == "delay").then(|| ("1".to_owned(), (MAX_LENGTH - 1).to_string()));
        view! {
            <NumberField
                spec=fields::spec(DELAY_FIELDS, key)
                name=Signal::derive(move || name(loc.lang()).to_owned())
                help=Signal::derive(move || cfg.with(|c| help(loc.lang(), c)))
                value=Signal::derive(move || cfg.with(get))
                disabled=Signal::derive(move || busy() || !cfg.with(enabled))
                on_change=Callback::new(move |v| set(key, v))
                range=range
            />
        }
    };
    let cell_option = move |c: CellSet| {
        let label = move || {
            let l = loc.lang();
            match c {
                CellSet::Both => DelayText::of(l).cells_both.to_owned(),
                CellSet::All => DelayText::of(l).cells_all.to_owned(),
                CellSet::One(cell) => (DelayText::of(l).cells_only)(cell.name()),
            }
        };
        view! { <option value=c.as_str()>{label}</option> }
    };
    let preset_button = move |delay: usize| {
        view! {
            <button
                type="button"
                class="btn btn-small"
                data-testid=format!("delay-preset-{delay}")
                disabled=busy
                title=move || {
                    // The length the preset sets when the current one is too short.
                    let short = DelayConfig { length: 2, ..DelayConfig::default() };
                    let length = short.with_preset_delay(delay).length;
                    (DelayText::of(loc.lang()).preset_tip)(&delay.to_string(), &length.to_string())
                }
                aria-pressed=move || cfg.with(|c| (c.delay == delay).to_string())
                on:click=move |_| cfg.update(|c| *c = c.with_preset_delay(delay))
            >
                {move || (DelayText::of(loc.lang()).preset)(&delay.to_string())}
            </button>
        }
    };

    // Held-out charts: one line per (cell, seed), the band per cell.
    // The charts' texts follow a language switch a frame after the page's (`Locale::drawn`).
    let heldout_chart = move |acc: bool| {
        let l = loc.drawn_lang();
        let vocab = shown_cfg().vocab.max(2) as f64;
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
            x_desc: DelayText::of(l).axis_step,
            y_desc: if acc {
                DelayText::of(l).axis_acc
            } else {
                DelayText::of(l).axis_loss
            },
            empty: DelayText::of(l).chart_empty,
        }
    };
    let batch_chart = move || {
        let l = loc.drawn_lang();
        let vocab = shown_cfg().vocab.max(2) as f64;
        let lines = runs.with(|rs| batch_lines(rs));
        CurveChart {
            lines,
            bands: Vec::new(),
            y_max: vocab.ln(),
            percent: false,
            chance: Some((vocab.ln(), DelayText::of(l).chance)),
            x_desc: DelayText::of(l).axis_step,
            y_desc: DelayText::of(l).axis_loss,
            empty: if restored.get() {
                DelayText::of(l).batch_not_kept
            } else {
                DelayText::of(l).chart_empty
            },
        }
    };

    // The verdict on the shown configuration's finished runs.
    let outcome = Memo::new(move |_| {
        let c = run_cfg.get()?;
        let o = results.with(|rs| outcome_of_results(&c, rs));
        Some(verdict(o, c.delay, &SweepKey::of(&c)))
    });
    // The summary for the form's settings, then those of other settings with finished runs.
    let summaries = Memo::new(move |_| {
        let c = shown_cfg();
        let mine = kept
            .with(|k| k.summaries.iter().find(|s| s.accepts(&c)).cloned())
            .unwrap_or_else(|| SweepSummary::new(&c));
        let mut all = vec![mine];
        kept.with(|k| {
            all.extend(
                k.summaries
                    .iter()
                    .filter(|s| !s.accepts(&c) && !s.figures.is_empty())
                    .cloned(),
            )
        });
        all
    });

    view! {
        <style>{CSS}</style>
        <div class="training-page delay-page" data-testid="delay-page">
            <section class="page-intro lx-intro">
                <h1>{t(|l| DelayText::of(l).title)}</h1>
                <p class="lede">{t(|l| DelayText::of(l).lede)}</p>
                <p class="dl-cpu-note" data-testid="delay-cpu-note">{t(|l| DelayText::of(l).cpu_note)}</p>
                <CopyLink />
            </section>
            <UrlNotice notices=notices />
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
                    data-seed=o.from.map(|f| f.0.to_string())
                    data-step=o.from.map(|f| f.2.to_string())
                >
                    <div class="notice-body">
                        {move || {
                            let t = DelayText::of(lang());
                            let (done, planned) = (o.done.to_string(), o.planned.to_string());
                            match o.from {
                                Some((k, n, step)) => (t.resume_offer_from)(&done, &planned, &k.to_string(), &n.to_string(), &count_commas(step)),
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
                            {move || (DelayText::of(lang()).summary_store_failed)(&(crate::text::KeepText::of(lang()).storage_error)(&e))}
                        </div>
                    </div>
                }
            })}
            <div class="layout">
                <aside class="panel config-panel">
                    <h2>{t(|l| DelayText::of(l).settings)}</h2>
                    <div class="dl-presets" role="group" aria-label=t(|l| DelayText::of(l).presets)>
                        <span class="field-name">{t(|l| DelayText::of(l).presets)}</span>
                        {PRESET_DELAYS.into_iter().map(preset_button).collect_view()}
                    </div>
                    <p class="field-help">{t(|l| DelayText::of(l).presets_help)}</p>
                    <form class="config-form" on:submit=|ev| ev.prevent_default()>
                        <div class="field">
                            <label for="cfg-cell">
                                <span class="field-name">{t(|l| DelayText::of(l).cells)}</span>
                                <code class="field-key">"cell"</code>
                            </label>
                            <select
                                id="cfg-cell"
                                data-testid="cfg-cell"
                                disabled=busy
                                prop:value=move || cfg.with(|c| c.cell.as_str().to_owned())
                                on:change=move |ev| set("cell", event_target_value(&ev))
                            >
                                {CellSet::ALL.iter().copied().map(cell_option).collect_view()}
                            </select>
                        </div>
                        {number("delay", |l| DelayText::of(l).delay, |l, _| DelayText::of(l).delay_help.to_owned(), |_| true, |c| c.delay.to_string())}
                        {number("length", |l| DelayText::of(l).length, |_, _| String::new(), |_| true, |c| c.length.to_string())}
                        {number("vocab", |l| DelayText::of(l).vocab, |_, _| String::new(), |_| true, |c| c.vocab.to_string())}
                        {number("hidden_size", |l| DelayText::of(l).hidden, |_, _| String::new(), |_| true, |c| c.hidden_size.to_string())}
                        {number("lr", |l| DelayText::of(l).lr, |_, _| String::new(), |_| true, |c| c.lr.to_string())}
                        {number("batch_size", |l| DelayText::of(l).batch, |_, _| String::new(), |_| true, |c| c.batch_size.to_string())}
                        {number("max_norm", |l| DelayText::of(l).max_norm, |l, _| DelayText::of(l).max_norm_help.to_owned(), |_| true, |c| c.max_norm.to_string())}
                        {number(
                            "forget_bias",
                            |l| DelayText::of(l).forget_bias,
                            |l, c| if forget_gate_cell(c).is_some() {
                                DelayText::of(l).forget_bias_help.to_owned()
                            } else {
                                DelayText::of(l).forget_bias_no_lstm.to_owned()
                            },
                            |c| forget_gate_cell(c).is_some(),
                            |c| c.forget_bias.to_string(),
                        )}
                        {number("steps", |l| DelayText::of(l).steps, |_, _| String::new(), |_| true, |c| c.steps.to_string())}
                        {number("seed", |l| DelayText::of(l).seed, |_, _| String::new(), |_| true, |c| c.seed.to_string())}
                        {number(
                            "seeds",
                            |l| DelayText::of(l).seeds,
                            |l, c| {
                                let s = c.run_seeds();
                                (DelayText::of(l).seeds_help)(&s[0].to_string(), &s[s.len() - 1].to_string())
                            },
                            |_| true,
                            |c| c.seeds.to_string(),
                        )}
                    </form>
                    <RunControls
                        prefix="delay"
                        start=RunAction::new(move || DelayText::of(loc.lang()).start, move || !busy() && invalid.get().is_none(), start)
                        pause=RunAction::new(move || DelayText::of(loc.lang()).pause, move || status.get().can_pause(), pause)
                        resume=RunAction::new(move || DelayText::of(loc.lang()).resume, move || status.get().can_resume(), resume)
                        reset=RunAction::new(
                            move || DelayText::of(loc.lang()).reset,
                            move || status.get() != RunStatus::Idle || !runs.with(Vec::is_empty),
                            reset,
                        )
                    />
                    <p class="hint" class:hidden=move || !busy()>{t(|l| DelayText::of(l).locked)}</p>
                </aside>
                <div class="main-column">
                    <section class="panel progress-panel">
                        <div class="progress-head">
                            <h2>{t(|l| DelayText::of(l).progress)}</h2>
                            <span
                                class=move || format!("status-pill status-{}", status.get().pill())
                                data-testid="delay-status"
                                data-value=move || status.get().key()
                            >
                                {move || {
                                    let l = lang();
                                    match status.get() {
                                        // A failed sweep returns to idle (its error goes to the console).
                                        RunStatus::Idle | RunStatus::Stopped | RunStatus::Error => DelayText::of(l).status_idle.to_owned(),
                                        RunStatus::Running => DelayText::of(l).status_running.to_owned(),
                                        RunStatus::Paused => DelayText::of(l).status_paused.to_owned(),
                                        RunStatus::Finished => (DelayText::of(l).status_done)(&count_commas(shown_cfg().steps)),
                                    }
                                }}
                            </span>
                        </div>
                        {move || progress_view(progress, shown_elapsed, restored, status)}
                        {move || saved.get().filter(|_| resume_offer.with(Option::is_none) && busy()).map(|(k, n, step)| view! {
                            <p class="panel-note" data-testid="delay-checkpoint" data-seed=k.to_string() data-value=step.to_string()>
                                {move || (DelayText::of(lang()).checkpoint_saved)(&k.to_string(), &n.to_string(), &count_commas(step))}
                            </p>
                        })}
                        <p class="panel-note" data-testid="delay-budget" data-value=move || shown_cfg().steps.to_string()>
                            {move || {
                                let c = shown_cfg();
                                (DelayText::of(lang()).budget_run)(&count_commas(c.steps), &c.batch_size.to_string(), &HELDOUT_SEQUENCES.to_string(), &eval_every_for(c.steps).to_string())
                            }}
                        </p>
                        <div class="dl-cells">
                            {move || {
                                param_counts
                                    .get()
                                    .into_iter()
                                    .map(|(cell, total, recurrent)| cell_card(cell, total, recurrent, runs))
                                    .collect_view()
                            }}
                        </div>
                        <p class="dl-outcome" data-testid="delay-outcome" data-value=move || outcome.get().map(|v| outcome_key(&v.outcome)).unwrap_or("none")>
                            <strong>{t(|l| DelayText::of(l).outcome)}</strong>
                            {move || match outcome.get() {
                                Some(v) => {
                                    let l = lang();
                                    let budget = text::short_budget_sentence(&v, l).map(|s| view! {
                                        " "
                                        <span class="dl-caveat" data-testid="delay-budget-warning" data-value=v.short_budget.map(|b| b.steps.to_string())>{s}</span>
                                    });
                                    let pointer = text::forget_bias_sentence(&v, l).map(|s| view! {
                                        " "
                                        <span class="dl-caveat" data-testid="delay-forget-pointer" data-value=v.forget_bias.map(|b| b.to_string())>{s}</span>
                                    });
                                    view! {
                                        <span data-testid="delay-outcome-sentence">{text::outcome_sentence(&v.outcome, v.delay, l)}</span>
                                        {budget}
                                        {pointer}
                                    }
                                    .into_any()
                                }
                                None => DelayText::of(lang()).outcome_none.to_owned().into_any(),
                            }}
                        </p>
                    </section>
                    <section class="panel charts-panel">
                        <p class="panel-note">
                            {move || {
                                let c = shown_cfg();
                                (DelayText::of(lang()).chart_heldout_acc)(&HELDOUT_SEQUENCES.to_string(), &eval_every_for(c.steps).to_string())
                            }}
                            " "
                            {t(|l| DelayText::of(l).seed_lines)}
                        </p>
                        <div class="charts">
                            {chart_canvas(
                                "chart-delay-acc",
                                Signal::derive(move || DelayText::of(loc.lang()).chart_heldout_acc_title),
                                move || heldout_chart(true),
                                chart::point_count,
                                |area, c, style| {
                                    let _ = chart::draw(area, c, style);
                                },
                            )}
                            {chart_canvas(
                                "chart-delay-loss",
                                Signal::derive(move || DelayText::of(loc.lang()).chart_heldout_loss),
                                move || heldout_chart(false),
                                chart::point_count,
                                |area, c, style| {
                                    let _ = chart::draw(area, c, style);
                                },
                            )}
                            {chart_canvas(
                                "chart-delay-batch",
                                Signal::derive(move || DelayText::of(loc.lang()).chart_batch_loss),
                                batch_chart,
                                chart::point_count,
                                |area, c, style| {
                                    let _ = chart::draw(area, c, style);
                                },
                            )}
                        </div>
                    </section>
                    <section class="panel">
                        <h2>{t(|l| DelayText::of(l).summary)}</h2>
                        <p class="panel-note">{t(|l| DelayText::of(l).summary_note)}</p>
                        {move || {
                            let c = shown_cfg();
                            summary_table(summaries.get(), (c.cell.cells(), c.seeds), lang())
                        }}
                        {move || {
                            let c = shown_cfg();
                            (c.delay >= 64).then(|| {
                                let cap = Capacity::of(&c);
                                view! {
                                    <h3>{t(|l| DelayText::of(l).capacity_title)}</h3>
                                    <p class="lx-text" data-testid="delay-capacity" data-value=cap.bits.to_string()>
                                        {move || (DelayText::of(lang()).capacity)(&cap.delay.to_string(), &cap.vocab.to_string(), &format!("{:.0}", cap.bits), &cap.hidden_size.to_string())}
                                    </p>
                                }
                            })
                        }}
                    </section>
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
                                {move || (DelayText::of(lang()).forget_bias_mean)(&format!("{m:.3}"), &shown_cfg().seed.to_string())}
                            </p>
                        })}
                    </section>
                    <section class="panel">
                        <h2>{t(|l| DelayText::of(l).example)}</h2>
                        <p class="panel-note">{t(|l| DelayText::of(l).example_note)}</p>
                        {move || example.get().map(|tokens| {
                            let delay = shown_cfg().delay;
                            example_table(tokens, delay, predictions, restored)
                        })}
                    </section>
                    <section class="panel">
                        <h2>{t(|l| DelayText::of(l).about)}</h2>
                        <p class="lx-text">{t(|l| DelayText::of(l).about_1)}</p>
                        <p class="lx-text">{t(|l| DelayText::of(l).about_2)}</p>
                        <p class="lx-text">{t(|l| DelayText::of(l).about_3)}</p>
                    </section>
                </div>
            </div>
        </div>
    }
}

/// The progress bar and its figures.
fn progress_view(
    progress: RwSignal<Option<Progress>>,
    elapsed: RwSignal<f64>,
    restored: RwSignal<bool>,
    status: RwSignal<RunStatus>,
) -> impl IntoView {
    let loc = use_locale();
    let p = progress.get();
    let fraction = p.map_or(
        if status.get() == RunStatus::Finished {
            1.0
        } else {
            0.0
        },
        |p| p.fraction(),
    );
    let secs = elapsed.get();
    let left = p.and_then(|p| p.seconds_left(secs));
    view! {
        <div class="dl-bar" data-testid="delay-progress" data-value=fraction.to_string()>
            <div style:width=format!("{:.1}%", fraction * 100.0)></div>
        </div>
        <div class="dl-progress-line">
            {p.map(|p| view! {
                <span data-testid="delay-runs-done" data-value=p.runs_finished.to_string()>
                    {move || (DelayText::of(loc.lang()).runs_done)(&p.runs_finished.to_string(), &p.runs_total.to_string())}
                </span>
                <span>{move || (DelayText::of(loc.lang()).steps_done)(&count_commas(p.steps_done), &count_commas(p.steps_total))}</span>
                <span data-testid="delay-elapsed" data-value=secs.to_string()>
                    {move || (DelayText::of(loc.lang()).elapsed)(&format!("{secs:.0}"))}
                </span>
            })}
            {left.filter(|_| p.is_some_and(|p| p.steps_done < p.steps_total)).map(|s| view! {
                <span data-testid="delay-time-left" data-value=s.to_string()>
                    {move || (DelayText::of(loc.lang()).time_left)(&fmt_seconds(s, loc.lang()))}
                </span>
            })}
            {move || restored.get().then(|| view! { <span>{move || DelayText::of(loc.lang()).restored}</span> })}
        </div>
    }
}

/// The sweep summary: one row per delay (the presets and every recorded delay) and set of
/// settings (the form's first, then each other set with finished runs, labelled by the
/// settings that differ), one column per cell with the mean and the seeds' range, and the
/// row's verdict.
fn summary_table(
    summaries: Vec<SweepSummary>,
    (form_cells, seeds): (&'static [CellKind], usize),
    lang: Lang,
) -> impl IntoView {
    let keys: Vec<SweepKey> = summaries.iter().map(|s| s.key.clone()).collect();
    let labels = settings_labels(&keys);
    let side_by_side = summaries.len() > 1;
    let all_rows: Vec<_> = summaries.iter().map(SweepSummary::rows).collect();
    let mut cells: Vec<CellKind> = form_cells.to_vec();
    for rows in &all_rows {
        for r in rows {
            for c in &r.cells {
                if !cells.contains(&c.cell) {
                    cells.push(c.cell);
                }
            }
        }
    }
    cells.sort_by_key(|c| c.index());
    let mut delays: Vec<usize> = PRESET_DELAYS.to_vec();
    for rows in &all_rows {
        delays.extend(rows.iter().map(|r| r.delay));
    }
    delays.sort_unstable();
    delays.dedup();
    let header = cells
        .iter()
        .map(|&c| view! { <th>{cell_name(c)}</th> })
        .collect_view();
    let body = delays
        .into_iter()
        .flat_map(|delay| {
            summaries
                .iter()
                .zip(&all_rows)
                .zip(&labels)
                .enumerate()
                .filter_map(|(i, ((summary, rows), label))| {
                    let row = rows.iter().find(|r| r.delay == delay).cloned();
                    // The form's settings get a row for every preset; others only where they ran.
                    if i > 0 && row.is_none() {
                        return None;
                    }
                    let current = i == 0;
                    let settings = label.join(" · ");
                    let settings_text = match (current, settings.is_empty()) {
                        (true, true) => DelayText::of(lang).summary_these_settings.to_owned(),
                        (true, false) => format!("{settings} ({})", DelayText::of(lang).summary_these_settings),
                        (false, _) => settings.clone(),
                    };
                    let chance = summary.key.chance();
                    let tds = cells
                        .iter()
                        .map(|&cell| match row.as_ref().and_then(|r| r.cell(cell)) {
                            Some(s) => view! {
                                <td
                                    data-testid="delay-summary-cell"
                                    data-delay=delay.to_string()
                                    data-cell=cell.as_str()
                                    data-seeds=s.seeds().to_string()
                                    data-settings=settings.clone()
                                    data-current=current.to_string()
                                    data-value=s.mean.to_string()
                                >
                                    {(DelayText::of(lang).summary_cell)(&text::fmt_acc(s.mean), &text::fmt_acc(s.min), &text::fmt_acc(s.max), &s.seeds().to_string())}
                                </td>
                            }
                            .into_any(),
                            None => view! { <td class="dl-missing">"—"</td> }.into_any(),
                        })
                        .collect_view();
                    let sentence = row.as_ref().map(|r| {
                        let present: Vec<CellKind> = cells
                            .iter()
                            .copied()
                            .filter(|c| (current && form_cells.contains(c)) || r.cell(*c).is_some())
                            .collect();
                        // Other settings are judged on the seeds they ran.
                        let need = if current {
                            seeds
                        } else {
                            r.cells.iter().map(|c| c.seeds()).max().unwrap_or(1)
                        };
                        let v = verdict(r.outcome(&present, need, chance), delay, &summary.key);
                        view! {
                            <tr>
                                <td></td>
                                <td colspan=(cells.len() + usize::from(side_by_side)).to_string() class="dl-row-outcome" data-testid="delay-summary-outcome" data-delay=delay.to_string() data-settings=settings.clone() data-current=current.to_string() data-value=outcome_key(&v.outcome)>
                                    {text::verdict_text(&v, lang)}
                                </td>
                            </tr>
                        }
                    });
                    Some(view! {
                        <tr data-testid="delay-summary-row" data-delay=delay.to_string() data-settings=settings.clone() data-current=current.to_string()>
                            <th scope="row">{delay}</th>
                            {side_by_side.then(|| view! { <td class="dl-settings" data-testid="delay-summary-settings">{settings_text.clone()}</td> })}
                            {tds}
                        </tr>
                        {sentence}
                    })
                })
                .collect::<Vec<_>>()
        })
        .collect_view();
    let recorded = summaries.first().map_or(0, |s| s.figures.len());
    view! {
        <div class="dl-table-wrap" data-testid="delay-summary" data-value=recorded.to_string()>
            {(recorded == 0).then(|| view! { <p class="panel-note">{DelayText::of(lang).summary_empty}</p> })}
            <table class="dl-table">
                <thead>
                    <tr>
                        <th>{DelayText::of(lang).col_delay}</th>
                        {side_by_side.then(|| view! { <th>{DelayText::of(lang).col_settings}</th> })}
                        {header}
                    </tr>
                </thead>
                <tbody>{body}</tbody>
            </table>
        </div>
    }
}

/// One cell's card: name, parameter counts, held-out figures over the seeds, each seed's
/// latest held-out accuracy, and the training-batch figures of its latest run.
fn cell_card(
    cell: CellKind,
    total: usize,
    recurrent: usize,
    runs: RwSignal<Vec<RunView>>,
) -> impl IntoView {
    let loc = use_locale();
    let key = cell.as_str();
    // The cell's runs with a held-out curve.
    let seeds = move || {
        runs.with(|rs| {
            rs.iter()
                .filter(|r| r.id.cell == cell && !r.heldout.is_empty())
                .cloned()
                .collect::<Vec<_>>()
        })
    };
    // The latest run of the cell that has started.
    let latest = move || {
        runs.with(|rs| {
            rs.iter()
                .rfind(|r| r.id.cell == cell && r.started())
                .cloned()
        })
    };
    let heldout_mean = move |acc: bool| runs.with(|rs| sweep::heldout_mean(rs, cell, acc));
    let dash = || "—".to_owned();
    let color = cell_colour(cell);
    let [id_params, id_step, id_loss, id_acc, id_hacc, id_hloss] = stat_ids(cell);
    view! {
        <div class="dl-cell" data-cell=key>
            <h3>
                <span class="dl-swatch" style:background=format!("rgb({},{},{})", color.0, color.1, color.2)></span>
                {cell_name(cell)}
                <span class="stat-detail" data-testid=format!("delay-seeds-{key}") data-value=move || seeds().len().to_string()></span>
            </h3>
            <div class="stats">
                <Stat
                    label=Signal::derive(move || DelayText::of(loc.lang()).stat_heldout_acc)
                    testid=id_hacc
                    text=Signal::derive(move || heldout_mean(true).map(|a| format!("{:.1}%", a * 100.0)).unwrap_or_else(dash))
                    raw=Signal::derive(move || heldout_mean(true).map(|a| a.to_string()).unwrap_or_default())
                    detail=Signal::derive(move || (DelayText::of(loc.lang()).heldout_detail)(&seeds().len().to_string()))
                />
                <Stat
                    label=Signal::derive(move || DelayText::of(loc.lang()).stat_heldout_loss)
                    testid=id_hloss
                    text=Signal::derive(move || heldout_mean(false).map(|l| format!("{l:.3}")).unwrap_or_else(dash))
                    raw=Signal::derive(move || heldout_mean(false).map(|l| l.to_string()).unwrap_or_default())
                    detail=Signal::derive(move || (DelayText::of(loc.lang()).heldout_detail)(&seeds().len().to_string()))
                />
                <Stat
                    label=Signal::derive(move || DelayText::of(loc.lang()).stat_params)
                    testid=id_params
                    text=Signal::derive(move || count_commas(total as u64))
                    raw=Signal::derive(move || total.to_string())
                    detail=Signal::derive(move || (DelayText::of(loc.lang()).params_detail)(&count_commas(recurrent as u64), &count_commas((total - recurrent) as u64)))
                />
                <Stat
                    label=Signal::derive(move || DelayText::of(loc.lang()).stat_steps)
                    testid=id_step
                    text=Signal::derive(move || count_commas(latest().map_or(0, |v| v.step)))
                    raw=Signal::derive(move || latest().map_or(0, |v| v.step).to_string())
                    detail=Signal::derive(move || latest().map(|v| (DelayText::of(loc.lang()).seed_row_short)(&v.id.seed.to_string())).unwrap_or_default())
                />
                <Stat
                    label=Signal::derive(move || DelayText::of(loc.lang()).stat_batch_loss)
                    testid=id_loss
                    text=Signal::derive(move || latest().and_then(|v| mean_last(&v.loss)).map(|l| format!("{l:.3}")).unwrap_or_else(dash))
                    raw=Signal::derive(move || latest().and_then(|v| mean_last(&v.loss)).map(|l| l.to_string()).unwrap_or_default())
                    detail=Signal::derive(move || latest().map(|v| (DelayText::of(loc.lang()).batch_detail)(&v.id.seed.to_string())).unwrap_or_default())
                />
                <Stat
                    label=Signal::derive(move || DelayText::of(loc.lang()).stat_batch_acc)
                    testid=id_acc
                    text=Signal::derive(move || latest().and_then(|v| mean_last(&v.acc)).map(|a| format!("{:.1}%", a * 100.0)).unwrap_or_else(dash))
                    raw=Signal::derive(move || latest().and_then(|v| mean_last(&v.acc)).map(|a| a.to_string()).unwrap_or_default())
                    detail=Signal::derive(move || latest().map(|v| (DelayText::of(loc.lang()).batch_detail)(&v.id.seed.to_string())).unwrap_or_default())
                />
            </div>
            <ul class="dl-seeds">
                {move || seeds().into_iter().filter_map(|r| {
                    let h = *r.heldout.last()?;
                    let finished = r.finished;
                    Some(view! {
                        <li
                            data-testid=format!("delay-seed-acc-{key}")
                            data-seed=r.id.seed.to_string()
                            data-step=h.step.to_string()
                            data-value=h.acc.to_string()
                        >
                            {move || (DelayText::of(loc.lang()).seed_row)(&r.id.seed.to_string(), &text::fmt_acc(h.acc), &count_commas(h.step))}
                            {move || finished.then(|| DelayText::of(loc.lang()).seed_final)}
                        </li>
                    })
                }).collect_view()}
            </ul>
            <p class="stat-detail" data-testid=format!("delay-loss-first-{key}") data-value=move || {
                latest().and_then(|v| v.loss.first().map(|p| p.1.to_string())).unwrap_or_default()
            }>
                {move || latest()
                    .and_then(|v| v.loss.first().map(|p| (DelayText::of(loc.lang()).first_loss)(&format!("{:.3}", p.1))))
                    .unwrap_or_default()}
            </p>
        </div>
    }
}

/// The `data-testid`s of a cell's stats: params, step, batch loss, batch accuracy, held-out
/// accuracy, held-out loss.
fn stat_ids(cell: CellKind) -> [String; 6] {
    [
        "params",
        "step",
        "loss",
        "acc",
        "heldout-acc",
        "heldout-loss",
    ]
    .map(|stat| format!("delay-{stat}-{}", cell.as_str()))
}

/// Positions per block of the example strip. Each block is the row names and this many
/// positions; blocks wrap to the width of the page (three per line on a desktop, one on a
/// phone), so the whole sequence is visible without sideways scrolling.
const BLOCK: usize = 8;

/// The example strip: positions, tokens, targets and one row of predictions per cell, in
/// blocks of [`BLOCK`] positions that wrap to the width.
fn example_table(
    tokens: Vec<u32>,
    delay: usize,
    predictions: RwSignal<Option<Predictions>>,
    restored: RwSignal<bool>,
) -> impl IntoView {
    let loc = use_locale();
    let len = tokens.len();
    let targets: Vec<Option<u32>> = (0..len)
        .map(|t| (t >= delay).then(|| tokens[t - delay]))
        .collect();
    let accuracy = {
        let targets = targets.clone();
        move |preds: &[u32]| {
            let correct = preds
                .iter()
                .zip(&targets[delay..])
                .filter(|(p, t)| Some(**p) == **t)
                .count();
            correct as f64 / preds.len().max(1) as f64
        }
    };
    // One line per cell: its accuracy on this sequence (the test hook).
    let summary = move || {
        let Some(p) = predictions.get() else {
            return view! {
                <p class="dl-none-note">
                    {move || {
                        if restored.get() {
                            DelayText::of(loc.lang()).no_predictions_kept
                        } else {
                            DelayText::of(loc.lang()).no_predictions
                        }
                    }}
                </p>
            }
            .into_any();
        };
        p.cells
            .iter()
            .map(|(cell, preds)| {
                let acc = accuracy(preds);
                let name = cell_name(*cell);
                view! {
                    <span class="dl-acc" data-testid=format!("delay-example-pred-{}", cell.as_str()) data-value=acc.to_string()>
                        {move || (DelayText::of(loc.lang()).row_pred)(name)}
                        " · "
                        {move || (DelayText::of(loc.lang()).example_acc)(&format!("{:.0}%", acc * 100.0))}
                    </span>
                }
            })
            .collect_view()
            .into_any()
    };
    let block = move |range: std::ops::Range<usize>| {
        let head = move || {
            let preds = predictions.with(|p| {
                p.as_ref()
                    .map(|p| p.cells.iter().map(|c| c.0).collect::<Vec<_>>())
                    .unwrap_or_default()
            });
            view! {
                <div class="dl-col dl-head">
                    <span>{move || DelayText::of(loc.lang()).row_pos}</span>
                    <span>{move || DelayText::of(loc.lang()).row_tokens}</span>
                    <span>{move || DelayText::of(loc.lang()).row_targets}</span>
                    {preds.into_iter().map(|cell| view! {
                        <span>{move || (DelayText::of(loc.lang()).row_pred)(cell_name(cell))}</span>
                    }).collect_view()}
                </div>
            }
        };
        let cols = range
            .map(|t| {
                let token = tokens[t];
                let target = targets[t];
                let preds = move || {
                    predictions.with(|p| {
                        p.as_ref()
                            .map(|p| {
                                p.cells
                                    .iter()
                                    .map(|(_, preds)| {
                                        if t < delay {
                                            view! { <span class="dl-none">"·"</span> }.into_any()
                                        } else {
                                            let p = preds[t - delay];
                                            let class =
                                                if Some(p) == target { "dl-ok" } else { "dl-bad" };
                                            view! { <span class=class>{p}</span> }.into_any()
                                        }
                                    })
                                    .collect_view()
                                    .into_any()
                            })
                            .unwrap_or_else(|| ().into_any())
                    })
                };
                view! {
                    <div class="dl-col" data-t=t.to_string()>
                        <span class="dl-pos">{t}</span>
                        <span>{token}</span>
                        {match target {
                            Some(x) => view! { <span>{x}</span> }.into_any(),
                            None => view! { <span class="dl-none">"·"</span> }.into_any(),
                        }}
                        {preds}
                    </div>
                }
            })
            .collect_view();
        view! {
            <div class="dl-block">
                {head}
                {cols}
            </div>
        }
    };
    let blocks = (0..len)
        .step_by(BLOCK)
        .map(|from| block(from..(from + BLOCK).min(len)))
        .collect_view();
    view! {
        <div class="dl-example" data-testid="delay-example" data-value=len.to_string()>
            <div class="dl-summary">{summary}</div>
            <div class="dl-strip" data-testid="delay-strip">{blocks}</div>
        </div>
    }
}
