//! Lesson 6 (`bidir`): a bidirectional RNN over token embeddings, computed by
//! [`unroll_core::lessons::bidir`]. Tokens are user text: they are rendered as text nodes only.

pub mod question;
pub mod text;
pub mod tour;

use self::text::BidirText;
use super::frame::{sync_url, LessonFrame, Panel, Para};
use super::widgets::{t, Heatmap, SeedInput, StepControls};
use crate::kit::fmt;
use crate::kit::handout::BidirLastNote;
use crate::kit::question::{veiled, Veiled};
use crate::kit::stages::Stages;
use crate::kit::tour::TourButton;
use crate::lessons::torch_lines::TorchLines;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use unroll_core::config::fields;
use unroll_core::config::lessons::{BidirConfig, LessonId, LessonState, BIDIR_FIELDS};
use unroll_core::config::{Lang, UrlNotice};
use unroll_core::lessons::bidir::{bidir, Bidir, HIDDEN};
use unroll_core::lessons::torch_lines;

/// The stages of a step, as the diagram's `data-stage` names them: the forward direction
/// reads its next token, the backward direction its next one, and the outputs where both have
/// been are concatenated.
pub const STAGES: &[&str] = &["forward", "backward", "concat"];

/// The name of stage `k` in `lang`.
fn stage_label(lang: Lang, k: usize) -> &'static str {
    BidirText::of(lang).stages.get(k).copied().unwrap_or("")
}

/// Most tokens and characters per token (the URL's limits).
const MAX_TOKENS: usize = 12;
const MAX_CHARS: usize = 16;

fn vec_raw(v: &[f32]) -> String {
    v.iter().map(|x| fmt::raw(*x)).collect::<Vec<_>>().join(",")
}

