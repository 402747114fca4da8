//! The "compared with the handout" notes: one short paragraph per place where a lesson's
//! figure or claim differs from the course's printed handout. The figures come from
//! [`unroll_core::lessons::handout`]; each is a `<span>` with `data-testid="handout-<note>-<figure>"`
//! and its raw number in `data-value`, the paragraph is `data-testid="handout-<note>"`.

pub mod text;

use super::fmt;
use crate::kit::text::Text;
use crate::shell::i18n::{use_lang, Lang};
use leptos::prelude::*;
use text::HandoutText;
use unroll_core::config::lessons::BidirConfig;
use unroll_core::lessons::handout;

/// One `{n}` of a note's text: the figure's test id suffix, its raw value and its text.
struct Slot {
    key: &'static str,
    raw: String,
    text: String,
}

fn count(key: &'static str, v: f64) -> Slot {
    Slot {
        key,
        raw: fmt::raw64(v),
        text: fmt::count(v as u64),
    }
}

fn fixed(key: &'static str, v: f64, digits: usize) -> Slot {
    Slot {
        key,
        raw: fmt::raw64(v),
        text: fmt::fixed64(v, digits),
    }
}

/// A vector of the bidirectional lesson, as the page shows it (`[a, b]`, 3 decimals).
fn vector(key: &'static str, v: &[f32]) -> Slot {
    Slot {
        key,
        raw: v.iter().map(|x| fmt::raw(*x)).collect::<Vec<_>>().join(","),
        text: format!(
            "[{}]",
            v.iter()
                .map(|x| fmt::fixed(*x, 3))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// `text` in `lang` with each `{n}` replaced by a span of `slots[n]`; the first span of a slot
/// carries its hook (a slot may be quoted twice).
fn render(note: &'static str, text: Text, lang: Lang, slots: &[Slot]) -> AnyView {
    let mut parts: Vec<AnyView> = Vec::new();
    let mut hooked = vec![false; slots.len()];
    let mut rest = text(lang);
    while let Some(open) = rest.find('{') {
        let Some(close) = rest[open..].find('}').map(|c| open + c) else {
            break;
        };
        let Ok(n) = rest[open + 1..close].parse::<usize>() else {
            break;
        };
        parts.push(rest[..open].to_owned().into_any());
        if let Some(s) = slots.get(n) {
            let first = !std::mem::replace(&mut hooked[n], true);
            parts.push(
                view! {
                    <span
                        class="lx-num"
                        data-testid=first.then(|| format!("handout-{note}-{}", s.key))
                        data-value=first.then(|| s.raw.clone())
                    >
                        {s.text.clone()}
                    </span>
                }
                .into_any(),
            );
        }
        rest = &rest[close + 1..];
    }
    parts.push(rest.to_owned().into_any());
    view! {
        <p class="lx-text lx-handout" role="note" data-testid=format!("handout-{note}")>
            <strong>{HandoutText::of(lang).heading}</strong>
            // A full-width colon ends the Chinese heading; English needs the space.
            {(lang == Lang::En).then_some(" ")}
            {parts}
        </p>
    }
    .into_any()
}

/// Which note.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// Lesson 2: `nn.RNN(10, 8)` counts (`handout-rnn10`).
    RnnTenEight,
    /// Lesson 2: per-layer counts at input 57, hidden 128 (`handout-per-layer`).
    PerLayer,
    /// Lesson 1: x₁'s share of z₂ (`handout-share`).
    UnrollShare,
    /// Lesson 4: h₂ (`handout-h2`).
    LstmH2,
}

/// A "compared with the handout" note, in the page's language.
#[component]
pub fn HandoutNote(
    /// Which note.
    note: Note,
) -> impl IntoView {
    let lang = use_lang();
    move || {
        let l = lang.get();
        match note {
            Note::RnnTenEight => render(
                "rnn10",
                |l| HandoutText::of(l).rnn_ten_eight,
                l,
                &rnn_ten_eight_slots(),
            ),
            Note::PerLayer => render(
                "per-layer",
                |l| HandoutText::of(l).per_layer,
                l,
                &per_layer_slots(),
            ),
            Note::UnrollShare => render(
                "share",
                |l| HandoutText::of(l).unroll_share,
                l,
                &unroll_share_slots(),
            ),
            Note::LstmH2 => render("h2", |l| HandoutText::of(l).lstm_h2, l, &lstm_h2_slots()),
        }
    }
}

/// Lesson 2: `nn.RNN(10, 8)` counts.
fn rnn_ten_eight_slots() -> Vec<Slot> {
    let n = handout::rnn_ten_eight();
    vec![
        count("one-layer-printed", n.one_layer.printed),
        count("two-layers-printed", n.two_layers.printed),
        count("two-layers-bi-printed", n.two_layers_bi.printed),
        count("one-layer-app", n.one_layer.app),
        count("two-layers-app", n.two_layers.app),
        count("two-layers-bi-app", n.two_layers_bi.app),
        count("one-bias", n.one_bias as f64),
        count("hidden", n.hidden_size as f64),
        count("input", n.input_size as f64),
        count("second-layer", n.second_layer as f64),
        count("second-input-bi", n.second_input_bi as f64),
        count("first-layer-bi", n.first_layer_bi as f64),
        count("second-layer-bi", n.second_layer_bi as f64),
    ]
}

/// Lesson 2: per-layer counts at input 57, hidden 128.
fn per_layer_slots() -> Vec<Slot> {
    let n = handout::per_layer();
    vec![
        count("input", n.input_size as f64),
        count("hidden", n.hidden_size as f64),
        count("lstm-printed", n.lstm.printed),
        count("gru-printed", n.gru.printed),
        count("lstm-one-bias", n.one_bias[0] as f64),
        count("gru-one-bias", n.one_bias[1] as f64),
        count("lstm-app", n.lstm.app),
        count("gru-app", n.gru.app),
        count("rnn-printed", n.rnn.printed),
        count("rnn-one-bias", n.one_bias[2] as f64),
        count("rnn-app", n.rnn.app),
    ]
}

/// Lesson 1: x₁'s share of z₂.
fn unroll_share_slots() -> Vec<Slot> {
    let n = handout::unroll_share();
    vec![
        fixed("printed", n.share.printed, 4),
        Slot {
            key: "w_hh",
            raw: fmt::raw64(n.w_hh),
            text: fmt::short(n.w_hh),
        },
        fixed("app", n.share.app, 4),
        Slot {
            key: "handout-w_hh",
            raw: fmt::raw64(n.handout_w_hh),
            text: fmt::short(n.handout_w_hh),
        },
        fixed("app-at-handout-w_hh", n.at_handout_w_hh, 4),
    ]
}

/// Lesson 4: h₂.
fn lstm_h2_slots() -> Vec<Slot> {
    let n = handout::lstm_h2();
    vec![
        fixed("printed", n.h2.printed, 4),
        fixed("app", n.h2.app, 4),
        fixed("tanh-printed", n.tanh_c2.printed, 4),
        Slot {
            key: "c2",
            raw: fmt::raw64(n.c2),
            text: fmt::short(n.c2),
        },
        fixed("tanh-app", n.tanh_c2.app, 4),
        Slot {
            key: "o2",
            raw: fmt::raw64(n.o2),
            text: fmt::short(n.o2),
        },
        fixed("h2-from-printed-tanh", n.h2_from_printed_tanh, 5),
        fixed("app-unrounded", n.h2.app, 8),
    ]
}

/// Lesson 6's note (`handout-last`): what `output[:, -1, :]` holds for the page's sentence.
#[component]
pub fn BidirLastNote(
    /// The page's sentence and seed.
    #[prop(into)]
    config: Signal<BidirConfig>,
) -> impl IntoView {
    let lang = use_lang();
    move || {
        let n = handout::bidir_last(&config.get())?;
        Some(render(
            "last",
            |l| HandoutText::of(l).bidir_last,
            lang.get(),
            &[
                count("position", n.last as f64),
                vector("forward", &n.last_forward),
                vector("h_n-forward", &n.h_n_forward),
                vector("backward", &n.last_backward),
                Slot {
                    key: "token",
                    raw: n.last_token.clone(),
                    text: n.last_token,
                },
                vector("backward-alone", &n.backward_of_last_token_alone),
                vector("h_n-backward", &n.h_n_backward),
            ],
        ))
    }
}

/// The training lab's note (`handout-epoch1`): the handout's first-epoch accuracy next to
/// the run's figures ([`handout::names_epoch1`]); nothing before the run's first epoch.
#[component]
pub fn NamesEpoch1Note(
    /// The note's figures and the name of the largest language by lines, in the page's
    /// language; `None` before the first epoch (or for data other than the names files).
    #[prop(into)]
    figures: Signal<Option<(handout::NamesEpoch1, String)>>,
) -> impl IntoView {
    let lang = use_lang();
    move || {
        let (n, language) = figures.get()?;
        let mut slots = vec![
            fixed("printed", n.printed, 4),
            fixed("val-acc", n.val_acc, 4),
            fixed("val-baseline", n.val_baseline, 4),
            fixed("train-acc", n.train_acc.unwrap_or(f64::NAN), 4),
            count("raw-lines", n.raw_lines as f64),
            Slot {
                key: "raw-majority",
                raw: language.clone(),
                text: language,
            },
            fixed("raw-baseline", n.raw_baseline, 4),
        ];
        let text: Text = if n.train_acc.is_some() {
            |l| HandoutText::of(l).names_epoch1
        } else {
            slots[3].raw = String::new();
            |l| HandoutText::of(l).names_epoch1_restored
        };
        Some(render("epoch1", text, lang.get(), &slots))
    }
}
