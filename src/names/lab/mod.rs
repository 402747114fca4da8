//! The training lab's panels on the names page: the configuration keys
//! the spine's form lacks, validation metrics (class counts, majority baseline, per-class
//! accuracy, confusion matrix), compare mode (RNN / LSTM / GRU on the same seed and split),
//! and inside the trained model (per-character heatmaps, gate pins, gradient flow).
//!
//! The panels' models are plain data and compile natively, so `cargo test` checks them; the
//! panels themselves (Leptos components) compile for the browser only.
//!
//! - [`inspection`]: the inspector's model (maps, top-k, pin) from weights and a name.
//! - [`val_metrics`]: one epoch's validation metrics as the metrics panel shows them.
//! - [`compare_runs`]: compare mode's per-cell results and its chart's curves.
//! - `config_panel`: `num_layers`, `bidirectional`, `max_norm`, `head`.
//! - `metrics`: the metrics panel, fed by `metrics::LabMetrics::show`.
//! - `compare`: compare mode (its chart is [`crate::charts::compare`]).
//! - `inspector`: h_t, c_t and gate heatmaps per character, the top-5 prediction, pinning a
//!   gate.
//! - `grad_flow`: ‖∂L/∂h_t‖ per step before the read-out, per cell, on a log axis (its
//!   chart is [`crate::charts::grad_flow`]).
//! - `step_heatmap`: the units × steps canvas heatmap the inspector uses (drawn by
//!   [`crate::charts::step_heatmap`]).
pub mod compare;
pub mod compare_runs;
pub mod config_panel;
pub mod grad_flow;
pub mod inspection;
pub mod inspector;
pub mod inspector_text;
pub mod metrics;
mod pin;
pub mod step_heatmap;
pub mod text;
pub mod val_metrics;
