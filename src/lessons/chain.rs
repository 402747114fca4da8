//! The parts of an unrolled chain, as lesson 1 draws it: the arrowheads, a copy of the cell, the
//! input edge from below, the output edge upward and the recurrent edge from the copy before.
//! Lesson 1's diagram ([`super::unroll`]) and the index's input–output structures
//! ([`super::index`]) are drawn with them; [`arrowhead`] and [`diagram_style`] serve every
//! lesson's diagrams.
//!
//! Coordinates are SVG user units. A copy of the cell is a 76 × 56 box centred on `(cx, cy)`;
//! its input edge runs from `cy + 78` up to the box, its output edge from the box up to
//! `cy - 66`; labels sit at `cy + 96` (input) and `cy - 96` (output, [`OUTPUT_LABEL`] above).

use leptos::prelude::*;

/// Half the width of a copy of the cell.
pub const HALF_WIDTH: f64 = 38.0;
/// Below `cy`, the baseline of an input's label.
pub const INPUT_LABEL: f64 = 96.0;
/// Above `cy`, the baseline of an output's label.
pub const OUTPUT_LABEL: f64 = 96.0;

/// An arrowhead marker `#id` (for `marker-end="url(#id)"`), coloured by the CSS class `class`.
pub fn arrowhead(id: &'static str, class: &'static str) -> impl IntoView {
    view! {
        <marker id=id viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
            <path d="M0,0 L10,5 L0,10 z" class=class></path>
        </marker>
    }
}

/// The chain's three arrowheads (`#lx-arrow`, `#lx-arrow-in`, `#lx-arrow-rec`): once per page
/// that draws chains.
pub fn arrow_defs() -> impl IntoView {
    view! {
        <defs>
            {arrowhead("lx-arrow", "lx-arrowhead")}
            {arrowhead("lx-arrow-in", "lx-arrowhead-in")}
            {arrowhead("lx-arrow-rec", "lx-arrowhead-rec")}
        </defs>
    }
}

/// The `style` of a `.lx-diagram` `width` units wide: at most `width` px, and on a wide screen
/// at least `min_share` of it (the diagram scrolls inside its card rather than shrink its
/// labels); on a phone it scales to the card (the stylesheet reads `--lx-w`).
pub fn diagram_style(width: f64, min_share: f64) -> String {
    format!(
        "max-width:{}px; --lx-min-w:{}px; --lx-w:{}",
        width as i64,
        (width * min_share) as i64,
        width as i64
    )
}

/// A copy of the cell centred on `(cx, cy)`, `op` written inside ("tanh").
pub fn cell_box(cx: f64, cy: f64, op: &'static str) -> impl IntoView {
    view! {
        <rect x=cx - HALF_WIDTH y=cy - 28.0 width="76" height="56" rx="10" class="lx-cell-box"></rect>
        <text x=cx y=cy + 5.0 text-anchor="middle" class="lx-svg-op">{op}</text>
    }
}

/// The input edge into the copy at `(cx, cy)`, from below.
pub fn input_edge(cx: f64, cy: f64) -> impl IntoView {
    view! { <line x1=cx x2=cx y1=cy + 78.0 y2=cy + 32.0 class="lx-edge lx-edge-input" marker-end="url(#lx-arrow-in)"></line> }
}

/// The output edge out of the copy at `(cx, cy)`, upward.
pub fn output_edge(cx: f64, cy: f64) -> impl IntoView {
    view! { <line x1=cx x2=cx y1=cy - 30.0 y2=cy - 66.0 class="lx-edge" marker-end="url(#lx-arrow)"></line> }
}

/// The recurrent edge from `from` (the copy before, or the initial state) into the copy at
/// `(cx, cy)`.
pub fn recurrent_edge(from: f64, cx: f64, cy: f64) -> impl IntoView {
    view! { <line x1=from x2=cx - HALF_WIDTH - 2.0 y1=cy y2=cy class="lx-edge lx-edge-rec" marker-end="url(#lx-arrow-rec)"></line> }
}
