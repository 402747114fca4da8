//! The charts drawn into SVG (plotters' SVG backend) and read back: points per curve, legend
//! entries in both languages, tick labels of the axis ranges, the heatmap's cell colours.

use super::backend::{ChartArea, ChartBackend};
use super::colour::Scale;
use super::compare::{self, CompareChartText, Curve};
use super::delay::{self, CurveChart, Line, MAX_DRAWN};
use super::grad_flow::{self, GradCurve};
use super::loss_curve::{self, LossSeries};
use super::step_heatmap::{self, StepMap};
use super::style::{cell_colour, nice_ceiling};
use super::val_curve::{self, EpochPoint};
use super::{ChartStyle, ChartText, LOSS_MEAN, LOSS_RAW, REFERENCE, VAL_ACC, VAL_LOSS};
use crate::charts::grad_flow_text::GradFlowText;
use plotters::prelude::*;
use unroll_core::config::Lang;
use unroll_core::math::params::CellKind;

const STYLE: ChartStyle = ChartStyle { scale: 1.0 };

/// One SVG element: its tag, attributes and (for `<text>`) its text.
#[derive(Debug)]
struct El {
    tag: String,
    attrs: Vec<(String, String)>,
    text: String,
}

impl El {
    fn attr(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The `(x, y)` pairs of a `<polyline>`.
    fn points(&self) -> Vec<(i32, i32)> {
        self.attr("points")
            .unwrap_or("")
            .split_whitespace()
            .map(|p| {
                let (x, y) = p.split_once(',').expect("x,y");
                (x.parse().expect("x"), y.parse().expect("y"))
            })
            .collect()
    }
}

fn unescape(s: &str) -> String {
    s.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&amp;", "&")
}

/// The elements of an SVG written by plotters (one tag per line, attributes in double quotes).
fn parse(svg: &str) -> Vec<El> {
    let mut out = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        rest = &rest[start + 1..];
        let end = rest.find('>').expect("tag end");
        let inner = &rest[..end];
        rest = &rest[end + 1..];
        if inner.starts_with('/') {
            continue;
        }
        let (tag, mut attrs_src) = inner.split_once(' ').unwrap_or((inner, ""));
        let mut attrs = Vec::new();
        while let Some(eq) = attrs_src.find("=\"") {
            let key = attrs_src[..eq].trim().to_owned();
            let after = &attrs_src[eq + 2..];
            let close = after.find('"').expect("attribute end");
            attrs.push((key, unescape(&after[..close])));
            attrs_src = &after[close + 1..];
        }
        let text = if tag == "text" {
            unescape(rest[..rest.find('<').unwrap_or(rest.len())].trim())
        } else {
            String::new()
        };
        out.push(El {
            tag: tag.trim_end_matches('/').to_owned(),
            attrs,
            text,
        });
    }
    out
}

