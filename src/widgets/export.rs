//! A figure's downloads: SVG (vector, for slides and papers: text stays text, in the page's
//! colours and language) and PNG (the figure at [`PNG_SCALE`] × its CSS size), in one row with
//! the figure's CSV buttons where it has data.
//!
//! [`FigureExport`] goes right after the figure: the figure is the row's previous element (an
//! `<svg>`, or the first `<svg>` inside it) unless the row is given its own SVG source (the
//! canvas charts, which draw themselves once more into SVG). A DOM figure is copied with the
//! page's computed presentation styles (fills, strokes, fonts, opacity…) written onto each
//! element, so it looks the same outside the page, on the background it has on the page.
//! The PNG is that SVG drawn into a canvas at twice its size.
//!
//! Test hooks: the buttons are `data-testid="export-svg"` / `"export-png"`, with the file's
//! name in `data-file` (`<stem>.svg` / `<stem>.png`).

use crate::shell::i18n::use_lang;
use crate::text::ShellText;
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

/// The inline `style` attribute of `props`: `name:value;` for each non-empty value.
pub fn style_attribute<'a>(props: impl IntoIterator<Item = (&'a str, String)>) -> String {
    props
        .into_iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}:{v};"))
        .collect()
}

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
    /// More buttons for the row (CSV).
    #[prop(optional)]
    children: Option<Children>,
) -> impl IntoView {
    let lang = use_lang();
    let row = NodeRef::<leptos::html::Div>::new();
    let source = move || -> Option<FigureSvg> {
        match &svg {
            Some(own) => own(),
            None => dom_svg(&row.get_untracked()?.into()),
        }
    };
    let source = SendWrapper::new(Rc::new(source));
    let for_png = source.clone();
    let save_svg = move |_| {
        if let Some(f) = source() {
            let file = file_name(&name.get_untracked(), "svg");
            let _ = crate::names::keep::browser::download(
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
                    let _ = crate::names::keep::browser::download(&bytes, &file, "image/png");
                }
            });
        }
    };
    let t = move || ShellText::of(lang.get());
    view! {
        <div class="export-row figure-export" node_ref=row>
            <button
                type="button"
                class="btn btn-small"
                data-testid="export-svg"
                data-file=move || file_name(&name.get(), "svg")
                title=move || t().export_svg_title
                aria-label=move || (t().export_svg_label)(&file_name(&name.get(), "svg"))
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
                on:click=save_png
            >
                "PNG"
            </button>
            {children.map(|c| c())}
        </div>
    }
}

/// The figure before `row` (an `<svg>`, or the first `<svg>` inside it) as a document.
fn dom_svg(row: &web_sys::Element) -> Option<FigureSvg> {
    let before = row.previous_element_sibling()?;
    let svg = if before.local_name() == "svg" {
        before
    } else {
        before.query_selector("svg").ok()??
    };
    standalone(&svg)
}

/// `svg` as a document of its own: a deep copy with the computed presentation styles inlined,
/// its CSS size as `width`/`height`, and the page's background behind it.
pub fn standalone(svg: &web_sys::Element) -> Option<FigureSvg> {
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
        }
    }
    let _ = copy.set_attribute("width", &format!("{width}"));
    let _ = copy.set_attribute("height", &format!("{height}"));
    let view_box = svg
        .get_attribute("viewBox")
        .unwrap_or_else(|| format!("0 0 {width} {height}"));
    let _ = copy.set_attribute("viewBox", &view_box);
    let backdrop = document.create_element_ns(Some(SVG_NS), "rect").ok()?;
    let corners: Vec<&str> = view_box
        .split([' ', ','])
        .filter(|s| !s.is_empty())
        .collect();
    if let [x, y, w, h] = corners[..] {
        for (k, v) in [("x", x), ("y", y), ("width", w), ("height", h)] {
            let _ = backdrop.set_attribute(k, v);
        }
    }
    let _ = backdrop.set_attribute("fill", &background(&window, svg));
    let _ = copy.insert_before(&backdrop, copy.first_child().as_ref());
    let markup = web_sys::XmlSerializer::new()
        .ok()?
        .serialize_to_string(&copy)
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
