//! What a heatmap shows, apart from the page: its data ([`HeatmapData`]), the state of each
//! cell ([`CellState`]) and the SVG markup of its cells ([`cells_markup`]). The component in
//! `heatmap.rs` builds the cells from this markup in one go and then rewrites only the cells
//! whose state changed; this part compiles natively, so its tests run with `cargo test`.

pub use crate::charts::colour::Scale;
use std::fmt::Write;

/// How numbers are printed inside the cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellText {
    /// No text (large maps).
    None,
    /// Integers; zero cells stay empty (confusion counts).
    NonZeroInteger,
    /// Fixed number of decimals.
    Fixed(u8),
}

/// Everything a heatmap draws. `values` and `shade` are row-major `[rows, cols]`.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatmapData {
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
    /// Raw value of each cell (goes to `data-value`), `[rows, cols]` row-major.
    pub values: Vec<f64>,
    /// Colour position of each cell (`[rows, cols]`); `None` = shade by `values`.
    pub shade: Option<Vec<f32>>,
    /// Colour mapping of the shades.
    pub scale: Scale,
    /// One label per row (drawn left of the row).
    pub row_labels: Vec<String>,
    /// One label per column (drawn above the column, slanted).
    pub col_labels: Vec<String>,
    /// Title of the row axis (e.g. "true language"), drawn vertically at the left.
    pub row_title: String,
    /// Title of the column axis (e.g. "predicted language"), drawn above the labels.
    pub col_title: String,
    /// Text inside cells.
    pub text: CellText,
    /// Tooltip of each cell (`[rows, cols]`); empty = none.
    pub titles: Vec<String>,
    /// Cells whose outline is emphasised (e.g. the diagonal of a confusion matrix).
    pub outline_diagonal: bool,
}

impl Default for HeatmapData {
    /// An empty map (no rows, no columns).
    fn default() -> Self {
        HeatmapData {
            rows: 0,
            cols: 0,
            values: Vec::new(),
            shade: None,
            scale: Scale::UNIT,
            row_labels: Vec::new(),
            col_labels: Vec::new(),
            row_title: String::new(),
            col_title: String::new(),
            text: CellText::None,
            titles: Vec::new(),
            outline_diagonal: false,
        }
    }
}

impl HeatmapData {
    /// Sum of all values (the `data-total` attribute).
    pub fn total(&self) -> f64 {
        self.values.iter().sum()
    }
}

/// The number printed in a cell of value `v`, if any.
pub fn cell_text(text: CellText, v: f64) -> Option<String> {
    match text {
        CellText::None => None,
        CellText::NonZeroInteger => (v != 0.0).then(|| format!("{}", v.round() as i64)),
        CellText::Fixed(d) => Some(format!("{:.*}", d as usize, v)),
    }
}

/// What one cell shows: its raw value (`data-value`), its colour position and its tooltip.
#[derive(Clone, Debug, PartialEq)]
pub struct CellState {
    /// Raw value.
    pub value: f64,
    /// Colour position on the map's [`Scale`].
    pub shade: f32,
    /// Tooltip, if the map has tooltips.
    pub title: Option<String>,
}

/// The state of every cell of `d`, `[rows, cols]` row-major.
pub fn cell_states(d: &HeatmapData) -> Vec<CellState> {
    (0..d.rows * d.cols)
        .map(|i| {
            let v = d.values.get(i).copied().unwrap_or(0.0);
            let shade = match &d.shade {
                Some(s) => s.get(i).copied().unwrap_or(0.0),
                None => v as f32,
            };
            CellState {
                value: v,
                shade,
                title: (!d.titles.is_empty()).then(|| d.titles.get(i).cloned().unwrap_or_default()),
            }
        })
        .collect()
}

/// Where the cells are, in SVG units: the grid's top-left corner, its columns, the side of a
/// cell, the numbers' font size and what the numbers are.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Left edge of the first column.
    pub x0: f64,
    /// Top edge of the first row.
    pub y0: f64,
    /// Number of columns.
    pub cols: usize,
    /// Side of one cell.
    pub cell: f64,
    /// Font size of the numbers.
    pub font: f64,
    /// What the numbers are.
    pub text: CellText,
}

impl Grid {
    /// The top-left corner of cell `i`.
    pub fn corner(&self, i: usize) -> (f64, f64) {
        let cols = self.cols.max(1);
        (
            self.x0 + (i % cols) as f64 * self.cell,
            self.y0 + (i / cols) as f64 * self.cell,
        )
    }

