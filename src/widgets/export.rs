//! A figure's downloads: SVG (vector, for slides and papers: text stays text, in the page's
//! colours and language) and PNG (the figure at [`PNG_SCALE`] × its CSS size), in one row with
//! the figure's CSV buttons where it has data.
//!
//! [`FigureExport`] goes right after the figure: the figure is the row's previous element (an
//! `<svg>`, or the first `<svg>` inside it) unless the row is given its own SVG source (the
//! canvas charts, which draw themselves once more into SVG). A DOM figure is copied with the
//! page's computed presentation styles (fills, strokes, fonts, opacity…) written onto each
//! element, so it looks the same outside the page, on the background it has on the page; the
//! test hooks (`data-*`) are left out. Its legend comes with it: an HTML legend list
//! (`.lx-legend-list`) inside the figure's element or right after the row is drawn under the
//! figure as it is laid out on the page (each swatch's `<svg>`, each label as text).
//! The PNG is that SVG drawn into a canvas at twice its size.
//!
//! While a lesson's question is open, a figure that shows its answer is not offered: the page
//! says which (`held`), the buttons wait, and the row says they come once the question is
//! answered; an export is always the figure as it looks revealed. A click also refuses a figure
//! with a blurred part ([`FigureExport`]'s last check).
//!
//! Test hooks: the buttons are `data-testid="export-svg"` / `"export-png"`, with the file's
//! name in `data-file` (`<stem>.svg` / `<stem>.png`); `export-held` is the row's note while
//! the figure waits for the answer.

use crate::shell::i18n::use_lang;
use crate::shell::text::ShellText;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use std::rc::Rc;
use wasm_bindgen::{JsCast, JsValue};

/// Pixels of the PNG per CSS pixel of the figure.
pub const PNG_SCALE: f64 = 2.0;

/// The SVG namespace.
const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// The presentation properties copied from the page's computed style onto each element of an
/// exported figure (the rest is in the elements' own attributes).
const STYLE_PROPS: &[&str] = &[
    "display",
    "visibility",
    "opacity",
    "fill",
    "fill-opacity",
    "stroke",
    "stroke-width",
    "stroke-opacity",
    "stroke-dasharray",
    "stroke-linecap",
    "stroke-linejoin",
    "font-family",
    "font-size",
    "font-weight",
    "font-style",
    "font-variant-numeric",
    "letter-spacing",
    "text-anchor",
    "dominant-baseline",
    "filter",
];

/// A figure as an SVG document: its markup (with an XML declaration) and its size in CSS px.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureSvg {
    /// The document's text.
    pub markup: String,
    /// Width in CSS px.
    pub width: f64,
    /// Height in CSS px.
    pub height: f64,
}

/// A figure's own SVG source (read when a button is pressed); `None` while there is nothing
/// to export.
pub type SvgSource = SendWrapper<Rc<dyn Fn() -> Option<FigureSvg>>>;

/// `<stem>.<ext>`, the stem made safe for a file name: anything but ASCII letters, digits, `-`,
/// `_` and `.` becomes `-`.
pub fn file_name(stem: &str, ext: &str) -> String {
    let safe: String = stem
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '-'
            }
        })
        .collect();
    format!("{safe}.{ext}")
}

/// The configuration a page's chart files carry in their names (`lstm-h128`, `d8-both`,
/// `adding-t50`): a page provides it ([`provide_file_tag`]) for the charts and CSV files inside
/// it, which put it after their own name ([`tagged`]).
#[derive(Clone, Copy)]
pub struct FileTag(pub Signal<String>);

/// Gives the page's charts and CSV files their configuration tag.
pub fn provide_file_tag(tag: Signal<String>) {
    provide_context(FileTag(tag));
}

/// `stem` followed by the page's configuration tag (`unroll-delay-acc` → `unroll-delay-acc-d8-both`),
/// or `stem` alone where the page gives none (reactive).
pub fn tagged(stem: impl Into<String>) -> Signal<String> {
    let stem = stem.into();
    let tag = use_context::<FileTag>();
    Signal::derive(
        move || match tag.map(|t| t.0.get()).filter(|t| !t.is_empty()) {
            Some(t) => format!("{stem}-{t}"),
            None => stem.clone(),
        },
    )
}

