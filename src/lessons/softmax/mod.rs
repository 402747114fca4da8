//! Lesson 7 (`softmax`): logits → log-softmax → softmax → NLL, computed by
//! [`unroll_core::lessons::softmax`] (the trainer's `log_softmax`).

pub mod question;
pub mod text;
pub mod tour;

use self::text::SoftmaxText;
use super::frame::{sync_url, LessonFrame, Panel, Para};
use super::widgets::{t, ListSliders, Num};
use crate::kit::fmt;
use crate::kit::question::{veil_hidden, veiled, Veiled};
use crate::kit::tour::TourButton;
use crate::lessons::common_text::CommonText;
use crate::lessons::torch_lines::TorchLines;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use unroll_core::config::fields;
use unroll_core::config::lessons::{LessonId, LessonState, SoftmaxConfig, SOFTMAX_FIELDS};
use unroll_core::config::{Lang, UrlNotice};
use unroll_core::lessons::softmax::{softmax, Softmax, SHIFTED_MAX};
use unroll_core::lessons::torch_lines;

/// The `softmax` lesson page: the logits and the target beside the pipeline logits →
/// softmax → NLL, the loss and the numerical-stability panel.
#[component]
pub fn SoftmaxPage(
    /// Decoded URL state.
    initial: SoftmaxConfig,
    /// URL notices.
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let lang = use_lang();
    let cfg = RwSignal::new(initial);
    sync_url(cfg, LessonState::Softmax);
    let result = Memo::new(move |_| softmax(&cfg.get()));
    view! {
        <LessonFrame id=LessonId::Softmax notices=notices tour=move || view! { <TourButton cfg=cfg tour=&tour::TOUR /> }>
            <div class="lx-layout">
                <SoftmaxControls cfg=cfg />
                <div class="lx-main">
                    <question::SoftmaxQuestions cfg=cfg />
                    <SoftmaxPipeline cfg=cfg result=result />
                    <Panel title=|l| SoftmaxText::of(l).loss>{move || loss_panel(&result.get(), lang.get())}</Panel>
                    <Panel title=|l| SoftmaxText::of(l).stability>{move || stability_panel(&result.get(), lang.get())}</Panel>
                    <Panel title=|l| CommonText::of(l).about>
                        <Para text=|l| SoftmaxText::of(l).about_1 />
                        <Para text=|l| SoftmaxText::of(l).about_2 />
                    </Panel>
                    <TorchLines code=Signal::derive(move || torch_lines::softmax(&result.get())) />
                </div>
            </div>
        </LessonFrame>
    }
}

/// The logits (added and removed as a list) and the target class.
#[component]
fn SoftmaxControls(cfg: RwSignal<SoftmaxConfig>) -> impl IntoView {
    let lang = use_lang();
    let field = |key: &str| fields::spec(SOFTMAX_FIELDS, key);
    let classes = Memo::new(move |_| cfg.with(|c| c.logits.len()));
    view! {
        <Panel title=|l| SoftmaxText::of(l).controls class="lx-controls">
            <ListSliders
                prefix="softmax-logits"
                buttons=(|l| SoftmaxText::of(l).add_logit, |l| SoftmaxText::of(l).remove_logit)
                symbol="x"
                from_zero=true
                values=Signal::derive(move || cfg.with(|c| c.logits.clone()))
                spec=field("logits")
                step=0.1
                on_change=Callback::new(move |list| cfg.update(|c| {
                    c.logits = list;
                    c.target = c.target.min(c.logits.len() - 1);
                }))
            />
            <h3 class="lx-sub">{t(|l| SoftmaxText::of(l).target)}</h3>
            <div class="lx-choice" role="radiogroup" aria-label=move || SoftmaxText::of(lang.get()).target data-testid="softmax-target">
                <For
                    each=move || 0..classes.get()
                    key=|k| *k
                    children=move |k| {
                        let id = format!("softmax-target-{k}");
                        let (for_id, el_id) = (id.clone(), id.clone());
                        view! {
                            <label for=for_id>
                                <input
                                    type="radio"
                                    name="softmax-target"
                                    id=el_id
                                    data-testid=id
                                    prop:checked=move || cfg.with(|c| c.target == k)
                                    on:change=move |_| cfg.update(|c| c.target = k)
                                />
                                {move || (SoftmaxText::of(lang.get()).class_n)(&k.to_string())}
                            </label>
                        }
                    }
                />
            </div>
        </Panel>
    }
}

