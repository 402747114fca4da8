//! The sampler: a name written letter by letter with the run's weights, in the engine
//! ([`unroll_core::engine::generate`]). The request (language, prefix, temperature, top-k,
//! seed, greedy) is the page's URL keys, so a written name is a shareable link; Step reveals
//! one letter with the softmax it was drawn from (the 10 most likely symbols, the chosen one
//! marked) and the top layer's h_t as a new heatmap column; Play reveals the rest.
//!
//! Test hooks: `gen-language`, `gen-prefix`, `gen-temperature` (`data-value` = the
//! temperature), `gen-top-k`, `gen-seed`, `gen-mode-sample` / `gen-mode-greedy`
//! (`aria-pressed`), `gen-step`, `gen-play`, `gen-restart`, `gen-sample` (`data-value` = the
//! name so far, `data-full` = the whole name written, `data-steps` = steps revealed,
//! `data-ended`, `data-weights` = the step of the weights it was written with), `gen-softmax` (`data-value` = the bars' probabilities, comma-separated) with
//! one `gen-softmax-bar` per bar (`data-value`, `data-symbol`, `data-chosen`), `gen-hidden`
//! (the h_t heatmap), `gen-sample-error`.

use super::text::{generate_error, GenerateText};
use super::GenerateModel;
use crate::charts::heatmap::{Heatmap, HeatmapData, Scale};
use crate::kit::names_data::language_name;
use crate::shell::engine_client::{DataRef, EngineClient};
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use leptos::task::spawn_local;
use std::time::Duration;
use unroll_core::config::delay::DelayConfig;
use unroll_core::config::query::encode;
use unroll_core::engine::generate::{request_of, GenerateError, GenerateJob};
use unroll_core::task::generate::sample::{Sampled, MAX_TEMPERATURE, MIN_TEMPERATURE};
use unroll_core::task::generate::Alphabet;

/// Milliseconds between two letters while playing.
const PLAY_MS: u64 = 450;