/// A file name of `stem` with the page's configuration tag and `ext`
/// (`unroll-names-loss` → `unroll-names-loss-lstm-h128.csv`; reactive).
pub fn tagged_file(stem: impl Into<String>, ext: &'static str) -> Signal<String> {
    let stem = tagged(stem);
    Signal::derive(move || format!("{}.{ext}", stem.get()))
}

/// The inline `style` attribute of `props`: `name:value;` for each non-empty value.
pub fn style_attribute<'a>(props: impl IntoIterator<Item = (&'a str, String)>) -> String {
    props
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}:{v};"))
        .collect()
}

// long: one row as one view tree: the held note, both buttons with their states and messages
/// The SVG and PNG buttons of the figure just before this row (or of `svg`); `children` (CSV
/// buttons) follow them in the row.
#[component]
pub fn FigureExport(
    /// The files' name without extension, e.g. `unroll-rnn-t2`.
    #[prop(into)]
    name: Signal<String>,
    /// The figure's own SVG (canvas charts); by default the `<svg>` before the row.
    #[prop(optional)]
    svg: Option<SvgSource>,
    /// The figure shows the answer to a question still open (its blurred parts): the export
    /// waits for the answer.
    #[prop(into, optional)]
    held: Signal<bool>,
    /// More buttons for the row (CSV).
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let lang = use_lang();
    let row = NodeRef::<leptos::html::Div>::new();
    let source = move || -> Option<FigureSvg> {
        match &svg {
            Some(own) => own(),
            None => {
                let row: web_sys::Element = row.get_untracked()?.into();
                // A blurred part is an answer still hidden: never exported.
                (!shows_veiled(&row)).then(|| dom_svg(&row))?
            }
        }
    };
    let source = SendWrapper::new(Rc::new(source));
    let for_png = source.clone();
    let save_svg = move |_| {
        if let Some(f) = source() {
            let file = file_name(&name.get_untracked(), "svg");
            let _ = crate::shell::browser::download(
                f.markup.as_bytes(),
                &file,
                "image/svg+xml;charset=utf-8",
            );
        }
    };
    let save_png = move |_| {
        if let Some(f) = for_png() {
            let file = file_name(&name.get_untracked(), "png");
            leptos::task::spawn_local(async move {
                if let Ok(bytes) = png_bytes(&f).await {
                    let _ = crate::shell::browser::download(&bytes, &file, "image/png");
                }
            });
        }
    };
    let t = move || ShellText::of(lang.get());
    let held_id = format!("export-held-{}", NEXT_ROW.with(|n| n.replace(n.get() + 1)));
    let described = held_id.clone();
    view! {
        <div class="export-row figure-export" node_ref=row data-held=move || held.get().to_string()>
            <Show when=move || held.get()>
                <span class="export-held" id=held_id.clone() data-testid="export-held">{move || t().export_held}</span>
            </Show>
            <button
                type="button"
                class="btn btn-small"
                data-testid="export-svg"
                data-file=move || file_name(&name.get(), "svg")
                title=move || t().export_svg_title
                aria-label=move || (t().export_svg_label)(&file_name(&name.get(), "svg"))
                aria-describedby=move || held.get().then(|| described.clone())
                disabled=move || held.get()
                on:click=save_svg
            >
                "SVG"
            </button>
            <button
                type="button"
                class="btn btn-small"
                data-testid="export-png"
                data-file=move || file_name(&name.get(), "png")
                title=move || t().export_png_title
                aria-label=move || (t().export_png_label)(&file_name(&name.get(), "png"))
                disabled=move || held.get()
                on:click=save_png
            >
                "PNG"
            </button>
            {children.map(|c| c())}
        </div>
    }
}

