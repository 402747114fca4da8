//! The index's section on the course's four input–output structures (N → 1, N → N, 1 → N,
//! N → M): for each, where Unroll trains it, a small unrolled chain drawn with lesson 1's parts
//! ([`crate::lessons::chain`]) that marks which steps read an input and which write an output,
//! and a link to the lab with that task.

use super::text::{IndexText, StructuresText};
use crate::kit::nav::NavLink;
use crate::lessons::chain;
use crate::shell::i18n::use_lang;
use leptos::prelude::*;
use unroll_core::config::Lang;

/// One structure: its texts, the example chain and the lab that trains it.
struct Structure {
    /// `data-testid` suffix: `structure-{key}`, `structure-link-{key}`.
    key: &'static str,
    /// Title, text and link label.
    text: fn(&StructuresText) -> [&'static str; 3],
    /// The example: the initial state's label, then each step's input and output ("" for none).
    chain: fn(&StructuresText) -> Chain,
    /// The lab's query, without the language.
    query: &'static str,
}

/// An example chain: what enters as h₀, and each step's input and output labels ("": none).
struct Chain {
    h0: &'static str,
    inputs: Vec<&'static str>,
    outputs: Vec<&'static str>,
    /// Inputs that are the model's own previous outputs, read back (drawn dashed).
    fed_back: bool,
}

/// The four structures in the course's order of the section.
const STRUCTURES: [Structure; 4] = [
    Structure {
        key: "n-1",
        text: |t| t.many_to_one,
        chain: |t| Chain {
            h0: "0",
            inputs: vec!["S", "a", "t", "o"],
            outputs: vec!["", "", "", t.japanese],
            fed_back: false,
        },
        query: "v=1&lesson=names",
    },
    Structure {
        key: "n-n",
        text: |t| t.many_to_many,
        // The delay task's own example (delay 2): positions 2, 3, 4 are supervised.
        chain: |_| Chain {
            h0: "0",
            inputs: vec!["3", "8", "2", "5", "1"],
            outputs: vec!["·", "·", "3", "8", "2"],
            fed_back: false,
        },
        query: "v=1&lesson=delay",
    },
    Structure {
        key: "1-n",
        text: |t| t.one_to_many,
        chain: |t| Chain {
            h0: t.italian,
            inputs: vec![t.start, "R", "o", "s", "a"],
            outputs: vec!["R", "o", "s", "a", t.end],
            fed_back: true,
        },
        query: "v=1&lesson=generate",
    },
    Structure {
        key: "n-m",
        text: |t| t.read_then_write,
        // The copy task's layout, shortened: symbols, the delimiter, then the recall while
        // blanks come in.
        chain: |_| Chain {
            h0: "0",
            inputs: vec!["3", "8", "▶", "·", "·"],
            outputs: vec!["", "", "", "3", "8"],
            fed_back: false,
        },
        query: "v=1&lesson=delay&task=copy",
    },
];

/// The section: the four structures and the note on encoder–decoders.
#[component]
pub fn Structures(
    /// A lab's query with the page's language (and `quiz=0` while the page shown has it).
    lab_query: fn(&str, Option<Lang>, bool) -> String,
) -> impl IntoView {
    let lang = use_lang();
    let st = move || &IndexText::of(lang.get()).structures;
    let cards = STRUCTURES
        .iter()
        .map(|s| {
            let query = Signal::derive(move || {
                lab_query(s.query, lang.url_lang(), crate::kit::nav::quiz_shown())
            });
            view! {
                <li class="lx-structure" data-testid=format!("structure-{}", s.key)>
                    <h3>{move || (s.text)(st())[0]}</h3>
                    <div class="lx-scroll" data-scroller tabindex="0">
                        {move || diagram(&(s.chain)(st()), (s.text)(st())[0])}
                    </div>
                    <p class="lx-text">{move || (s.text)(st())[1]}</p>
                    <NavLink query=query class="btn" testid=format!("structure-link-{}", s.key)>
                        {move || (s.text)(st())[2]}
                    </NavLink>
                </li>
            }
        })
        .collect_view();
    view! {
        <section class="panel lx-structures" data-testid="structures">
            <h2>{move || st().title}</h2>
            <p class="lx-text">{move || st().lede}</p>
            // The arrowheads, once for the four chains.
            <svg class="lx-defs" width="0" height="0" aria-hidden="true">{chain::arrow_defs()}</svg>
            <ol class="lx-structure-list">{cards}</ol>
            <p class="lx-text lx-seq2seq" data-testid="structures-seq2seq">{move || st().seq2seq}</p>
        </section>
    }
}

/// The example chain: h₀ on the left, one copy of the cell per step (its state `h_t` inside),
/// an input edge where the step reads and an output edge where it writes. It scales to its card
/// (its labels are drawn larger for that), so a phone shows every step.
fn diagram(c: &Chain, title: &'static str) -> impl IntoView {
    const DX: f64 = 96.0;
    const CY: f64 = 116.0;
    const H0_X: f64 = 40.0;
    const FIRST: f64 = 150.0;
    let n = c.inputs.len();
    let width = FIRST + DX * (n.max(1) - 1) as f64 + chain::HALF_WIDTH + 12.0;
    let steps = (0..n)
        .map(|k| {
            let cx = FIRST + DX * k as f64;
            let from = if k == 0 { H0_X + 40.0 } else { cx - DX + chain::HALF_WIDTH + 2.0 };
            let (input, output) = (c.inputs[k], c.outputs[k]);
            let state = format!("h{}", crate::kit::fmt::sub(k + 1));
            let fed = c.fed_back && k > 0;
            view! {
                <g class="lx-svg-step lx-done">
                    {chain::recurrent_edge(from, cx, CY)}
                    {chain::cell_box(cx, CY, "")}
                    <text x=cx y=CY + 5.0 text-anchor="middle" class="lx-svg-op">{state}</text>
                    {(!input.is_empty()).then(|| view! {
                        <g class:lx-fed=fed>{chain::input_edge(cx, CY)}</g>
                        <text x=cx y=CY + chain::INPUT_LABEL text-anchor="middle" class="lx-svg-label">{input}</text>
                    })}
                    {(!output.is_empty()).then(|| view! {
                        {chain::output_edge(cx, CY)}
                        <text x=cx y=CY - chain::OUTPUT_LABEL text-anchor="middle" class="lx-svg-label lx-svg-out">{output}</text>
                    })}
                </g>
            }
        })
        .collect_view();
    view! {
        <svg
            class="lx-diagram lx-structure-chain"
            viewBox=format!("0 0 {width} 224")
            style=chain::diagram_style(width, 0.0)
            role="img"
            aria-label=title
        >
            <text x=H0_X y=CY - 10.0 text-anchor="middle" class="lx-svg-label">"h₀"</text>
            <text x=H0_X y=CY + 14.0 text-anchor="middle" class="lx-svg-value">{c.h0}</text>
            {steps}
        </svg>
    }
}