/// The pipeline's formulas and every class's logit, shifted logit, log-softmax and
/// probability (with a bar).
#[component]
fn SoftmaxPipeline(cfg: RwSignal<SoftmaxConfig>, result: Memo<Softmax>) -> impl IntoView {
    let lang = use_lang();
    // Every class's log-probability and probability answer lesson 7's question.
    let hide = veiled(question::QUESTION.key);
    let classes = Memo::new(move |_| cfg.with(|c| c.logits.len()));
    view! {
        <Panel title=|l| SoftmaxText::of(l).pipeline>
            {move || pipeline(&result.get(), lang.get())}
            <div class="lx-scroll" data-scroller tabindex="0">
                <table class="lx-table">
                    <thead>
                        <tr>
                            <th>{t(|l| SoftmaxText::of(l).class)}</th>
                            <th>"logit x_k"</th>
                            <th>"x_k − max"</th>
                            <th>"log_softmax"</th>
                            <th>"softmax"</th>
                            <th class="lx-left lx-bar-col"><span class="lx-sr">{t(|l| SoftmaxText::of(l).bar_column)}</span></th>
                        </tr>
                    </thead>
                    <tbody>
                        <For
                            each=move || 1..=classes.get()
                            key=|k| *k
                            children=move |k| {
                                let get = move |f: fn(&Softmax, usize) -> f32| Signal::derive(move || result.with(|r| if k <= r.logits.len() { f(r, k - 1) } else { f32::NAN }));
                                let prob = get(|r, i| r.probs[i]);
                                view! {
                                    <tr class:lx-active=move || result.with(|r| r.target + 1 == k)>
                                        <td>{k - 1}</td>
                                        <td><Num testid=format!("softmax-logit-{k}") value=get(|r, i| r.logits[i]) digits=2 /></td>
                                        <td><Num testid=format!("softmax-shifted-{k}") value=get(|r, i| r.logits[i] - r.max) /></td>
                                        <td><Veiled on=hide><Num testid=format!("softmax-logsoftmax-{k}") value=get(|r, i| r.log_softmax[i]) /></Veiled></td>
                                        <td><Veiled on=hide><Num testid=format!("softmax-prob-{k}") value=prob /></Veiled></td>
                                        <td class="lx-left lx-bar-col lx-veil-mark" class:lx-veiled=hide aria-hidden=veil_hidden(hide)>
                                            <div class="lx-bar-track">
                                                <div class="lx-bar-fill" style=move || format!("width:{:.2}%", 100.0 * f64::from(prob.get()).clamp(0.0, 1.0))></div>
                                            </div>
                                        </td>
                                    </tr>
                                }
                            }
                        />
                    </tbody>
                </table>
            </div>
        </Panel>
    }
}

fn pipeline(r: &Softmax, lang: Lang) -> AnyView {
    view! {
        <div class="lx-eq">
            <p>
                "max = "
                <span class="lx-num" data-testid="softmax-max" data-value=fmt::raw(r.max)>{fmt::fixed(r.max, 4)}</span>
                ",   log Σ exp(x_k) = "
                <span class="lx-num" data-testid="softmax-lse" data-value=fmt::raw(r.log_sum_exp)>{fmt::fixed(r.log_sum_exp, 4)}</span>
            </p>
            <p>{format!("log_softmax(x)_k = x_k − {}", fmt::fixed(r.log_sum_exp, 4))}</p>
            <p>"softmax(x)_k = exp(log_softmax(x)_k)"</p>
        </div>
        <p class="lx-text lx-note">{SoftmaxText::of(lang).pipeline_text}</p>
    }
    .into_any()
}

fn loss_panel(r: &Softmax, lang: Lang) -> AnyView {
    let nll = (fmt::raw(r.nll_of_probs), fmt::fixed(r.nll_of_probs, 4));
    let target = r.target;
    view! {
        <div class="lx-eq">
            <p>
                {format!("NLL = −log_softmax(x)[{target}] = ")}
                <strong><span class="lx-num" data-testid="softmax-nll" data-value=fmt::raw(r.nll)>{fmt::fixed(r.nll, 4)}</span></strong>
            </p>
            <p>
                {format!("CrossEntropyLoss(x, {target}) = ")}
                <span class="lx-num" data-testid="softmax-ce" data-value=fmt::raw(r.cross_entropy)>{fmt::fixed(r.cross_entropy, 4)}</span>
            </p>
        </div>
        <p class="lx-text">{SoftmaxText::of(lang).ce_text}</p>
        <p class="lx-text">
            {SoftmaxText::of(lang).wrong}
            " "
            <Veiled on=veiled(question::QUESTION.key)><span class="lx-num lx-bad" data-testid="softmax-nll-of-probs" data-value=nll.0>{nll.1}</span></Veiled>
        </p>
    }
    .into_any()
}

fn stability_panel(r: &Softmax, lang: Lang) -> AnyView {
    // Both columns are the probabilities again: lesson 7's answer.
    let hide = veiled(question::QUESTION.key);
    let rows = r
        .naive_shifted
        .iter()
        .zip(&r.log_softmax_shifted)
        .enumerate()
        .map(|(k, (naive, stable))| {
            let (naive_raw, naive_text) = (fmt::raw(*naive), fmt::fixed(*naive, 4));
            let (stable_raw, stable_text) = (fmt::raw(stable.exp()), fmt::fixed(stable.exp(), 4));
            view! {
                <tr>
                    <td>{k}</td>
                    <td class="lx-num">{fmt::fixed(r.logits[k] + r.shift, 2)}</td>
                    <td><Veiled on=hide><span class="lx-num" data-testid=format!("softmax-naive-{}", k + 1) data-value=naive_raw>{naive_text}</span></Veiled></td>
                    <td><Veiled on=hide><span class="lx-num" data-testid=format!("softmax-stable-{}", k + 1) data-value=stable_raw>{stable_text}</span></Veiled></td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <p class="lx-text">{(SoftmaxText::of(lang).stability_text)(&fmt::fixed(r.shift, 2), &fmt::short(f64::from(SHIFTED_MAX)), &fmt::sci64(f64::from(f32::MAX)))}</p>
        <div class="lx-scroll" data-scroller tabindex="0">
            <table class="lx-table">
                <thead>
                    <tr>
                        <th>{SoftmaxText::of(lang).class}</th>
                        <th>{format!("x_k + {}", fmt::fixed(r.shift, 2))}</th>
                        <th>"exp(x_k) / Σ exp(x_j)"</th>
                        <th>"exp(log_softmax)"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
    }
    .into_any()
}