thread_local! {
    /// Numbers the rows' held notes, for `aria-describedby`.
    static NEXT_ROW: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The legend list of the figure before `row`: inside the figure's element, or right after
/// the row.
fn legend_of(row: &web_sys::Element) -> Option<web_sys::Element> {
    const LEGEND: &str = ".lx-legend-list";
    let inside = row
        .previous_element_sibling()
        .and_then(|f| f.query_selector(LEGEND).ok().flatten());
    inside.or_else(|| {
        row.next_element_sibling()
            .filter(|n| n.matches(LEGEND).unwrap_or(false))
    })
}

/// Whether the figure before `row`, or its legend, has a blurred part (an answer still hidden).
fn shows_veiled(row: &web_sys::Element) -> bool {
    const VEILED: &str = ".lx-veiled";
    let within = |e: &web_sys::Element| {
        e.matches(VEILED).unwrap_or(false)
            || e.closest(VEILED).ok().flatten().is_some()
            || e.query_selector(VEILED).ok().flatten().is_some()
    };
    row.previous_element_sibling().is_some_and(|f| within(&f))
        || legend_of(row).is_some_and(|l| within(&l))
}

/// The figure before `row` (an `<svg>`, or the first `<svg>` inside it) as a document, with its
/// legend under it when it has one.
fn dom_svg(row: &web_sys::Element) -> Option<FigureSvg> {
    let before = row.previous_element_sibling()?;
    let svg = if before.local_name() == "svg" {
        before
    } else {
        before.query_selector("svg").ok()??
    };
    match legend_of(row) {
        Some(legend) => with_legend(&svg, &legend),
        None => standalone(&svg),
    }
}

/// Pixels between a figure and its legend in an export.
const LEGEND_GAP: f64 = 8.0;

/// `svg` as a document of its own: a deep copy with the computed presentation styles inlined,
/// its CSS size as `width`/`height`, and the page's background behind it.
pub fn standalone(svg: &web_sys::Element) -> Option<FigureSvg> {
    let (copy, width, height) = styled_copy(svg)?;
    serialize(&copy, width, height)
}

// long: one layout pass over the legend's entries, placing each swatch and label where the page shows them
/// `svg` and the legend list `legend` in one document: the figure, then under it each legend
/// entry's swatches (their `<svg>`s) and labels where the page lays them out.
fn with_legend(svg: &web_sys::Element, legend: &web_sys::Element) -> Option<FigureSvg> {
    let window = web_sys::window()?;
    let document = window.document()?;
    let (figure, fw, fh) = styled_copy(svg)?;
    let f = svg.get_bounding_client_rect();
    let entries = legend.query_selector_all(":scope > *").ok()?;
    let entries: Vec<web_sys::Element> = (0..entries.length())
        .filter_map(|i| entries.item(i)?.dyn_into().ok())
        .collect();
    // The legend's extent: its entries' boxes (the list itself may be as wide as its panel).
    let boxes: Vec<web_sys::DomRect> = entries
        .iter()
        .map(|e| e.get_bounding_client_rect())
        .collect();
    let extent = |pick: fn(&web_sys::DomRect) -> f64, min: bool| {
        boxes.iter().map(pick).fold(
            if min {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            },
            |a, b| {
                if min {
                    a.min(b)
                } else {
                    a.max(b)
                }
            },
        )
    };
    let (l_left, l_right) = (extent(|r| r.left(), true), extent(|r| r.right(), false));
    let (l_top, l_bottom) = (extent(|r| r.top(), true), extent(|r| r.bottom(), false));
    if boxes.is_empty() {
        return standalone(svg);
    }
    // The document's origin: the left of the figure or of the legend, the figure's top.
    let left = f.left().min(l_left);
    let width = (f.left() + fw).max(l_right) - left;
    let top = fh + LEGEND_GAP;
    let height = top + (l_bottom - l_top) + LEGEND_GAP;
    let root = document.create_element_ns(Some(SVG_NS), "svg").ok()?;
    let _ = root.set_attribute("xmlns", SVG_NS);
    let _ = root.set_attribute("viewBox", &format!("0 0 {width} {height}"));
    let backdrop = rect_element(&document, (0.0, 0.0, width, height))?;
    let _ = backdrop.set_attribute("fill", &background(&window, legend));
    let _ = root.append_child(&backdrop);
    let _ = figure.set_attribute("x", &format!("{}", f.left() - left));
    let _ = figure.set_attribute("y", "0");
    let _ = root.append_child(&figure);
    // Each entry's parts in order: a swatch where the page draws it, a label after the part
    // before it (the entries are `inline-flex` rows centred on their middle).
    for (entry, e) in entries.iter().zip(&boxes) {
        let middle = top + e.top() - l_top + e.height() / 2.0;
        let gap = window
            .get_computed_style(entry)
            .ok()
            .flatten()
            .and_then(|s| s.get_property_value("column-gap").ok())
            .and_then(|g| g.trim_end_matches("px").parse::<f64>().ok())
            .unwrap_or(6.0);
        let mut x = e.left() - left;
        let parts = entry.child_nodes();
        for k in 0..parts.length() {
            let Some(part) = parts.item(k) else {
                continue;
            };
            if let Some(el) = part.dyn_ref::<web_sys::Element>() {
                let r = el.get_bounding_client_rect();
                if el.local_name() == "svg" {
                    if let Some((swatch, w, h)) = styled_copy(el) {
                        let _ = swatch.set_attribute("x", &format!("{}", r.left() - left));
                        let _ = swatch.set_attribute("y", &format!("{}", top + r.top() - l_top));
                        let _ = swatch.set_attribute("width", &format!("{w}"));
                        let _ = swatch.set_attribute("height", &format!("{h}"));
                        let _ = root.append_child(&swatch);
                    }
                } else if let Some(text) = el.text_content().filter(|t| !t.trim().is_empty()) {
                    let label =
                        label_element(&document, &window, el, &text, r.left() - left, middle)?;
                    let _ = root.append_child(&label);
                }
                x = r.right() - left + gap;
            } else if let Some(text) = part.text_content().filter(|t| !t.trim().is_empty()) {
                let label = label_element(&document, &window, entry, text.trim(), x, middle)?;
                let _ = root.append_child(&label);
            }
        }
    }
    serialize(&root, width, height)
}

/// A `<text>` of `text` at (`x`, middle `y`) in the font and colour of `from`.
fn label_element(
    document: &web_sys::Document,
    window: &web_sys::Window,
    from: &web_sys::Element,
    text: &str,
    x: f64,
    y: f64,
) -> Option<web_sys::Element> {
    let label = document.create_element_ns(Some(SVG_NS), "text").ok()?;
    let _ = label.set_attribute("x", &format!("{x}"));
    let _ = label.set_attribute("y", &format!("{y}"));
    let _ = label.set_attribute("dominant-baseline", "central");
    if let Ok(Some(style)) = window.get_computed_style(from) {
        let get = |p: &str| style.get_property_value(p).unwrap_or_default();
        let _ = label.set_attribute(
            "style",
            &style_attribute([
                ("font-family", get("font-family")),
                ("font-size", get("font-size")),
                ("font-weight", get("font-weight")),
                ("fill", get("color")),
            ]),
        );
    }
    label.set_text_content(Some(text));
    Some(label)
}

/// An SVG `<rect>` at (x, y) of size w × h.
fn rect_element(
    document: &web_sys::Document,
    (x, y, w, h): (f64, f64, f64, f64),
) -> Option<web_sys::Element> {
    let rect = document.create_element_ns(Some(SVG_NS), "rect").ok()?;
    for (k, v) in [("x", x), ("y", y), ("width", w), ("height", h)] {
        let _ = rect.set_attribute(k, &format!("{v}"));
    }
    Some(rect)
}

/// A deep copy of `svg` with the computed presentation styles inlined and no test hooks
/// (`data-*`), its CSS size as `width`/`height`, its `viewBox`, and the page's background
/// behind it; with that size.
fn styled_copy(svg: &web_sys::Element) -> Option<(web_sys::Element, f64, f64)> {
    let window = web_sys::window()?;
    let document = window.document()?;
    let rect = svg.get_bounding_client_rect();
    let (width, height) = (rect.width(), rect.height());
    if width <= 0.0 || height <= 0.0 {
        return None;
    }
    let copy: web_sys::Element = svg.clone_node_with_deep(true).ok()?.dyn_into().ok()?;
    inline_style(&window, svg, &copy);
    let (originals, copies) = (
        svg.query_selector_all("*").ok()?,
        copy.query_selector_all("*").ok()?,
    );
    for i in 0..originals.length().min(copies.length()) {
        let pair = originals.item(i).zip(copies.item(i));
        if let Some((a, b)) = pair.and_then(|(a, b)| Some((a.dyn_into().ok()?, b.dyn_into().ok()?)))
        {
            inline_style(&window, &a, &b);
            drop_hooks(&b);
        }
    }
    drop_hooks(&copy);
    let _ = copy.set_attribute("width", &format!("{width}"));
    let _ = copy.set_attribute("height", &format!("{height}"));
    let view_box = svg
        .get_attribute("viewBox")
        .unwrap_or_else(|| format!("0 0 {width} {height}"));
    let _ = copy.set_attribute("viewBox", &view_box);
    let corners: Vec<f64> = view_box
        .split([' ', ','])
        .filter_map(|s| s.parse().ok())
        .collect();
    if let [x, y, w, h] = corners[..] {
        let backdrop = rect_element(&document, (x, y, w, h))?;
        let _ = backdrop.set_attribute("fill", &background(&window, svg));
        let _ = copy.insert_before(&backdrop, copy.first_child().as_ref());
    }
    Some((copy, width, height))
}

/// Removes `el`'s `data-*` attributes (the page's test hooks, not part of the figure).
fn drop_hooks(el: &web_sys::Element) {
    let names = el.get_attribute_names();
    for i in 0..names.length() {
        if let Some(name) = names.get(i).as_string() {
            if name.starts_with("data-") {
                let _ = el.remove_attribute(&name);
            }
        }
    }
}

/// `root` as an SVG document of `width` × `height` CSS px.
fn serialize(root: &web_sys::Element, width: f64, height: f64) -> Option<FigureSvg> {
    let _ = root.set_attribute("width", &format!("{width}"));
    let _ = root.set_attribute("height", &format!("{height}"));
    let markup = web_sys::XmlSerializer::new()
        .ok()?
        .serialize_to_string(root)
        .ok()?;
    Some(FigureSvg {
        markup: format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{markup}"),
        width,
        height,
    })
}

/// Writes `from`'s computed [`STYLE_PROPS`] as `to`'s `style` attribute.
fn inline_style(window: &web_sys::Window, from: &web_sys::Element, to: &web_sys::Element) {
    let Ok(Some(style)) = window.get_computed_style(from) else {
        return;
    };
    let text = style_attribute(
        STYLE_PROPS
            .iter()
            .map(|&p| (p, style.get_property_value(p).unwrap_or_default())),
    );
    let _ = to.set_attribute("style", &text);
}

/// The first opaque background colour from `el` up (white when none is).
fn background(window: &web_sys::Window, el: &web_sys::Element) -> String {
    let mut at = Some(el.clone());
    while let Some(e) = at {
        if let Ok(Some(style)) = window.get_computed_style(&e) {
            let c = style
                .get_property_value("background-color")
                .unwrap_or_default();
            if !c.is_empty() && c != "transparent" && !c.starts_with("rgba(0, 0, 0, 0)") {
                return c;
            }
        }
        at = e.parent_element();
    }
    "#ffffff".to_owned()
}

/// The PNG file of `figure`: its SVG drawn at [`PNG_SCALE`] × its size.
pub async fn png_bytes(figure: &FigureSvg) -> Result<Vec<u8>, JsValue> {
    use js_sys::{Array, Promise};
    use wasm_bindgen_futures::JsFuture;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let parts = Array::of1(&JsValue::from_str(&figure.markup));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/svg+xml;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let image = web_sys::HtmlImageElement::new()?;
    let loaded = Promise::new(&mut |resolve, reject| {
        image.set_onload(Some(&resolve));
        image.set_onerror(Some(&reject));
    });
    image.set_src(&url);
    let shown = JsFuture::from(loaded).await;
    let _ = web_sys::Url::revoke_object_url(&url);
    shown?;
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas")?.dyn_into()?;
    let (w, h) = (
        (figure.width * PNG_SCALE).round(),
        (figure.height * PNG_SCALE).round(),
    );
    canvas.set_width(w as u32);
    canvas.set_height(h as u32);
    let context: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")?
        .ok_or("no 2d context")?
        .dyn_into()?;
    context.draw_image_with_html_image_element_and_dw_and_dh(&image, 0.0, 0.0, w, h)?;
    let made = Promise::new(&mut |resolve, _| {
        let _ = canvas.to_blob(&resolve);
    });
    let png: web_sys::Blob = JsFuture::from(made).await?.dyn_into()?;
    let buffer = JsFuture::from(png.array_buffer()).await?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_keep_only_safe_characters() {
        assert_eq!(file_name("unroll-lstm-t2", "svg"), "unroll-lstm-t2.svg");
        assert_eq!(
            file_name("unroll-bidir-the cat/2", "png"),
            "unroll-bidir-the-cat-2.png"
        );
    }

    #[test]
    fn style_attribute_skips_empty_values() {
        let s = style_attribute([
            ("fill", "rgb(29, 78, 216)".to_owned()),
            ("filter", String::new()),
            ("font-size", "13px".to_owned()),
        ]);
        assert_eq!(s, "fill:rgb(29, 78, 216);font-size:13px;");
    }
}
