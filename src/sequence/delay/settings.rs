//! The delay page's settings panel: the delay presets, the form (every field through the URL
//! codec, like a link) and the sweep's run controls.

use super::forget_gate_cell;
use super::text::DelayText;
use super::DelayDriver;
use crate::kit::text::Text;
use crate::shell::backend_text::BackendText;
use crate::shell::i18n::use_locale;
use crate::shell::run_status::RunStatus;
use crate::shell::url::PageNotice;
use crate::widgets::backend::BackendField;
use crate::widgets::number_field::NumberField;
use crate::widgets::run_controls::{RunAction, RunControls};
use crate::widgets::workers::{gpu_bound, workers_help};
use leptos::prelude::*;
use unroll_core::config::delay::{
    CellSet, DelayConfig, DelayRangeError, DELAY_FIELDS, MAX_LENGTH, PRESET_DELAYS,
};
use unroll_core::config::fields;
use unroll_core::config::query::{decode, encode, parse_pairs};
use unroll_core::config::{Lang, NoticeKind};

/// A form control or preset sets `key` to `value` through the codec, like a link; what the
/// codec adjusted joins the page's notices.
pub(crate) fn set_field(
    cfg: RwSignal<DelayConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    key: &'static str,
    value: String,
) {
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
}

/// The settings panel: presets, form, run controls, and the hint that the form is locked
/// while a sweep runs.
#[component]
pub fn SettingsPanel(
    cfg: RwSignal<DelayConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    driver: DelayDriver,
    invalid: Memo<Option<DelayRangeError>>,
) -> impl IntoView {
    let loc = use_locale();
    let t = move |pick: Text| move || pick(loc.lang());
    let busy = move || driver.busy();
    let status = driver.flow.status;
    let runs = driver.runs;
    view! {
        <aside class="panel config-panel">
            <h2>{t(|l| DelayText::of(l).settings)}</h2>
            <div class="dl-presets" role="group" aria-label=t(|l| DelayText::of(l).presets)>
                <span class="field-name">{t(|l| DelayText::of(l).presets)}</span>
                {PRESET_DELAYS.into_iter().map(|d| preset_button(cfg, driver, d)).collect_view()}
            </div>
            <p class="field-help">{t(|l| DelayText::of(l).presets_help)}</p>
            <DelayForm cfg=cfg notices=notices driver=driver />
            <RunControls
                prefix="delay"
                start=RunAction::new(move || DelayText::of(loc.lang()).start, move || !busy() && invalid.get().is_none(), move || driver.start(cfg.get_untracked()))
                pause=RunAction::new(move || DelayText::of(loc.lang()).pause, move || status.get().can_pause(), move || driver.pause())
                resume=RunAction::new(move || DelayText::of(loc.lang()).resume, move || status.get().can_resume(), move || driver.resume())
                reset=RunAction::new(
                    move || DelayText::of(loc.lang()).reset,
                    move || status.get() != RunStatus::Idle || !runs.with(Vec::is_empty),
                    move || driver.reset(),
                )
            />
            <p class="hint" class:hidden=move || !busy()>{t(|l| DelayText::of(l).locked)}</p>
        </aside>
    }
}

/// A preset button: sets the delay (and the length, when the current one is too short).
fn preset_button(cfg: RwSignal<DelayConfig>, driver: DelayDriver, delay: usize) -> impl IntoView {
    let loc = use_locale();
    view! {
        <button
            type="button"
            class="btn btn-small"
            data-testid=format!("delay-preset-{delay}")
            disabled=move || driver.busy()
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
}

/// The form: the cells to train, then one number field per setting.
#[component]
fn DelayForm(
    cfg: RwSignal<DelayConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    driver: DelayDriver,
) -> impl IntoView {
    let loc = use_locale();
    let busy = move || driver.busy();
    let set = move |key: &'static str, value: String| set_field(cfg, notices, key, value);
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
    view! {
        <form class="config-form" on:submit=|ev| ev.prevent_default()>
            <CellField cfg=cfg notices=notices driver=driver />
            <BackendField
                value=Signal::derive(move || cfg.with(|c| c.backend))
                on_change=Callback::new(move |v| set_field(cfg, notices, "backend", v))
                disabled=Signal::derive(busy)
                id="cfg-backend"
            />
            {number("workers", |l| BackendText::of(l).workers, workers_help, |c| !gpu_bound(c), |c| c.workers.to_string())}
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
    }
}

/// The choice of cells to train.
#[component]
fn CellField(
    cfg: RwSignal<DelayConfig>,
    notices: RwSignal<Vec<PageNotice>>,
    driver: DelayDriver,
) -> impl IntoView {
    let loc = use_locale();
    let t = move |pick: Text| move || pick(loc.lang());
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
    view! {
        <div class="field">
            <label for="cfg-cell">
                <span class="field-name">{t(|l| DelayText::of(l).cells)}</span>
                <code class="field-key">"cell"</code>
            </label>
            <select
                id="cfg-cell"
                data-testid="cfg-cell"
                disabled=move || driver.busy()
                prop:value=move || cfg.with(|c| c.cell.as_str().to_owned())
                on:change=move |ev| set_field(cfg, notices, "cell", event_target_value(&ev))
            >
                {CellSet::ALL.iter().copied().map(cell_option).collect_view()}
            </select>
        </div>
    }
}