// long: the sampler's request fields, its Step/Play state machine and its readouts (the name, the
// softmax bars, the h_t column) share one set of signals; the longest view of the app, the first
// to split into a controls and a readouts component
/// The sampler panel (see the module docs).
#[component]
pub fn SamplerPanel(cfg: RwSignal<DelayConfig>, model: GenerateModel) -> impl IntoView {
    let loc = use_locale();
    let t = move || GenerateText::of(loc.lang());
    let written = RwSignal::new(None::<Result<Sampled, GenerateError>>);
    // The data's letters, to name the bars (the end marker is the class after them).
    let alphabet = Memo::new(move |_| model.dataset().map(|d| Alphabet::of_data(&d)));
    let revealed = RwSignal::new(0usize);
    let writing = RwSignal::new(false);
    // The weights' step the name shown was written with.
    let written_at = RwSignal::new(None::<u64>);
    let request = Memo::new(move |_| cfg.with(request_of));
    // The latest request sent; an older answer is dropped.
    let sent = StoredValue::new(0u64);

    // A new request starts from the first letter; new weights keep the letters revealed.
    Effect::new(
        move |prev: Option<unroll_core::task::generate::sample::SampleRequest>| {
            let r = request.get();
            if prev.as_ref().is_some_and(|p| *p != r) {
                revealed.set(0);
            }
            r
        },
    );
    Effect::new(move |_| {
        let r = request.get();
        let dir = model.dirs[model.shown.get()];
        let Some(weights) = dir.weights.get() else {
            written.set(None);
            return;
        };
        let Some(data) = model.dataset() else {
            return;
        };
        let id = sent.get_value() + 1;
        sent.set_value(id);
        writing.set(true);
        let step = weights.step;
        let job = GenerateJob {
            query: dir
                .trained
                .with_untracked(|c| c.as_ref().map(|c| encode(c, None)))
                .unwrap_or_else(|| cfg.with_untracked(|c| encode(c, None))),
            data: 0,
            weights: (*weights).clone(),
            request: r,
            classifier: None,
        };
        spawn_local(async move {
            let result = EngineClient::get().sample(job, &DataRef::Page(data)).await;
            // The panel may be gone by the time the engine answers.
            if sent.try_get_value() == Some(id) {
                if let Ok(s) = &result {
                    revealed.try_update(|n| *n = (*n).min(s.steps.len()));
                }
                written.try_set(Some(result));
                written_at.try_set(Some(step));
                writing.try_set(false);
            }
        });
    });

    let total = move || {
        written
            .try_with(|w| match w {
                Some(Ok(s)) => s.steps.len(),
                _ => 0,
            })
            .unwrap_or(0)
    };
    let playing = RwSignal::new(false);
    let timer = StoredValue::new_local(None::<IntervalHandle>);
    // Also called on cleanup, when the panel's own values may be gone already.
    let stop_play = move || {
        playing.try_set(false);
        if let Some(h) = timer.try_update_value(|t| t.take()).flatten() {
            h.clear();
        }
    };
    let step = move || {
        let Some(n) = revealed.try_get_untracked() else {
            return stop_play();
        };
        if n < total() {
            revealed.update(|n| *n += 1);
        }
        if revealed.get_untracked() >= total() {
            stop_play();
        }
    };
    let play = move || {
        if playing.get_untracked() {
            stop_play();
            return;
        }
        if revealed.get_untracked() >= total() {
            revealed.set(0);
        }
        playing.set(true);
        if let Ok(h) = set_interval_with_handle(step, Duration::from_millis(PLAY_MS)) {
            timer.set_value(Some(h));
        }
    };
    on_cleanup(stop_play);

    let languages = move || {
        model
            .dataset()
            .map(|d| d.classes().to_vec())
            .unwrap_or_default()
    };
    let set = move |f: &dyn Fn(&mut DelayConfig)| {
        stop_play();
        cfg.update(|c| f(c));
    };
    let form = view! {
        <div class="gen-form">
            <label class="field">
                <span>{move || t().fields[0]}</span>
                <select data-testid="gen-language" on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse::<usize>() { set(&|c| c.language = i) }
                }>
                    {move || languages().into_iter().enumerate().map(|(i, name)| view! {
                        <option value=i.to_string() selected=move || cfg.with(|c| c.language == i)>{language_name(loc.lang(), &name)}</option>
                    }).collect_view()}
                </select>
            </label>
            <label class="field">
                <span>{move || t().fields[1]}</span>
                <input type="text" maxlength="16" data-testid="gen-prefix"
                    prop:value=move || cfg.with(|c| c.prefix.first().cloned().unwrap_or_default())
                    on:change=move |ev| {
                        let v = event_target_value(&ev).trim().to_owned();
                        set(&|c| c.prefix = if v.is_empty() { Vec::new() } else { vec![v.clone()] })
                    } />
            </label>
            <label class="field">
                <span>{move || format!("{} = {}", t().fields[2], cfg.with(|c| c.temperature))}</span>
                <input type="range" data-testid="gen-temperature"
                    min=MIN_TEMPERATURE.to_string() max=MAX_TEMPERATURE.to_string() step="0.05"
                    disabled=move || cfg.with(|c| c.greedy)
                    data-value=move || cfg.with(|c| c.temperature.to_string())
                    prop:value=move || cfg.with(|c| c.temperature.to_string())
                    on:input=move |ev| {
                        if let Ok(v) = event_target_value(&ev).parse::<f64>() {
                            let v = (v.clamp(MIN_TEMPERATURE, MAX_TEMPERATURE) * 100.0).round() / 100.0;
                            set(&|c| c.temperature = v)
                        }
                    } />
            </label>
            <label class="field">
                <span>{move || t().fields[3]}</span>
                <input type="number" min="0" max="64" step="1" data-testid="gen-top-k" title=move || t().top_k_all
                    disabled=move || cfg.with(|c| c.greedy)
                    prop:value=move || cfg.with(|c| c.top_k.to_string())
                    on:change=move |ev| {
                        if let Ok(k) = event_target_value(&ev).parse::<usize>() { set(&|c| c.top_k = k.min(64)) }
                    } />
            </label>
            <label class="field">
                <span>{move || t().fields[4]}</span>
                <input type="number" min="0" step="1" data-testid="gen-seed"
                    prop:value=move || cfg.with(|c| c.sample_seed.to_string())
                    on:change=move |ev| {
                        if let Ok(s) = event_target_value(&ev).parse::<u32>() { set(&|c| c.sample_seed = s) }
                    } />
            </label>
            <div class="field gen-mode-field">
                <span class="gen-modes" role="group">
                    <button type="button" class="btn" data-testid="gen-mode-sample"
                        aria-pressed=move || (!cfg.with(|c| c.greedy)).to_string()
                        on:click=move |_| set(&|c| c.greedy = false)>{move || t().modes[0]}</button>
                    <button type="button" class="btn" data-testid="gen-mode-greedy"
                        aria-pressed=move || cfg.with(|c| c.greedy).to_string()
                        on:click=move |_| set(&|c| c.greedy = true)>{move || t().modes[1]}</button>
                </span>
            </div>
        </div>
    };

    let name_view = move || {
        let lang = loc.lang();
        written.with(|w| match w {
            None => None,
            Some(Err(e)) => Some(
                view! { <p class="notice notice-error" role="alert" data-testid="gen-sample-error">{generate_error(lang, e)}</p> }
                    .into_any(),
            ),
            Some(Ok(s)) => {
                let n = revealed.get().min(s.steps.len());
                let prefix_len = s.name.chars().count() - s.steps.iter().filter(|st| st.symbol.is_some()).count();
                let prefix_shown: String = s.name.chars().take(prefix_len).collect();
                let letters: String = s.steps[..n].iter().filter_map(|st| st.symbol).collect();
                let so_far = format!("{prefix_shown}{letters}");
                let done = n == s.steps.len();
                let note = if !done {
                    if n == 0 { t().press_step } else { "" }
                } else if s.ended {
                    t().ended
                } else {
                    t().unended
                };
                Some(view! {
                    <p class="panel-note">{t().so_far}</p>
                    <p class="gen-name" data-testid="gen-sample" data-value=so_far.clone() data-full=s.name.clone()
                        data-steps=n.to_string() data-ended=(done && s.ended).to_string()
                        data-weights=move || written_at.get().map(|s| s.to_string()) aria-live="polite">
                        <span class="gen-prefix">{prefix_shown}</span>
                        <span>{letters}</span>
                        {(!done).then(|| view! { <span class="gen-next">" "</span> })}
                    </p>
                    <p class="panel-note">{note}</p>
                }
                .into_any())
            }
        })
    };

    let softmax = move || {
        let n = revealed.get();
        if n == 0 {
            return None;
        }
        let end = t().end_marker;
        written.with(|w| {
            let Some(Ok(s)) = w else { return None };
            let st = s.steps.get(n - 1)?;
            let greedy = cfg.with(|c| c.greedy);
            let title = if greedy {
                (t().softmax_greedy)(&n.to_string())
            } else {
                let k = cfg.with(|c| c.top_k);
                let all = alphabet.with(|a| a.as_ref().map_or(0, Alphabet::classes));
                let k = if k == 0 || k >= all {
                    (t().over[0])(&all.to_string())
                } else {
                    (t().over[1])(&k.to_string())
                };
                (t().softmax)(&n.to_string(), &cfg.with(|c| c.temperature.to_string()), &k)
            };
            // Symbols top-k leaves out have probability 0: no bar.
            let top: Vec<(u32, f32)> = st.top.iter().copied().filter(|t| t.1 > 0.0).collect();
            let max = top.first().map_or(1.0, |t| t.1).max(1e-6);
            let values = top.iter().map(|(_, p)| p.to_string()).collect::<Vec<_>>().join(",");
            let bars = top
                .into_iter()
                .map(|(class, p)| {
                    let chosen = class == st.chosen;
                    let sym = alphabet
                        .with(|a| a.as_ref().and_then(|a| a.char(class)))
                        .map_or_else(|| end.to_owned(), |c| c.to_string());
                    let label = sym.clone();
                    view! {
                        <div class="gen-bar-row" class:chosen=chosen data-testid="gen-softmax-bar"
                            data-value=p.to_string() data-symbol=sym.clone() data-chosen=chosen.to_string()>
                            <span class="gen-sym">{label}</span>
                            <div><div class="gen-bar" style=format!("width: {:.1}%", f64::from(p / max) * 100.0)></div></div>
                            <span class="gen-p">{format!("{p:.3}")}{chosen.then(|| format!(" ← {}", t().chosen))}</span>
                        </div>
                    }
                })
                .collect_view();
            Some(view! {
                <h3>{title}</h3>
                <div class="gen-bars" data-testid="gen-softmax" data-value=values role="list">{bars}</div>
            })
        })
    };

    let hidden = Signal::derive(move || {
        let n = revealed.get();
        written.with(|w| {
            let Some(Ok(s)) = w else {
                return HeatmapData::default();
            };
            let steps = &s.steps[..n.min(s.steps.len())];
            let rows = steps.first().map_or(0, |st| st.hidden.len());
            let cols = steps.len();
            let mut values = vec![0.0; rows * cols];
            for (j, st) in steps.iter().enumerate() {
                for (u, &h) in st.hidden.iter().enumerate() {
                    values[u * cols + j] = f64::from(h);
                }
            }
            let end = t().end_marker;
            HeatmapData {
                rows,
                cols,
                values,
                scale: Scale::Diverging { abs_max: 1.0 },
                row_labels: (0..rows)
                    .map(|u| {
                        if u % 8 == 0 {
                            u.to_string()
                        } else {
                            String::new()
                        }
                    })
                    .collect(),
                col_labels: steps
                    .iter()
                    .map(|st| st.symbol.map_or_else(|| end.to_owned(), |c| c.to_string()))
                    .collect(),
                row_title: t().hidden_axes[0].to_owned(),
                col_title: t().hidden_axes[1].to_owned(),
                ..HeatmapData::default()
            }
        })
    });
    let hidden_units = move || hidden.with(|h| h.rows);

    view! {
        <section class="panel" data-testid="gen-sampler">
            <h2>{move || t().sampler}</h2>
            {form}
            {move || model.dirs[model.shown.get()].weights.with(Option::is_none).then(|| view! { <p class="panel-note" data-testid="gen-no-model">{t().no_model}</p> })}
            <div class="gen-step-row">
                <button type="button" class="btn" data-testid="gen-step"
                    disabled=move || { playing.get() || revealed.get() >= total() }
                    on:click=move |_| step()>{move || t().steps[0]}</button>
                <button type="button" class="btn" data-testid="gen-play"
                    disabled=move || total() == 0
                    on:click=move |_| play()>{move || t().steps[if playing.get() { 2 } else { 1 }]}</button>
                <button type="button" class="btn btn-ghost" data-testid="gen-restart"
                    disabled=move || revealed.get() == 0
                    on:click=move |_| { stop_play(); revealed.set(0) }>{move || t().steps[3]}</button>
                <span class="panel-note">
                    {move || if writing.get() { t().writing.to_owned() } else { written_at.get().map(|s| (t().weights_of)(&s.to_string())).unwrap_or_default() }}
                </span>
            </div>
            {name_view}
            {softmax}
            {move || { hidden_units() > 0 && revealed.get() > 0 }.then(|| view! {
                <h3>{(t().hidden)(&hidden_units().to_string())}</h3>
                <div class="gen-hidden">
                    <Heatmap testid="gen-hidden" data=hidden label=Signal::derive(move || (t().hidden)(&hidden_units().to_string())) cell=9.0 />
                </div>
            })}
        </section>
    }
}
