//! The slow-motion panel's frames: one view per stage, drawn from the computed step.

use super::model::{self, Frame, Slowmo, Stage};
use super::text::SlowmoText;
use crate::names::lab::inspection::gate_letters;
use crate::names::lab::step_heatmap::{StepHeatmap, StepMap};
use crate::names::text::language_name;
use crate::shell::i18n::use_locale;
use leptos::prelude::*;
use unroll_core::data::VOCAB;

/// The computed step the panel shows, with the name and language it was computed for.
pub type Shown = RwSignal<Option<(String, usize, Slowmo)>, LocalStorage>;

/// The view of frame `index` of the shown step: its title (announced) and its stage's numbers.
pub fn frame_view(index: usize, shown: Shown, tensor: RwSignal<usize>) -> AnyView {
    shown.with(|r| match r {
        Some((_, _, s)) => frame_of(index, s, shown, tensor),
        None => ().into_any(),
    })
}

fn frame_of(index: usize, s: &Slowmo, shown: Shown, tensor: RwSignal<usize>) -> AnyView {
    let Some(&frame) = s.frames.get(index) else {
        return ().into_any();
    };
    let loc = use_locale();
    let stage = frame.stage;
    let title = move || {
        let tx = SlowmoText::of(loc.lang());
        (tx.stage_of)(
            stage.index() + 1,
            Stage::ALL.len(),
            tx.stage_names[stage.index()],
        )
    };
    let body = match stage {
        Stage::Forward => forward(s, frame),
        Stage::Logits => scores(s, false),
        Stage::Softmax => scores(s, true),
        Stage::Loss => loss(s),
        Stage::Backward => backward(s, frame),
        Stage::Clip => clip(s),
        Stage::Adam => adam(s, shown, tensor),
        Stage::New => new_prediction(s),
    };
    view! {
        <div class="slowmo-frame">
            <h3 aria-live="polite" data-testid="slowmo-title">{title}</h3>
            {body}
        </div>
    }
    .into_any()
}

/// The character read at step `t` (`∅` for padding).
fn char_at(s: &Slowmo, t: usize) -> String {
    match s.col_labels.get(t) {
        Some(c) if !c.is_empty() => c.clone(),
        _ => "∅".to_owned(),
    }
}

/// A catalogue's sentence about a step: layer, direction, time step, character.
type StepSentence = fn(usize, usize, usize, &str) -> String;

/// Where a forward or backward frame is: layer, direction, time step.
fn at_line(frame: Frame, text: fn(&SlowmoText) -> StepSentence, c: String) -> impl IntoView {
    let loc = use_locale();
    let (l, d, t) = frame.at;
    view! {
        <p class="slowmo-at" data-testid="slowmo-at" data-layer=l.to_string() data-direction=d.to_string() data-value=t.to_string()>
            {move || text(SlowmoText::of(loc.lang()))(l, d, t, &c)}
        </p>
    }
}

/// A heatmap with a caption from the catalogue.
fn map_view(
    testid: &str,
    caption: impl Fn(&SlowmoText) -> String + Send + Sync + 'static,
    map: StepMap,
) -> impl IntoView {
    let loc = use_locale();
    view! {
        <StepHeatmap
            testid=testid.to_owned()
            caption=Signal::derive(move || caption(SlowmoText::of(loc.lang())))
            map=Signal::derive(move || Some(map.clone()))
            budget=160.0
        />
    }
}

/// A norm or a small number as the panel writes it: 4 decimals from 0.001 on, else
/// scientific notation with 3 digits (`1.27e-4`).
pub fn small(v: f64) -> String {
    if v == 0.0 || v.abs() >= 1e-3 {
        format!("{v:.4}")
    } else {
        format!("{v:.2e}")
    }
}

