//! The training lab's panels on the names page (issue 5).
//!
//! - [`inspector`]: inside the trained model: h_t, c_t and gate heatmaps per character, the
//!   top-5 prediction, and pinning a gate.
//! - [`grad_flow`]: ‖∂L/∂h_t‖ per step before the read-out, per cell, on a log axis.
//! - [`step_heatmap`]: the units × steps canvas heatmap both use.

pub mod grad_flow;
pub mod inspector;
pub mod step_heatmap;
