//! Number formatting of the lesson and training pages: what people read, and the raw `data-value` that tests
//! read (never parsed from display text).

/// The raw value for `data-value`: Rust's shortest round-trip form, in exponent notation for
/// very small or very large magnitudes (`1.3718729e-15`); `NaN`, `Infinity`, `-Infinity` as
/// JavaScript's `Number()` reads them.
pub fn raw(v: f32) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if v != 0.0 && (v.abs() < 1e-4 || v.abs() >= 1e9) {
        format!("{v:e}")
    } else {
        format!("{}", v + 0.0)
    }
}

/// [`raw`] for f64 values (norms, timings).
pub fn raw64(v: f64) -> String {
    if v.is_nan() {
        "NaN".into()
    } else if v.is_infinite() {
        if v > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if v != 0.0 && (v.abs() < 1e-4 || v.abs() >= 1e9) {
        format!("{v:e}")
    } else {
        format!("{}", v + 0.0)
    }
}

/// A typographic minus for display.
fn minus(s: String) -> String {
    s.replace('-', "−")
}

/// `digits` decimals (`0.4621`, `−0.4200`); tiny or huge magnitudes switch to [`sci64`];
/// `NaN` and `±∞` are written as such.
pub fn fixed(v: f32, digits: usize) -> String {
    fixed64(f64::from(v), digits)
}

/// [`fixed`] for f64.
pub fn fixed64(v: f64, digits: usize) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    let threshold = 0.5 * 10f64.powi(-(digits as i32));
    if v != 0.0 && (v.abs() < threshold || v.abs() >= 1e6) {
        return sci64(v);
    }
    minus(format!("{:.*}", digits, v + 0.0))
}

/// Three significant digits in exponent form: `1.37e−15`.
pub fn sci64(v: f64) -> String {
    if !v.is_finite() {
        return fixed64(v, 2);
    }
    minus(format!("{v:.2e}"))
}

/// A slider value: up to 2 decimals without trailing zeros (`0.5`, `−1.25`, `3`).
pub fn short(v: f64) -> String {
    let s = format!("{:.2}", v + 0.0);
    let s = s.trim_end_matches('0').trim_end_matches('.').to_owned();
    minus(if s == "-0" { "0".into() } else { s })
}

/// A shape as PyTorch prints a size: `(4, 10, 32)`.
pub fn shape(dims: &[usize]) -> String {
    format!(
        "({})",
        dims.iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// A shape's raw value for `data-value`: `4,10,32`.
pub fn shape_raw(dims: &[usize]) -> String {
    dims.iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// An integer with thin thousands separators: `121 728` (the lessons).
pub fn count(n: u64) -> String {
    grouped(n, '\u{2009}')
}

/// An integer with comma thousands separators: `1,234,567` (the training pages; the same
/// grouping as every message, [`crate::kit::text::count`]).
pub fn count_commas(n: u64) -> String {
    crate::kit::text::count(n as usize)
}

fn grouped(n: u64, sep: char) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(sep);
        }
        out.push(c);
    }
    out
}

/// Subscript digits for labels such as `x₁`, `h₁₂`.
pub fn sub(n: usize) -> String {
    n.to_string()
        .chars()
        .map(|c| char::from_u32(0x2080 + c.to_digit(10).unwrap_or(0)).unwrap_or(c))
        .collect()
}