/// A labelled number with its raw value in `data-value`.
fn stat(
    testid: &'static str,
    label: impl Fn() -> String + Send + Sync + 'static,
    value: f64,
    shown: String,
) -> impl IntoView {
    view! {
        <p class="slowmo-stat">
            <span class="slowmo-stat-label">{label}</span>" "
            <span class="slowmo-stat-value" data-testid=testid data-value=value.to_string()>{shown}</span>
        </p>
    }
}

fn forward(s: &Slowmo, frame: Frame) -> AnyView {
    let loc = use_locale();
    let (l, d, t) = frame.at;
    let h = model::h_map(s, frame.at);
    let hid = h.rows;
    let trace = s
        .step
        .forward
        .iter()
        .find(|x| x.layer == l && x.direction == d);
    let h_t: Vec<f32> = trace
        .map(|x| x.h[t * hid..][..hid].to_vec())
        .unwrap_or_default();
    let norm = h_t.iter().map(|v| (*v as f64).powi(2)).sum::<f64>().sqrt();
    let gates = model::gates_map(s, frame.at, &gate_letters(s.cell));
    view! {
        {at_line(frame, |tx| tx.forward_step, char_at(s, t))}
        <p class="field-help">{move || SlowmoText::of(loc.lang()).forward_explain}</p>
        {stat("slowmo-h-norm", move || SlowmoText::of(loc.lang()).h_norm.to_owned(), norm, format!("{norm:.4}"))}
        <div class="slowmo-maps">
            {map_view("slowmo-h", |tx| tx.h_caption.to_owned(), h)}
            {gates.map(|g| map_view("slowmo-gates", move |tx| (tx.gates_caption)(t), g))}
        </div>
    }
    .into_any()
}

/// One `<li>` per class, sorted by probability: its score (logits) or probability (softmax).
fn scores(s: &Slowmo, probabilities: bool) -> AnyView {
    let loc = use_locale();
    let values = if probabilities {
        &s.step.probabilities
    } else {
        &s.step.logits
    };
    let abs_max = values.iter().fold(0.0f32, |m, v| m.max(v.abs())).max(1e-12);
    let rows = model::ranked(&s.step.probabilities)
        .into_iter()
        .map(|i| {
            let v = values[i];
            let width = if probabilities { v } else { v.abs() / abs_max };
            row(
                s,
                i,
                v,
                width,
                if probabilities {
                    format!("{:.2}%", v * 100.0)
                } else {
                    format!("{v:.3}")
                },
            )
        })
        .collect_view();
    let sum: f64 = s.step.probabilities.iter().map(|&p| p as f64).sum();
    let testid = if probabilities {
        "slowmo-probs"
    } else {
        "slowmo-logits"
    };
    view! {
        <p class="field-help">{move || {
            let tx = SlowmoText::of(loc.lang());
            if probabilities { tx.softmax_explain } else { tx.logits_explain }
        }}</p>
        <ol class="predict-top slowmo-scores" data-testid=testid>{rows}</ol>
        {probabilities.then(|| stat("slowmo-prob-sum", move || SlowmoText::of(loc.lang()).prob_sum.to_owned(), sum, format!("{sum:.6}")))}
    }
    .into_any()
}

/// One class's row: language, bar, value; the target marked.
fn row(s: &Slowmo, class: usize, value: f32, width: f32, shown: String) -> impl IntoView {
    let loc = use_locale();
    let label = s.classes.get(class).cloned().unwrap_or_default();
    let target = class == s.step.label;
    let name = label.clone();
    view! {
        <li data-label=label data-value=value.to_string() class:slowmo-target=target>
            <span class="lang">
                {move || language_name(loc.lang(), &name)}
                {target.then(|| view! { <span class="slowmo-mark">{move || format!(" · {}", SlowmoText::of(loc.lang()).label_mark)}</span> })}
            </span>
            <span class="bar" aria-hidden="true">
                <span class="bar-fill" style:width=format!("{:.1}%", (width * 100.0).clamp(0.0, 100.0))></span>
            </span>
            <span class="prob">{shown}</span>
        </li>
    }
}

