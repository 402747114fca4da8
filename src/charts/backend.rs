//! The one drawing backend of every chart, chosen at run time: a `<canvas>` on the page, or an
//! SVG document written into a string (the figures' SVG and PNG downloads, and the native
//! tests). Every chart's draw function takes a [`ChartArea`], so it is compiled once and draws
//! the same marks into either target; the SVG a learner downloads is drawn by the very code
//! that draws the chart on the page.

use plotters::coord::Shift;
use plotters::prelude::{DrawingArea, DrawingAreaErrorKind, DrawingBackend, SVGBackend};
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use std::cell::RefCell;
use std::collections::HashMap;

/// Where a chart draws.
pub enum ChartBackend<'a> {
    /// A `<canvas>` of the page (device pixels), text measured on the canvas itself.
    Canvas(CanvasTarget),
    /// An SVG document appended to a string (CSS px; text as `<text>`).
    Svg(SVGBackend<'a>),
}

/// The drawing area of a chart: the whole [`ChartBackend`], its origin top left.
pub type ChartArea<'a> = DrawingArea<ChartBackend<'a>, Shift>;

/// What a chart's draw function returns: `Err` only for an error of its backend.
pub type ChartResult = Result<(), DrawingAreaErrorKind<BackendError>>;

/// An error of either backend, as its message (the canvas's errors are JavaScript values,
/// the SVG's are I/O errors).
#[derive(Debug)]
pub struct BackendError(String);

impl std::fmt::Display for BackendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BackendError {}

impl<'a> ChartBackend<'a> {
    /// An SVG of `size` (width, height in px) written into `out`.
    pub fn svg(out: &'a mut String, size: (u32, u32)) -> Self {
        ChartBackend::Svg(SVGBackend::with_string(out, size))
    }

    /// The backend of `canvas` at its current pixel size; `None` without a 2-D context.
    pub fn canvas(canvas: web_sys::HtmlCanvasElement) -> Option<Self> {
        CanvasTarget::new(canvas).map(ChartBackend::Canvas)
    }
}

/// A `<canvas>` that plotters draws into exactly as its [`CanvasBackend`] does, except that
/// text is measured with the canvas's `measureText`, remembered per font and text. (Plotters'
/// own measure adds a `<span>` to the page and reads its size, a forced layout of the whole
/// page per label.)
pub struct CanvasTarget {
    backend: CanvasBackend,
    context: web_sys::CanvasRenderingContext2d,
}

impl CanvasTarget {
    /// The target of `canvas`; `None` without a 2-D context.
    fn new(canvas: web_sys::HtmlCanvasElement) -> Option<Self> {
        use wasm_bindgen::JsCast;
        let context = canvas
            .get_context("2d")
            .ok()??
            .dyn_into::<web_sys::CanvasRenderingContext2d>()
            .ok()?;
        CanvasBackend::with_canvas_object(canvas).map(|backend| CanvasTarget { backend, context })
    }

    /// `(width, height)` of `text` in the CSS `font`, in canvas pixels: the advance width and
    /// the font's ascent plus descent (the line box a `<span>` of that font would have).
    fn measure(&self, font: &str, text: &str) -> (u32, u32) {
        let ctx = &self.context;
        ctx.save();
        ctx.set_font(font);
        let size = match ctx.measure_text(text) {
            Ok(m) => {
                let h = m.font_bounding_box_ascent() + m.font_bounding_box_descent();
                (m.width().ceil() as u32, h.ceil() as u32)
            }
            Err(_) => (0, 0),
        };
        ctx.restore();
        size
    }

    /// The size of `text` in `style`, from the cache or measured once.
    fn text_size<S: BackendTextStyle>(&self, text: &str, style: &S) -> (u32, u32) {
        let font = format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        );
        let key = (font, text.to_owned());
        if let Some(size) = TEXT_SIZES.with(|c| c.borrow().get(&key).copied()) {
            return size;
        }
        let size = self.measure(&key.0, text);
        TEXT_SIZES.with(|c| {
            let mut c = c.borrow_mut();
            if c.len() >= SIZE_CACHE_MAX {
                c.clear();
            }
            c.insert(key, size);
        });
        size
    }
}

/// Text sizes already measured, by `(font, text)`.
type SizeCache = HashMap<(String, String), (u32, u32)>;

/// Entries kept before the cache starts over (labels change as the axes grow).
const SIZE_CACHE_MAX: usize = 4096;

thread_local! {
    static TEXT_SIZES: RefCell<SizeCache> = RefCell::new(HashMap::new());
}

/// One backend's result with its error as a [`BackendError`].
fn lift<T, E: std::error::Error + Send + Sync>(
    r: Result<T, DrawingErrorKind<E>>,
) -> Result<T, DrawingErrorKind<BackendError>> {
    r.map_err(|e| match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(BackendError(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    })
}

/// Calls the same `DrawingBackend` method on whichever backend this is.
macro_rules! each {
    ($self:ident, $b:ident => $call:expr) => {
        match $self {
            ChartBackend::Canvas(CanvasTarget { backend: $b, .. }) => lift($call),
            ChartBackend::Svg($b) => lift($call),
        }
    };
}

impl DrawingBackend for ChartBackend<'_> {
    type ErrorType = BackendError;

    fn get_size(&self) -> (u32, u32) {
        match self {
            ChartBackend::Canvas(c) => c.backend.get_size(),
            ChartBackend::Svg(s) => s.get_size(),
        }
    }

    fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.ensure_prepared())
    }

    fn present(&mut self) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.present())
    }

    fn draw_pixel(
        &mut self,
        point: BackendCoord,
        color: BackendColor,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_pixel(point, color))
    }

    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_line(from, to, style))
    }

    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }

    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_path(path, style))
    }

    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_circle(center, radius, style, fill))
    }

    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.fill_polygon(vert, style))
    }

    fn draw_text<S: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: BackendCoord,
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<S: BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), DrawingErrorKind<BackendError>> {
        match self {
            ChartBackend::Canvas(c) => Ok(c.text_size(text, style)),
            ChartBackend::Svg(s) => lift(s.estimate_text_size(text, style)),
        }
    }

    fn blit_bitmap(
        &mut self,
        pos: BackendCoord,
        size: (u32, u32),
        src: &[u8],
    ) -> Result<(), DrawingErrorKind<BackendError>> {
        each!(self, b => b.blit_bitmap(pos, size, src))
    }
}
