//! The training lab's panels on the names page (issue 5 scopes 1–3): the configuration keys
//! the spine's form lacks, validation metrics (class counts, majority baseline, per-class
//! accuracy, confusion matrix) and compare mode (RNN / LSTM / GRU on the same seed and split).
//!
//! - [`config_panel`]: `num_layers`, `bidirectional`, `max_norm`, `head`.
//! - [`metrics`]: the metrics panel, fed by [`metrics::LabMetrics::observe`].
//! - [`compare`], [`compare_chart`]: compare mode.
//! - [`text`]: the lab's own English / Chinese text table.

pub mod compare;
pub mod compare_chart;
pub mod config_panel;
pub mod metrics;
pub mod text;

use leptos::prelude::*;

/// The lab's stylesheet (kept next to its panels).
const LAB_CSS: &str = include_str!("lab.css");

/// A `<style>` element with the lab's stylesheet, rendered once by the training page.
#[component]
pub fn LabStyle() -> impl IntoView {
    view! { <style>{LAB_CSS}</style> }
}