fn loss(s: &Slowmo) -> AnyView {
    let loc = use_locale();
    let p = s.step.probabilities[s.step.label];
    let lang = s.classes.get(s.step.label).cloned().unwrap_or_default();
    let loss = s.step.loss;
    view! {
        <p class="slowmo-formula" data-testid="slowmo-p-label" data-value=p.to_string()>
            {move || (SlowmoText::of(loc.lang()).loss_formula)(&language_name(loc.lang(), &lang), p)}
        </p>
        {stat("slowmo-loss", || "L =".to_owned(), loss as f64, format!("{loss:.4}"))}
        <p class="field-help">{move || SlowmoText::of(loc.lang()).loss_explain}</p>
    }
    .into_any()
}

/// Each tensor's gradient norm, as a list with bars scaled to the largest.
fn norms_list(testid: &'static str, s: &Slowmo, norms: &[f32]) -> impl IntoView {
    let max = norms.iter().fold(0.0f32, |m, &v| m.max(v)).max(1e-30);
    let rows = s
        .step
        .tensors
        .iter()
        .zip(norms)
        .map(|(e, &n)| {
            view! {
                <li data-name=e.name.clone() data-value=n.to_string()>
                    <span class="lang"><code>{e.name.clone()}</code></span>
                    <span class="bar" aria-hidden="true">
                        <span class="bar-fill" style:width=format!("{:.1}%", n / max * 100.0)></span>
                    </span>
                    <span class="prob">{small(n as f64)}</span>
                </li>
            }
        })
        .collect_view();
    view! { <ol class="predict-top slowmo-norms" data-testid=testid>{rows}</ol> }
}

fn backward(s: &Slowmo, frame: Frame) -> AnyView {
    let loc = use_locale();
    let (l, d, t) = frame.at;
    let step = s
        .step
        .backward
        .iter()
        .find(|b| (b.layer, b.direction, b.t) == (l, d, t));
    let Some(step) = step else {
        return ().into_any();
    };
    let norm = step.dh_norm;
    view! {
        {at_line(frame, |tx| tx.backward_step, char_at(s, t))}
        <p class="field-help">{move || SlowmoText::of(loc.lang()).backward_explain}</p>
        {stat("slowmo-dh-norm", move || SlowmoText::of(loc.lang()).dh_norm.to_owned(), norm as f64, small(norm as f64))}
        <div class="slowmo-maps">
            {map_view("slowmo-dh", |tx| tx.dh_caption.to_owned(), model::dh_map(s, frame.at))}
            <div>
                <h4>{move || SlowmoText::of(loc.lang()).grad_norms_title}</h4>
                {norms_list("slowmo-grad-norms", s, &step.grad_norms)}
            </div>
        </div>
    }
    .into_any()
}

fn clip(s: &Slowmo) -> AnyView {
    let loc = use_locale();
    let c = s.step.clip;
    let skipped = s.step.skipped;
    let line = move || {
        let tx = SlowmoText::of(loc.lang());
        if skipped {
            tx.skipped.to_owned()
        } else if c.max_norm <= 0.0 {
            tx.clip_off.to_owned()
        } else if c.clipped {
            (tx.clip_on)(c.norm, c.max_norm, c.scale)
        } else {
            (tx.clip_under)(c.norm, c.max_norm)
        }
    };
    view! {
        <p class="slowmo-formula">{line}</p>
        {stat("slowmo-clip-norm", || "‖g‖ =".to_owned(), c.norm, format!("{:.4}", c.norm))}
        {stat("slowmo-clip-scale", || "×".to_owned(), c.scale, format!("{:.4}", c.scale))}
        <h4>{move || SlowmoText::of(loc.lang()).clipped_title}</h4>
        {norms_list("slowmo-clipped-norms", s, &s.step.clipped_norms)}
    }
    .into_any()
}