/// Draws with `draw` into a `w × h` SVG (the charts' one backend, as the figures' downloads
/// draw) and returns its elements.
fn draw_svg(w: u32, h: u32, draw: impl FnOnce(&ChartArea<'_>)) -> Vec<El> {
    let mut svg = String::new();
    {
        let area = ChartBackend::svg(&mut svg, (w, h)).into_drawing_area();
        draw(&area);
        area.present().expect("svg");
    }
    parse(&svg)
}

fn hex(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// Polylines stroked in `colour` (any opacity).
fn lines_in(els: &[El], colour: RGBColor) -> Vec<&El> {
    els.iter()
        .filter(|e| e.tag == "polyline" && e.attr("stroke") == Some(hex(colour).as_str()))
        .collect()
}

/// The texts drawn.
fn texts(els: &[El]) -> Vec<&str> {
    els.iter()
        .filter(|e| e.tag == "text")
        .map(|e| e.text.as_str())
        .collect()
}

fn loss_series(steps: u64, total_steps: u64) -> LossSeries {
    let step_loss: Vec<(u64, f32)> = (1..=steps)
        .map(|s| {
            (
                s,
                2.9 - 0.02 * s as f32 + if s % 2 == 0 { 0.1 } else { 0.0 },
            )
        })
        .collect();
    let mean_loss = step_loss.iter().map(|&(s, l)| (s, l - 0.05)).collect();
    LossSeries {
        step_loss,
        mean_loss,
        total_steps,
        steps_per_epoch: 20,
        chance_loss: Some(18f64.ln()),
        small_batches: vec![(20, 2.7, 3)],
    }
}

#[test]
fn loss_curve_draws_one_point_per_step_and_its_legend_in_both_languages() {
    let series = loss_series(37, 60);
    for (lang, text) in [(Lang::En, &ChartText::EN), (Lang::Zh, &ChartText::ZH)] {
        let els = draw_svg(640, 300, |a| {
            loss_curve::draw(a, &series, ChartText::of(lang), &STYLE).expect("draw")
        });
        let curves = lines_in(&els, LOSS_RAW);
        // The per-step curve and its legend swatch.
        let longest = curves.iter().map(|e| e.points().len()).max();
        assert_eq!(longest, Some(37), "{lang:?}");
        let mean = lines_in(&els, LOSS_MEAN);
        assert_eq!(mean.iter().map(|e| e.points().len()).max(), Some(37));
        let t = texts(&els);
        for label in [
            text.batch_loss,
            text.mean_20,
            text.uniform,
            text.small_batch,
            text.step,
            text.loss,
        ] {
            assert!(t.contains(&label), "{lang:?}: {label} missing in {t:?}");
        }
        // One ring for the smaller batch (and one in the legend).
        let rings = els
            .iter()
            .filter(|e| e.tag == "circle" && e.attr("stroke") == Some(hex(LOSS_RAW).as_str()))
            .count();
        assert_eq!(rings, 2);
    }
    assert_ne!(ChartText::EN.batch_loss, ChartText::ZH.batch_loss);
}

#[test]
fn legend_lists_its_entries_top_to_bottom_in_a_box_in_its_corner() {
    let series = loss_series(37, 60);
    let text = &ChartText::EN;
    let els = draw_svg(640, 300, |a| {
        loss_curve::draw(a, &series, text, &STYLE).expect("draw")
    });
    let at = |label: &str| -> (i32, i32) {
        let e = els
            .iter()
            .find(|e| e.tag == "text" && e.text == label)
            .unwrap_or_else(|| panic!("{label} not drawn"));
        let n = |k: &str| e.attr(k).and_then(|v| v.parse::<f64>().ok()).expect(k) as i32;
        (n("x"), n("y"))
    };
    // In the order the series were drawn, one line each, left-aligned.
    let rows: Vec<(i32, i32)> = [
        text.uniform,
        text.batch_loss,
        text.mean_20,
        text.small_batch,
    ]
    .iter()
    .map(|l| at(l))
    .collect();
    assert!(rows.windows(2).all(|w| w[0].0 == w[1].0), "{rows:?}");
    assert!(rows.windows(2).all(|w| w[1].1 > w[0].1), "{rows:?}");
    // The box: the translucent white rectangle holding the texts, flush with the plotting
    // area's upper right corner (5 px in), right of the y tick labels.
    let boxed = els
        .iter()
        .filter(|e| e.tag == "rect" && e.attr("fill") == Some("#FFFFFF"))
        .filter_map(|e| {
            let n = |k: &str| e.attr(k).and_then(|v| v.parse::<i32>().ok());
            Some((n("x")?, n("y")?, n("width")?, n("height")?))
        })
        .filter(|&(_, _, w, _)| w < 640)
        .find(|&(x, y, w, h)| {
            rows.iter()
                .all(|&(tx, ty)| tx > x && tx < x + w && ty >= y && ty < y + h)
        })
        .expect("a legend box around the texts");
    let (x, y, w, _) = boxed;
    assert!(x > 100 && x + w < 640 && y < 40, "{boxed:?}");
}

#[test]
fn loss_curve_x_axis_spans_the_whole_run_and_y_axis_the_peak() {
    let width = |total: u64| {
        let els = draw_svg(640, 300, |a| {
            loss_curve::draw(a, &loss_series(30, total), &ChartText::EN, &STYLE).expect("draw")
        });
        let curve = lines_in(&els, LOSS_RAW)
            .into_iter()
            .max_by_key(|e| e.points().len())
            .expect("curve")
            .points();
        (curve[curve.len() - 1].0 - curve[0].0, texts(&els).join("|"))
    };
    let (full, labels) = width(30);
    let (half, _) = width(60);
    // 29 steps over an axis of 30 steps, then over one of 60: half as wide (±2 px rounding).
    assert!((full - 2 * half).abs() <= 2, "{full} vs {half}");
    // Peak 3.0 (step 2: 2.86 + 0.1; ln 18 = 2.89) × 1.05 → axis 0–3.5: ticks 0.0 to 3.0.
    assert_eq!(nice_ceiling(3.0 * 1.05, 0.5), 3.5);
    let ticks: Vec<&str> = labels.split('|').collect();
    for t in ["0.0", "1.0", "2.0", "3.0"] {
        assert!(ticks.contains(&t), "{t} missing in {labels}");
    }
    assert!(!ticks.contains(&"4.0"), "{labels}");
}

#[test]
fn empty_charts_show_their_message() {
    let els = draw_svg(400, 200, |a| {
        loss_curve::draw(a, &LossSeries::default(), &ChartText::ZH, &STYLE).expect("draw")
    });
    assert_eq!(texts(&els), vec![ChartText::ZH.loss_empty]);
    let els = draw_svg(400, 200, |a| {
        val_curve::draw(a, &[], 5, &ChartText::EN, &STYLE).expect("draw")
    });
    assert_eq!(texts(&els), vec![ChartText::EN.val_empty]);
}

#[test]
fn val_curve_draws_each_epoch_on_both_axes() {
    let points: Vec<EpochPoint> = (1..=3)
        .map(|e| EpochPoint {
            epoch: e,
            train_loss: 2.0 - 0.3 * e as f32,
            val_loss: 2.1 - 0.25 * e as f32,
            val_acc: 0.3 + 0.1 * e as f32,
        })
        .collect();
    for text in [&ChartText::EN, &ChartText::ZH] {
        let els = draw_svg(640, 300, |a| {
            val_curve::draw(a, &points, 5, text, &STYLE).expect("draw")
        });
        for colour in [LOSS_MEAN, VAL_LOSS, VAL_ACC] {
            let longest = lines_in(&els, colour)
                .iter()
                .map(|e| e.points().len())
                .max();
            assert_eq!(longest, Some(3), "{colour:?}");
            let dots = els
                .iter()
                .filter(|e| e.tag == "circle" && e.attr("fill") == Some(hex(colour).as_str()))
                .count();
            assert_eq!(dots, 3);
        }
        let t = texts(&els);
        for label in [
            text.train_loss,
            text.val_loss,
            text.val_acc,
            text.epoch,
            text.accuracy,
        ] {
            assert!(t.contains(&label), "{label} missing in {t:?}");
        }
        // The accuracy axis spans 0–100 %; the epoch axis 1..=5 in whole numbers.
        assert!(t.contains(&"0%") && t.contains(&"100%"), "{t:?}");
        for e in ["1", "2", "3", "4", "5"] {
            assert!(t.contains(&e), "epoch {e} missing in {t:?}");
        }
        // Nothing beyond epoch 5; the half-epoch ticks stay unlabelled.
        assert!(!t.contains(&"6"), "{t:?}");
        assert!(t.iter().filter(|s| s.is_empty()).count() >= 5, "{t:?}");
    }
}

#[test]
fn compare_chart_draws_one_curve_per_cell_and_zooms_to_the_data() {
    let curves: Vec<Curve> = [
        (CellKind::Rnn, [0.31, 0.4]),
        (CellKind::Lstm, [0.35, 0.52]),
        (CellKind::Gru, [0.38, 0.61]),
    ]
    .into_iter()
    .map(|(cell, acc)| Curve {
        label: cell.name().to_owned(),
        points: vec![(1, acc[0]), (2, acc[1])],
        colour: cell_colour(cell),
    })
    .collect();
    let text = CompareChartText {
        epoch: "epoch",
        accuracy: "validation accuracy",
        baseline: "majority class",
        empty: "nothing yet",
    };
    let els = draw_svg(640, 300, |a| {
        compare::draw(a, &curves, 3, Some(0.27), &text, &STYLE).expect("draw")
    });
    for c in &curves {
        let longest = lines_in(&els, c.colour)
            .iter()
            .map(|e| e.points().len())
            .max();
        assert_eq!(longest, Some(2), "{}", c.label);
    }
    let t = texts(&els);
    for label in ["RNN", "LSTM", "GRU", "majority class"] {
        assert!(t.contains(&label), "{label} missing in {t:?}");
    }
    // Values 0.27 (baseline) to 0.61: the axis runs from 20 % to 70 %.
    assert!(t.contains(&"20%") && t.contains(&"70%"), "{t:?}");
    assert!(!t.contains(&"0%") && !t.contains(&"100%"), "{t:?}");
    // The dashed baseline: several short dashes in the reference colour.
    assert!(lines_in(&els, REFERENCE).len() > 5);
    assert_eq!(compare::drawn(&curves), 3);
}

#[test]
fn delay_chart_thins_long_lines_and_names_each_cell_once() {
    let seed = |offset: f64| Line {
        cell: CellKind::Lstm,
        points: (1..=1500u64)
            .map(|s| (s, (offset + s as f64 / 3000.0).min(1.0)))
            .collect(),
    };
    let lines = vec![seed(0.1), seed(0.2)];
    let chart = CurveChart {
        bands: vec![(
            CellKind::Lstm,
            delay::band(&[&lines[0].points, &lines[1].points]),
        )],
        lines,
        y_max: 1.0,
        percent: true,
        chance: Some((0.125, "chance")),
        solved: None,
        log_y: false,
        x_desc: "step",
        y_desc: "held-out accuracy",
        empty: "no run yet",
    };
    let els = draw_svg(640, 300, |a| delay::draw(a, &chart, &STYLE).expect("draw"));
    let colour = cell_colour(CellKind::Lstm);
    let seeds: Vec<usize> = lines_in(&els, colour)
        .iter()
        .map(|e| e.points().len())
        .filter(|&n| n > 2)
        .collect();
    // Every 3rd of 1500 points (⌈1500 / 600⌉ = 3) and the last one.
    assert_eq!(MAX_DRAWN, 600);
    assert_eq!(seeds, vec![501, 501]);
    let t = texts(&els);
    assert_eq!(t.iter().filter(|s| **s == "LSTM").count(), 1, "{t:?}");
    assert!(t.contains(&"chance") && t.contains(&"100%") && t.contains(&"0%"));
    // The band between the seeds.
    assert_eq!(els.iter().filter(|e| e.tag == "polygon").count(), 1);
}

/// The adding problem's chart: the baseline (1/6) over an RNN line that sits on it, the
/// "solved" line at 0.01, and on a log axis decades that keep the two apart.
#[test]
fn a_task_chart_draws_its_baseline_over_the_lines_and_its_solved_level() {
    let baseline = 1.0 / 6.0;
    let rnn = Line {
        cell: CellKind::Rnn,
        points: (0..=10u64).map(|k| (k * 100, baseline)).collect(),
    };
    let lstm = Line {
        cell: CellKind::Lstm,
        points: (0..=10u64)
            .map(|k| (k * 100, baseline * 0.6f64.powi(k as i32)))
            .collect(),
    };
    for log_y in [false, true] {
        let chart = CurveChart {
            lines: vec![rnn.clone(), lstm.clone()],
            bands: Vec::new(),
            y_max: baseline * 1.5,
            percent: false,
            chance: Some((baseline, "baseline")),
            solved: Some((0.01, "solved (below 0.0100)".to_owned())),
            log_y,
            x_desc: "step",
            y_desc: "MSE",
            empty: "no run yet",
        };
        let els = draw_svg(640, 300, |a| delay::draw(a, &chart, &STYLE).expect("draw"));
        let pos = |pred: &dyn Fn(&El) -> bool| els.iter().position(pred);
        let rnn_at =
            pos(&|e| lines_in(std::slice::from_ref(e), cell_colour(CellKind::Rnn)).len() == 1)
                .expect("the RNN's line");
        let y_of = |e: &El| e.points()[0].1;
        let rnn_y = y_of(&els[rnn_at]);
        // A dashed level: short horizontal segments in its colour (the axes are INK too).
        let level = |c: RGBColor, pred: &dyn Fn(i32) -> bool| {
            els.iter()
                .enumerate()
                .filter(|(_, e)| e.tag == "polyline" && e.attr("stroke") == Some(hex(c).as_str()))
                .filter(|(_, e)| {
                    let p = e.points();
                    p.len() == 2 && p[0].1 == p[1].1 && pred(p[0].1)
                })
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        let base = level(super::INK, &|y| (y - rnn_y).abs() <= 1);
        assert!(
            !base.is_empty(),
            "log_y {log_y}: the baseline at the RNN's height"
        );
        assert!(
            base.iter().all(|&i| i > rnn_at),
            "log_y {log_y}: the baseline is drawn over the RNN's line"
        );
        // The solved line below the baseline.
        let solved = level(super::VAL_ACC, &|y| y > rnn_y + 20);
        assert!(!solved.is_empty(), "log_y {log_y}: 0.01 well below 1/6");
        assert!(solved.iter().all(|&i| i > rnn_at));
        let t = texts(&els);
        assert!(
            t.contains(&"baseline") && t.contains(&"solved (below 0.0100)"),
            "{t:?}"
        );
        if log_y {
            for decade in ["0.001", "0.01", "0.1", "1"] {
                assert!(t.contains(&decade), "log axis: {decade} in {t:?}");
            }
        }
    }
}

#[test]
fn grad_flow_draws_the_positive_norms_with_labels_in_both_languages() {
    let curves = vec![
        GradCurve {
            cell: CellKind::Rnn,
            hidden_size: 16,
            step: 40,
            norms: vec![1.0, 0.3, 0.09, 0.0, f32::NAN, 0.002],
        },
        GradCurve {
            cell: CellKind::Lstm,
            hidden_size: 32,
            step: 120,
            norms: vec![1.0, 0.8, 0.7, 0.65],
        },
    ];
    assert_eq!(curves[0].points().len(), 4);
    for lang in [Lang::En, Lang::Zh] {
        let t = GradFlowText::of(lang);
        let els = draw_svg(640, 320, |a| {
            grad_flow::draw(a, &curves, Some(CellKind::Lstm), t, &STYLE).expect("draw")
        });
        // This run (LSTM) solid: one polyline with its 4 points; the kept RNN curve dashed.
        let lstm = lines_in(&els, cell_colour(CellKind::Lstm));
        assert_eq!(lstm.iter().map(|e| e.points().len()).max(), Some(4));
        assert!(lines_in(&els, cell_colour(CellKind::Rnn)).len() > 2);
        let texts = texts(&els);
        let this_run = format!("{} · {}", (t.label)("LSTM", 32, 120), t.this_run);
        let kept = format!("{} · {}", (t.label)("RNN", 16, 40), t.kept);
        for label in [this_run.as_str(), kept.as_str(), t.x, t.y] {
            assert!(
                texts.contains(&label),
                "{lang:?}: {label} missing in {texts:?}"
            );
        }
        // Log axis from 10⁻³ (norm 0.002) to 10⁰, labelled at the powers of ten inside.
        assert!(
            texts.contains(&"1e-2") && texts.contains(&"1e-1") && texts.contains(&"1e0"),
            "{texts:?}"
        );
    }
    assert_eq!(
        (GradFlowText::EN.label)("GRU", 8, 3),
        "GRU (H = 8) · step 3".to_owned()
    );
    assert_eq!(
        (GradFlowText::ZH.label)("GRU", 8, 3),
        "GRU（H = 8）· 第 3 步".to_owned()
    );
}

#[test]
fn colour_scale_is_diverging_for_signed_and_sequential_for_non_negative_values() {
    let signed = Scale::Diverging { abs_max: 2.0 };
    assert_eq!(signed.css(0.0), "#ffffff");
    assert_eq!(signed.css(-2.0), "#1d4ed8");
    assert_eq!(signed.css(2.0), "#ea580c");
    assert_eq!(signed.css(-5.0), "#1d4ed8", "clamped");
    // Half way: 255 + (234 − 255) / 2 = 244.5 → 245, 171.5 → 172, 133.5 → 134.
    assert_eq!(signed.css(1.0), "#f5ac86");
    assert_eq!(signed.css(f32::NAN), "#94a3b8");
    assert_eq!(Scale::UNIT.css(0.0), "#ffffff");
    assert_eq!(Scale::UNIT.css(1.0), "#312e81");
    assert_eq!(Scale::UNIT.css(0.5), "#9897c0");
    assert_eq!(Scale::UNIT.css(-0.5), "#ffffff", "clamped at min");
    let shares = Scale::Sequential { min: 0.0, max: 4.0 };
    assert_eq!(shares.css(2.0), Scale::UNIT.css(0.5));
    // Text: white on strong blue and indigo, dark on pale cells and on orange (higher contrast).
    assert_eq!(signed.ink(-1.9), "#ffffff");
    assert_eq!(signed.ink(0.5), "#0f172a");
    assert_eq!(signed.ink(2.0), "#0f172a");
    assert_eq!(Scale::UNIT.ink(1.0), "#ffffff");
    assert_eq!(Scale::UNIT.ink(0.2), "#0f172a");
    assert_eq!(signed.ends(), (-2.0, 2.0));
    assert_eq!(Scale::UNIT.ends(), (0.0, 1.0));
}

#[test]
fn step_heatmap_cells_take_the_scale_colours() {
    let map = StepMap::from_time_major(
        // [steps = 3, units = 2] time-major.
        &[-1.0, 0.5, 0.0, f32::NAN, 1.0, 2.0],
        2,
        vec!["a".into(), "b".into(), String::new()],
        Some(2),
        Scale::Diverging { abs_max: 1.0 },
    );
    assert_eq!((map.rows, map.cols), (2, 3));
    assert_eq!(map.values[..3], [-1.0, 0.0, 1.0]);
    let els = draw_svg(300, 80, |a| {
        step_heatmap::draw(a, &map, &STYLE, |_| false).expect("draw")
    });
    let fills: Vec<&str> = els
        .iter()
        .filter(|e| e.tag == "rect" && e.attr("stroke") == Some("none"))
        .filter_map(|e| e.attr("fill"))
        .collect();
    // The background, then the cells row by row: −1, 0, 1 / 0.5, NaN, 2 (clamped).
    assert_eq!(
        fills[fills.len() - 6..],
        ["#1D4ED8", "#FFFFFF", "#EA580C", "#F5AC86", "#94A3B8", "#EA580C"]
    );
    let t = texts(&els);
    assert!(
        t.contains(&"a") && t.contains(&"b") && t.contains(&"∅"),
        "{t:?}"
    );
    assert!(t.contains(&"0") && t.contains(&"1"), "{t:?}");
    // The painter that takes over the cells gets their rectangle and no cell is drawn.
    let mut rect = None;
    let els = draw_svg(300, 80, |a| {
        step_heatmap::draw(a, &map, &STYLE, |r| {
            rect = Some(r);
            true
        })
        .expect("draw")
    });
    let (x, y, w, h) = rect.expect("painter called");
    assert_eq!((x, y), (30.0, 18.0));
    assert!((w - (300.0 - 30.0 - 1.0)).abs() < 1e-9 && (h - (80.0 - 18.0)).abs() < 1e-9);
    assert_eq!(els.iter().filter(|e| e.tag == "rect").count(), 1);
    assert_eq!(map.rgba()[..8], [0x1d, 0x4e, 0xd8, 255, 255, 255, 255, 255]);
}

#[test]
fn step_heatmap_frame_tells_a_values_only_change() {
    let map = |values: &[f32], labels: &[&str], padded_from| {
        StepMap::from_time_major(
            values,
            2,
            labels.iter().map(|l| (*l).to_owned()).collect(),
            padded_from,
            Scale::Diverging { abs_max: 1.0 },
        )
    };
    let a = map(&[0.1, 0.2, 0.3, 0.4], &["a", "b"], None);
    let moved = map(&[0.9, -0.2, 0.3, 0.0], &["a", "b"], None);
    let frame = step_heatmap::Frame::of(&a, (300, 80));
    // New values over the same labels and size: the same frame, cells alone repainted.
    assert_eq!(step_heatmap::Frame::of(&moved, (300, 80)), frame);
    assert!(frame.cells_alone());
    // Another size, another name, or another scale: the whole map is drawn again.
    assert_ne!(step_heatmap::Frame::of(&a, (301, 80)), frame);
    assert_ne!(
        step_heatmap::Frame::of(&map(&[0.1, 0.2, 0.3, 0.4], &["a", "c"], None), (300, 80)),
        frame
    );
    let mut rescaled = a.clone();
    rescaled.scale = Scale::UNIT;
    assert_ne!(step_heatmap::Frame::of(&rescaled, (300, 80)), frame);
    // Padding columns are hatched over their cells: never the cells alone.
    let padded = map(&[0.1, 0.2, 0.3, 0.4], &["a", ""], Some(1));
    assert!(!step_heatmap::Frame::of(&padded, (300, 80)).cells_alone());
    // The cells' rectangle is the one the full draw hands its painter.
    let mut rect = None;
    draw_svg(300, 80, |area| {
        step_heatmap::draw(area, &a, &STYLE, |r| {
            rect = Some(r);
            true
        })
        .expect("draw")
    });
    assert_eq!(
        rect,
        Some(step_heatmap::cells_rect(300.0, 80.0, 2, 2, &STYLE))
    );
}

/// The legend goes where the lines are not: the adding problem's held-out loss starts high at
/// step 0 and falls onto its baseline at once, so the bottom left (the default of a loss
/// chart) is where the curves run and the top right is empty.
#[test]
fn the_legend_takes_the_corner_the_lines_leave_empty() {
    use crate::charts::style::Corner;
    let baseline = 1.0 / 6.0;
    let falling = |cell, start: f64| Line {
        cell,
        points: (0..=20u64)
            .map(|k| (k * 100, if k == 0 { start } else { baseline * 1.02 }))
            .collect(),
    };
    let chart = CurveChart {
        lines: vec![falling(CellKind::Rnn, 1.2), falling(CellKind::Gru, 0.9)],
        bands: Vec::new(),
        y_max: baseline * 1.5,
        percent: false,
        chance: Some((baseline, "baseline")),
        solved: Some((0.01, "solved (below 0.0100)".to_owned())),
        log_y: false,
        x_desc: "step",
        y_desc: "MSE",
        empty: "no run yet",
    };
    let corner = delay::legend_corner(&chart, Corner::LowerLeft, 2000, (0.0, 1.5));
    assert_eq!(corner, Corner::UpperRight);
    // A delay-copy loss that stays at chance near the top keeps the bottom left.
    let flat = Line {
        cell: CellKind::Lstm,
        points: (0..=20u64).map(|k| (k * 100, 2.3)).collect(),
    };
    let chart = CurveChart {
        lines: vec![flat],
        chance: Some((2.3, "chance")),
        solved: None,
        ..chart
    };
    assert_eq!(
        delay::legend_corner(&chart, Corner::LowerLeft, 2000, (0.0, 2.5)),
        Corner::LowerLeft
    );
}