fn vec_text(v: &[f32]) -> String {
    format!(
        "[{}]",
        v.iter()
            .map(|x| fmt::fixed(*x, 3))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The scrubber's label: step k of T, and where each direction is (positions from 0).
fn step_caption(lang: Lang, k: usize, n: usize) -> String {
    (BidirText::of(lang).step_caption)(
        &k.to_string(),
        &n.to_string(),
        &k.saturating_sub(1).to_string(),
        &n.saturating_sub(k).to_string(),
    )
}

/// Splits the text field into tokens the way the URL codec accepts them: comma-separated,
/// trimmed, empty ones dropped, at most 12 of at most 16 characters.
fn parse_tokens(text: &str) -> Vec<String> {
    text.split([',', '，'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .take(MAX_TOKENS)
        .map(|s| s.chars().take(MAX_CHARS).collect())
        .collect()
}

/// The `bidir` lesson page: the tokens and seed beside the two directions' diagram, the
/// concatenated output and the weights.
#[component]
pub fn BidirPage(
    /// Decoded URL state.
    initial: BidirConfig,
    /// URL notices.
    notices: Vec<UrlNotice>,
) -> impl IntoView {
    let lang = use_lang();
    let cfg = RwSignal::new(initial);
    sync_url(cfg, LessonState::Bidir);
    let result = Memo::new(move |_| bidir(&cfg.get()).map_err(|e| e.to_string()));
    let n = Memo::new(move |_| cfg.with(|c| c.tokens.len().max(1)));
    let k_now = Signal::derive(move || cfg.with(|c| c.step_shown()));
    // Fewer tokens than the URL's `t`: the scrubber (and `t`) move to the last token.
    Effect::new(move |_| {
        let n = n.get();
        if cfg.with(|c| c.t > n) {
            cfg.update(|c| c.t = 0);
        }
    });

    let stages = Stages::new(STAGES, stage_label);
    // On a phone the diagram scrolls sideways: the forward direction's newest column (at the
    // last step, the last position the question asks about) stays in view.
    super::widgets::keep_in_view(move || {
        stages.now.track();
        format!(
            "[data-testid=\"bidir-col-{}\"]",
            k_now.get().clamp(1, n.get()) - 1
        )
    });
    view! {
        <LessonFrame id=LessonId::Bidir notices=notices tour=move || view! { <TourButton cfg=cfg tour=&tour::TOUR stages=stages /> }>
            <div class="lx-layout">
                <BidirControls cfg=cfg result=result />
                <div class="lx-main">
                    <question::BidirQuestions cfg=cfg />
                    <Panel title=|l| BidirText::of(l).diagram>
                        <StepControls
                            lesson="bidir"
                            t=k_now
                            set_t=Callback::new(move |v: usize| cfg.update(|c| c.set_step(v)))
                            max=Signal::derive(move || n.get())
                            caption=step_caption
                            stages=stages
                        />
                        {move || result.get().err().map(|e| view! { <p class="notice notice-error">{e}</p> })}
                        <div class="lx-scroll" data-scroller tabindex="0">{move || result.get().ok().map(|r| diagram(&r, k_now.get(), stages, lang.get()))}</div>
                        <crate::widgets::export::FigureExport name=Signal::derive(move || format!("unroll-bidir-k{}", k_now.get())) />
                        <Para text=|l| BidirText::of(l).diagram_note class="lx-note" />
                    </Panel>
                    <Panel title=|l| BidirText::of(l).output>
                        {move || result.get().ok().map(|r| output_panel(&r, lang.get()))}
                        // The note says which half of the last position read the whole sentence.
                        <Veiled on=veiled(question::QUESTION.key) block=true>
                            <BidirLastNote config=Signal::derive(move || cfg.get()) />
                        </Veiled>
                    </Panel>
                    <BidirWeights result=result />
                    <TorchLines code=Signal::derive(move || result.get().ok().map(|b| torch_lines::bidir(&b)).unwrap_or_default()) />
                </div>
            </div>
        </LessonFrame>
    }
}

/// The tokens, the seed and the tokens' embeddings.
#[component]
fn BidirControls(cfg: RwSignal<BidirConfig>, result: Memo<Result<Bidir, String>>) -> impl IntoView {
    let lang = use_lang();
    let field = |key: &str| fields::spec(BIDIR_FIELDS, key);
    view! {
        <Panel title=|l| BidirText::of(l).controls class="lx-controls">
            <div class="lx-field">
                <label for="bidir-tokens"><span>{t(|l| BidirText::of(l).tokens)}</span></label>
                <input
                    id="bidir-tokens"
                    data-testid="bidir-tokens"
                    type="text"
                    maxlength="400"
                    prop:value=move || cfg.with(|c| c.tokens.join(", "))
                    on:change=move |ev| {
                        let tokens = parse_tokens(&event_target_value(&ev));
                        if !tokens.is_empty() {
                            cfg.update(|c| c.tokens = tokens);
                        }
                    }
                />
                // On paper a field cuts a long sentence: the tokens as wrapping text instead.
                <p class="lx-print-value" aria-hidden="true">{move || cfg.with(|c| c.tokens.join(", "))}</p>
            </div>
            <Para text=|l| BidirText::of(l).tokens_note class="lx-note" />
            <SeedInput testid="bidir-seed" spec=field("seed") value=Signal::derive(move || cfg.with(|c| c.seed)) on_set=Callback::new(move |s| cfg.update(|c| c.seed = s)) />
            {move || result.get().ok().map(|r| embeddings(&r, lang.get()))}
        </Panel>
    }
}

/// Every parameter of both directions as a heatmap.
#[component]
fn BidirWeights(result: Memo<Result<Bidir, String>>) -> impl IntoView {
    view! {
        <Panel title=|l| BidirText::of(l).weights>
            <div class="lx-heatmaps">
                {move || {
                    result
                        .get()
                        .ok()
                        .map(|r| {
                            r.params
                                .into_iter()
                                .map(|p| {
                                    let cols = if p.shape.len() == 2 { p.shape[1] } else { 1 };
                                    let caption = format!("{} [{}]", p.name, p.shape.iter().map(usize::to_string).collect::<Vec<_>>().join(", "));
                                    let testid = format!("bidir-{}", p.name);
                                    let values = p.values;
                                    view! {
                                        <Heatmap
                                            testid=testid
                                            caption=Signal::derive(move || caption.clone())
                                            values=Signal::derive(move || values.clone())
                                            cols=Signal::derive(move || cols)
                                        />
                                    }
                                })
                                .collect_view()
                        })
                }}
            </div>
            <Para text=|l| BidirText::of(l).weights_note class="lx-note" />
        </Panel>
    }
}

fn embeddings(r: &Bidir, lang: Lang) -> AnyView {
    let rows = r
        .vocabulary
        .iter()
        .map(|(token, e)| {
            view! {
                <tr>
                    <td class="lx-token">{token.clone()}</td>
                    <td class="lx-num">{fmt::fixed(e[0], 3)}</td>
                    <td class="lx-num">{fmt::fixed(e[1], 3)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <h3 class="lx-sub">{BidirText::of(lang).embeddings}</h3>
        <table class="lx-table" data-testid="bidir-embeddings">
            <thead>
                <tr>
                    <th>{BidirText::of(lang).token}</th>
                    <th>"e₁"</th>
                    <th>"e₂"</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
    .into_any()
}

/// Which parts of the diagram step `k` has drawn at a stage: the forward direction has read
/// `fwd` tokens, the backward one `bwd`, and the outputs are joined where both had been by
/// `joined` steps.
#[derive(Clone, Copy)]
struct Reached {
    n: usize,
    k: usize,
    stages: Stages,
}

impl Reached {
    /// Tokens the backward direction has read (reactive): this step's only from stage 1.
    fn bwd(self) -> usize {
        if self.stages.reached(1) {
            self.k
        } else {
            self.k - 1
        }
    }

    /// Steps whose outputs are joined (reactive): this step's only from stage 2.
    fn joined(self) -> usize {
        if self.stages.reached(2) {
            self.k
        } else {
            self.k - 1
        }
    }

    fn fwd_done(self, i: usize) -> bool {
        i < self.k
    }

    fn bwd_done(self, i: usize) -> bool {
        i + self.bwd() >= self.n
    }

    fn both(self, i: usize) -> bool {
        let j = self.joined();
        i < j && i + j >= self.n
    }
}

/// Tokens along x; the forward row runs left to right, the backward row right to left; after
/// `k` steps each direction has read k tokens. Each column ends in its 2H concatenation. Step
/// `k` is drawn in [`STAGES`]: the forward direction's new state, the backward one's, the
/// concatenations they complete.
fn diagram(r: &Bidir, k: usize, stages: Stages, lang: Lang) -> impl IntoView {
    let n = r.tokens.len();
    let dx = 162.0;
    let left = 110.0;
    let width = left + dx * n as f64 + 20.0;
    let at = Reached {
        n,
        k: k.max(1),
        stages,
    };
    let mut items = Vec::new();
    for (i, token) in r.tokens.iter().enumerate() {
        let cx = left + dx * i as f64 + dx / 2.0;
        items.push(column(r, i, token, cx, at));
        if i + 1 < n {
            let x1 = cx + 68.0;
            let x2 = cx + dx - 68.0;
            items.push(
                view! {
                    <line x1=x1 x2=x2 - 2.0 y1=Y_FWD - 4.0 y2=Y_FWD - 4.0 class="lx-edge lx-edge-fwd lx-stage-part" class:lx-pending=move || !at.fwd_done(i + 1) marker-end="url(#lx-arrow-fwd)"></line>
                    <line x1=x2 x2=x1 + 2.0 y1=Y_BWD - 4.0 y2=Y_BWD - 4.0 class="lx-edge lx-edge-bwd lx-stage-part" class:lx-pending=move || !at.bwd_done(i) marker-end="url(#lx-arrow-bwd)"></line>
                }
                .into_any(),
            );
        }
    }
    view! {
        <svg
            class="lx-diagram"
            viewBox=format!("0 0 {width} 320")
            style=crate::lessons::chain::diagram_style(width, 0.72)
            role="img"
            aria-label=BidirText::of(lang).diagram
            data-testid="bidir-diagram"
            data-value=k.to_string()
            data-stage=move || stages.name()
        >
            <defs>
                {crate::lessons::chain::arrowhead("lx-arrow-fwd", "lx-arrowhead-fwd")}
                {crate::lessons::chain::arrowhead("lx-arrow-bwd", "lx-arrowhead-bwd")}
            </defs>
            <text x="8" y=Y_OUT + 4.0 class="lx-svg-label">"output (2H)"</text>
            <text x="8" y=Y_FWD + 4.0 class="lx-svg-label lx-c-fwd-svg">{format!("{} →", BidirText::of(lang).forward)}</text>
            <text x="8" y=Y_BWD + 4.0 class="lx-svg-label lx-c-bwd-svg">{format!("← {}", BidirText::of(lang).backward)}</text>
            <text x="8" y=Y_TOK + 4.0 class="lx-svg-label">{BidirText::of(lang).token}</text>
            <text x="8" y=Y_POS class="lx-svg-label">{BidirText::of(lang).position}</text>
            {items}
        </svg>
    }
}

/// The diagram's rows: the outputs, the two directions, the tokens, the positions.
const Y_OUT: f64 = 46.0;
const Y_FWD: f64 = 130.0;
const Y_BWD: f64 = 198.0;
const Y_TOK: f64 = 268.0;
const Y_POS: f64 = 306.0;

/// Column `i` of the diagram: the token, its embedding and position, the two directions'
/// states and their concatenation, each faint until reached.
fn column(r: &Bidir, i: usize, token: &str, cx: f64, at: Reached) -> AnyView {
    let f = r.forward[i];
    let b = r.backward[i];
    view! {
        <g class="lx-bidir-col" data-testid=format!("bidir-col-{i}")>
            <text x=cx y=Y_TOK text-anchor="middle" class="lx-svg-token">{token.to_owned()}</text>
            <text x=cx y=Y_TOK + 18.0 text-anchor="middle" class="lx-svg-caption">{vec_text(&r.inputs[i])}</text>
            <text x=cx y=Y_POS text-anchor="middle" class="lx-svg-caption" data-testid="bidir-position" data-value=i.to_string()>{format!("t = {i}")}</text>
            <g class="lx-stage-part" class:lx-pending=move || !at.fwd_done(i)>
                <rect x=cx - 68.0 y=Y_FWD - 20.0 width="136" height="32" rx="8" class="lx-fwd-box"></rect>
                <text x=cx y=Y_FWD + 1.0 text-anchor="middle" class="lx-svg-value">{vec_text(&f)}</text>
            </g>
            <g class="lx-stage-part" class:lx-pending=move || !at.bwd_done(i)>
                <rect x=cx - 68.0 y=Y_BWD - 20.0 width="136" height="32" rx="8" class="lx-bwd-box"></rect>
                <text x=cx y=Y_BWD + 1.0 text-anchor="middle" class="lx-svg-value">{vec_text(&b)}</text>
            </g>
            <g class="lx-stage-part" class:lx-pending=move || !at.both(i)>
                <rect x=cx - 70.0 y=Y_OUT - 30.0 width="140" height="48" rx="8" class="lx-out-box"></rect>
                <text x=cx y=Y_OUT - 10.0 text-anchor="middle" class="lx-svg-value lx-c-fwd-svg">{vec_text(&f)}</text>
                <text x=cx y=Y_OUT + 10.0 text-anchor="middle" class="lx-svg-value lx-c-bwd-svg">{vec_text(&b)}</text>
                <line x1=cx x2=cx y1=Y_FWD - 22.0 y2=Y_OUT + 20.0 class="lx-edge" stroke-dasharray="3 3"></line>
            </g>
            <line x1=cx x2=cx y1=Y_TOK - 16.0 y2=Y_BWD + 14.0 class="lx-edge lx-edge-input" stroke-dasharray="3 3"></line>
        </g>
    }
    .into_any()
}

fn output_panel(r: &Bidir, lang: Lang) -> AnyView {
    let n = r.tokens.len();
    let rows = r
        .output
        .iter()
        .enumerate()
        .map(|(i, o)| {
            view! {
                <tr class:lx-active={i + 1 == n}>
                    <td>{i}</td>
                    <td class="lx-token">{r.tokens[i].clone()}</td>
                    <td class="lx-c-fwd"><span class="lx-num">{vec_text(&o[..HIDDEN])}</span></td>
                    <td class="lx-c-bwd"><span class="lx-num">{vec_text(&o[HIDDEN..])}</span></td>
                    <td><span class="lx-num" data-testid=format!("bidir-output-{}", i + 1) data-value=vec_raw(o)>{vec_text(o)}</span></td>
                </tr>
            }
        })
        .collect_view();
    let last = r.output.last().copied().unwrap_or([f32::NAN; 4]);
    // h_n beside the last output matches one of its halves: lesson 6's question.
    let hide = veiled(question::QUESTION.key);
    let [(fwd_raw, fwd_text), (bwd_raw, bwd_text)] =
        [0, 1].map(|k| (vec_raw(&r.h_n[k]), vec_text(&r.h_n[k])));
    view! {
        <div class="lx-scroll" data-scroller tabindex="0">
            <table class="lx-table">
                <thead>
                    <tr>
                        <th>"t"</th>
                        <th>{BidirText::of(lang).token}</th>
                        <th class="lx-c-fwd">"output[0, t, :H]"</th>
                        <th class="lx-c-bwd">"output[0, t, H:]"</th>
                        <th>"output[0, t, :]"</th>
                    </tr>
                </thead>
                <tbody>{rows}</tbody>
            </table>
        </div>
        <dl class="lx-kv">
            <div>
                <dt class="lx-c-fwd">{BidirText::of(lang).hn_fwd}</dt>
                <dd><Veiled on=hide><span class="lx-num" data-testid="bidir-h_n-1" data-value=fwd_raw>{fwd_text}</span></Veiled></dd>
            </div>
            <div>
                <dt class="lx-c-bwd">{BidirText::of(lang).hn_bwd}</dt>
                <dd><Veiled on=hide><span class="lx-num" data-testid="bidir-h_n-2" data-value=bwd_raw>{bwd_text}</span></Veiled></dd>
            </div>
            <div>
                <dt>"output[:, -1, :]"</dt>
                <dd><span class="lx-num" data-testid="bidir-last-output" data-value=vec_raw(&last)>{vec_text(&last)}</span></dd>
            </div>
        </dl>
    }
    .into_any()
}