fn adam(s: &Slowmo, shown: Shown, tensor: RwSignal<usize>) -> AnyView {
    let loc = use_locale();
    let options = s
        .step
        .tensors
        .iter()
        .enumerate()
        .map(|(i, e)| view! { <option value=i.to_string() selected=move || { tensor.get() == i }>{e.name.clone()}</option> })
        .collect_view();
    view! {
        <p class="field-help">{move || SlowmoText::of(loc.lang()).adam_explain}</p>
        {stat("slowmo-lr", || "lr =".to_owned(), s.hyper.lr as f64, s.hyper.lr.to_string())}
        <div class="field">
            <label for="slowmo-tensor"><span class="field-name">{move || SlowmoText::of(loc.lang()).tensor_label}</span></label>
            <select id="slowmo-tensor" data-testid="slowmo-tensor"
                on:change=move |ev| {
                    if let Ok(i) = event_target_value(&ev).parse() {
                        tensor.set(i);
                    }
                }>
                {options}
            </select>
        </div>
        {move || {
            let index = tensor.get();
            shown.with(|r| r.as_ref().and_then(|(_, _, s)| tensor_delta(s, index)))
        }}
    }
    .into_any()
}

/// The Δ heatmap and the largest movers of tensor `index`.
fn tensor_delta(s: &Slowmo, index: usize) -> Option<AnyView> {
    let loc = use_locale();
    let entry = s.step.tensors.get(index)?.clone();
    let movers = s.step.movers.get(index)?.clone();
    let map = model::delta_map(s, index, VOCAB)?;
    let (max, mean) = (movers.max_abs, movers.mean_abs);
    let rows = movers
        .top
        .iter()
        .map(|&(i, v)| {
            let at = model::element_index(&entry.shape, i);
            view! {
                <li data-name=entry.name.clone() data-index=i.to_string() data-value=v.to_string()>
                    <code>{format!("{}{at}", entry.name)}</code>" "{format!("{v:+.3e}")}
                </li>
            }
        })
        .collect_view();
    Some(view! {
        <p class="predict-weights">{move || (SlowmoText::of(loc.lang()).tensor_moved)(max, mean)}</p>
        <div class="slowmo-maps">
            {map_view("slowmo-delta", |tx| tx.delta_caption.to_owned(), map)}
            <div>
                <h4>{move || SlowmoText::of(loc.lang()).movers_title}</h4>
                <ol class="slowmo-movers" data-testid="slowmo-movers">{rows}</ol>
            </div>
        </div>
    }
    .into_any())
}

fn new_prediction(s: &Slowmo) -> AnyView {
    let loc = use_locale();
    let label = s.step.label;
    let (old, new) = (s.step.probabilities[label], s.step.new_probabilities[label]);
    let (old_loss, new_loss) = (s.step.loss, s.step.new_loss);
    let lang = s.classes.get(label).cloned().unwrap_or_default();
    let top = model::ranked(&s.step.new_probabilities)
        .into_iter()
        .take(3)
        .map(|i| {
            let p = s.step.new_probabilities[i];
            row(s, i, p, p, format!("{:.2}%", p * 100.0))
        })
        .collect_view();
    view! {
        <p class="slowmo-formula" data-testid="slowmo-new-prob" data-value=new.to_string() data-old=old.to_string()>
            {move || (SlowmoText::of(loc.lang()).new_prob)(&language_name(loc.lang(), &lang), old, new)}
        </p>
        <p class="slowmo-formula" data-testid="slowmo-new-loss" data-value=new_loss.to_string() data-old=old_loss.to_string()>
            {move || (SlowmoText::of(loc.lang()).new_loss)(old_loss, new_loss)}
        </p>
        <p class="field-help">{move || SlowmoText::of(loc.lang()).new_explain}</p>
        <h4>{move || SlowmoText::of(loc.lang()).new_top_title}</h4>
        <ol class="predict-top" data-testid="slowmo-new-top">{top}</ol>
    }
    .into_any()
}
