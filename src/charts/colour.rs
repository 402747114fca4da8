//! The one colour convention of every heatmap (the inspector's canvas maps, the confusion
//! matrix, the lessons' weight grids):
//!
//! - **Diverging**, for signed values (weights, biases, h_t, c_t, tanh gates): white at 0,
//!   blue (`#1d4ed8`) towards `−abs_max`, orange (`#ea580c`) towards `+abs_max`, linear in
//!   `v / abs_max` and clamped there. Centred at 0 so the sign is read from the hue and the
//!   magnitude from its strength.
//! - **Sequential**, for values that cannot be negative (sigmoid gates, probabilities, shares of
//!   a row): white at `min`, deep indigo (`#312e81`) at `max`, linear and clamped. One hue that
//!   is neither end of the diverging scale, so a dark cell is never read as "negative".
//! - A value that is not finite is grey (`#94a3b8`), never a colour a number could have.
//!
//! Text written on a cell uses [`Scale::ink`]: white or dark, whichever contrasts more.

use plotters::style::RGBColor;

/// How values map to colours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scale {
    /// `min` → white, `max` → deep indigo (non-negative values).
    Sequential {
        /// Value drawn white.
        min: f32,
        /// Value drawn in full colour.
        max: f32,
    },
    /// `−abs_max` → blue, `0` → white, `+abs_max` → orange (signed values).
    Diverging {
        /// Magnitude drawn in full colour (values beyond it are clamped).
        abs_max: f32,
    },
}

/// White, the colour of 0 (diverging) or `min` (sequential).
pub const ZERO: RGBColor = RGBColor(0xff, 0xff, 0xff);
/// Full colour of the sequential scale.
pub const SEQUENTIAL_MAX: RGBColor = RGBColor(0x31, 0x2e, 0x81);
/// Full colour of negative values on the diverging scale.
pub const NEGATIVE: RGBColor = RGBColor(0x1d, 0x4e, 0xd8);
/// Full colour of positive values on the diverging scale.
pub const POSITIVE: RGBColor = RGBColor(0xea, 0x58, 0x0c);
/// Colour of a value that is not finite (NaN, ±∞).
pub const NOT_FINITE: RGBColor = RGBColor(0x94, 0xa3, 0xb8);
/// Text on a pale cell.
pub const INK_DARK: &str = "#0f172a";
/// Text on a strong cell.
pub const INK_LIGHT: &str = "#ffffff";

impl Scale {
    /// Sigmoid gates and other values in 0–1.
    pub const UNIT: Scale = Scale::Sequential { min: 0.0, max: 1.0 };

    /// Position of `v` on the scale, signed: `0..=1` for sequential, `-1..=1` for diverging
    /// (clamped); `None` when `v` is not finite.
    pub fn position(self, v: f32) -> Option<f32> {
        if !v.is_finite() {
            return None;
        }
        Some(match self {
            Scale::Sequential { min, max } => {
                ((v - min) / (max - min).max(f32::MIN_POSITIVE)).clamp(0.0, 1.0)
            }
            Scale::Diverging { abs_max } => (v / abs_max.max(f32::MIN_POSITIVE)).clamp(-1.0, 1.0),
        })
    }

    /// The colour of `v`.
    pub fn colour(self, v: f32) -> RGBColor {
        let Some(p) = self.position(v) else {
            return NOT_FINITE;
        };
        let (t, target) = match self {
            Scale::Sequential { .. } => (p, SEQUENTIAL_MAX),
            Scale::Diverging { .. } if p < 0.0 => (-p, NEGATIVE),
            Scale::Diverging { .. } => (p, POSITIVE),
        };
        let mix = |a: u8, b: u8| (a as f32 + (b as f32 - a as f32) * t).round() as u8;
        RGBColor(
            mix(ZERO.0, target.0),
            mix(ZERO.1, target.1),
            mix(ZERO.2, target.2),
        )
    }

    /// The colour of `v` as CSS (`#rrggbb`).
    pub fn css(self, v: f32) -> String {
        let RGBColor(r, g, b) = self.colour(v);
        format!("#{r:02x}{g:02x}{b:02x}")
    }

    /// The colour of text written on the cell of `v`: whichever of [`INK_LIGHT`] and
    /// [`INK_DARK`] has the higher contrast ratio with the cell's colour (WCAG 2 relative
    /// luminance), so text on strong blue or indigo is white and text on orange stays dark.
    pub fn ink(self, v: f32) -> &'static str {
        let RGBColor(r, g, b) = self.colour(v);
        let l = luminance(r, g, b);
        // #0f172a, the dark ink.
        let dark = luminance(0x0f, 0x17, 0x2a);
        if 1.05 / (l + 0.05) > (l + 0.05) / (dark + 0.05) {
            INK_LIGHT
        } else {
            INK_DARK
        }
    }

    /// The CSS gradient of a legend bar, from the low end to the high end.
    pub fn css_gradient(self) -> &'static str {
        match self {
            Scale::Sequential { .. } => "linear-gradient(90deg, #ffffff, #312e81)",
            Scale::Diverging { .. } => "linear-gradient(90deg, #1d4ed8, #ffffff, #ea580c)",
        }
    }

    /// The two ends of the legend: `(low, high)`.
    pub fn ends(self) -> (f32, f32) {
        match self {
            Scale::Sequential { min, max } => (min, max),
            Scale::Diverging { abs_max } => (-abs_max, abs_max),
        }
    }
}

/// WCAG 2 relative luminance of an sRGB colour (0 = black, 1 = white).
fn luminance(r: u8, g: u8, b: u8) -> f64 {
    let lin = |c: u8| {
        let c = c as f64 / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}