    /// The attributes of the number `<text>` of cell `i` (its `fill` apart).
    pub fn number_attributes(&self, i: usize) -> [(&'static str, String); 7] {
        let (x, y) = self.corner(i);
        [
            ("class", "hm-num".to_owned()),
            ("data-cell", i.to_string()),
            ("x", (x + self.cell / 2.0).to_string()),
            ("y", (y + self.cell / 2.0).to_string()),
            ("text-anchor", "middle".to_owned()),
            ("dominant-baseline", "central".to_owned()),
            ("font-size", self.font.to_string()),
        ]
    }
}

/// `s` with the five XML special characters escaped, for text and attribute values.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The SVG markup of all cells of `d` laid out on `grid`: per cell a
/// `<rect class="hm-cell" data-row data-col data-value fill>` with its `<title>` (when the map
/// has tooltips), followed by a `<text class="hm-num" data-cell="i">` when the cell prints a
/// number. Parsed once by the browser, this is much cheaper than creating each node from wasm.
pub fn cells_markup(d: &HeatmapData, grid: &Grid) -> String {
    let states = cell_states(d);
    let mut out = String::with_capacity(states.len() * 200);
    for (i, s) in states.iter().enumerate() {
        let (x, y) = grid.corner(i);
        let (r, c) = (i / grid.cols.max(1), i % grid.cols.max(1));
        let _ = write!(
            out,
            r##"<rect class="hm-cell" x="{x}" y="{y}" width="{w}" height="{w}" fill="{fill}" stroke="#e2e8f0" stroke-width="0.5" data-row="{r}" data-col="{c}" data-value="{v}">"##,
            w = grid.cell,
            fill = d.scale.css(s.shade),
            v = s.value,
        );
        if let Some(t) = &s.title {
            let _ = write!(out, "<title>{}</title>", escape(t));
        }
        out.push_str("</rect>");
        if let Some(n) = cell_text(grid.text, s.value) {
            out.push_str("<text");
            for (k, v) in grid.number_attributes(i) {
                let _ = write!(out, r#" {k}="{v}""#);
            }
            let _ = write!(
                out,
                r#" fill="{}" pointer-events="none">{}</text>"#,
                d.scale.ink(s.shade),
                escape(&n)
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn confusion() -> HeatmapData {
        HeatmapData {
            rows: 2,
            cols: 2,
            values: vec![3.0, 0.0, 1.0, 5.0],
            shade: Some(vec![1.0, 0.0, 1.0 / 6.0, 5.0 / 6.0]),
            scale: Scale::Sequential { min: 0.0, max: 1.0 },
            row_labels: vec!["Arabic".into(), "Czech".into()],
            col_labels: vec!["Arabic".into(), "Czech".into()],
            row_title: "true".into(),
            col_title: "predicted".into(),
            text: CellText::NonZeroInteger,
            titles: vec![
                "Arabic → Arabic: 3".into(),
                "Arabic → Czech: 0".into(),
                "Czech → <Arabic> & \"x\": 1".into(),
                "Czech → Czech: 5".into(),
            ],
            outline_diagonal: true,
        }
    }

    const GRID: Grid = Grid {
        x0: 100.0,
        y0: 50.0,
        cols: 2,
        cell: 30.0,
        font: 11.4,
        text: CellText::NonZeroInteger,
    };

    #[test]
    fn markup_has_one_rect_per_cell_row_major_with_value_colour_and_tooltip() {
        let m = cells_markup(&confusion(), &GRID);
        assert_eq!(m.matches("<rect ").count(), 4);
        let first = m
            .find(r#"data-row="0" data-col="0" data-value="3""#)
            .expect("cell 0,0");
        let last = m
            .find(r#"data-row="1" data-col="1" data-value="5""#)
            .expect("cell 1,1");
        assert!(first < last);
        assert!(m.contains(r#"<rect class="hm-cell" x="130" y="80" width="30" height="30""#));
        // Shade 0 is white on the sequential scale; shade 1 its darkest colour.
        let d = confusion();
        assert!(m.contains(&format!(r#"fill="{}""#, d.scale.css(0.0))));
        assert!(m.contains(&format!(r#"fill="{}""#, d.scale.css(1.0))));
        assert!(m.contains("<title>Czech → &lt;Arabic&gt; &amp; &quot;x&quot;: 1</title>"));
    }

    #[test]
    fn markup_prints_numbers_only_in_non_zero_cells_at_their_centres() {
        let m = cells_markup(&confusion(), &GRID);
        assert_eq!(m.matches("<text ").count(), 3, "no number in the zero cell");
        assert!(m.contains(r#"data-cell="0" x="115" y="65""#));
        assert!(!m.contains(r#"data-cell="1""#));
        assert!(m.contains(r#"data-cell="3" x="145" y="95""#));
        assert!(m.contains(">5</text>"));
        let none = cells_markup(
            &confusion(),
            &Grid {
                text: CellText::None,
                ..GRID
            },
        );
        assert_eq!(none.matches("<text").count(), 0);
        let fixed = cells_markup(
            &confusion(),
            &Grid {
                text: CellText::Fixed(1),
                ..GRID
            },
        );
        assert!(fixed.contains(">0.0</text>") && fixed.contains(">3.0</text>"));
    }

    #[test]
    fn states_follow_values_shades_and_titles() {
        let mut d = confusion();
        let s = cell_states(&d);
        assert_eq!(s.len(), 4);
        assert_eq!((s[3].value, s[3].shade), (5.0, 5.0 / 6.0));
        assert_eq!(s[1].title.as_deref(), Some("Arabic → Czech: 0"));
        d.shade = None;
        d.titles.clear();
        let s = cell_states(&d);
        assert_eq!((s[0].shade, s[0].title.clone()), (3.0, None));
    }

    #[test]
    fn escape_covers_the_xml_specials() {
        assert_eq!(
            escape(r#"a<b>&"c"'d"#),
            "a&lt;b&gt;&amp;&quot;c&quot;&#39;d"
        );
        assert_eq!(escape("中文"), "中文");
    }
}
