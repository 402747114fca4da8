//! Every plotters chart of the app, the SVG heatmap, and the heatmaps' colour scale.
//!
//! Each chart is a pure function over a [`backend::ChartArea`], whose backend is chosen at run
//! time: a `<canvas>` in the browser (through [`canvas`], the one canvas host), or an SVG string
//! (the figures' downloads, and the native tests). Each chart is therefore compiled once, and
//! the SVG a learner downloads is drawn by the same function as the chart on the page. This
//! module compiles natively; only [`canvas`] needs the browser.
//!
//! - [`backend`]: the one drawing backend (canvas or SVG) and its area and result types.
//! - [`style`]: the shared look (sizes, font, palette, frame, mesh, legend, swatches, dashed
//!   reference lines, tick formatters).
//! - [`colour`]: the one colour convention of the heatmaps (diverging for signed values,
//!   sequential for non-negative ones).
//! - [`loss_curve`]: training loss per step (each step's batch loss and the mean of the last 20).
//! - [`val_curve`]: validation loss and accuracy per epoch (two y axes).
//! - [`compare`]: validation accuracy per epoch of RNN, LSTM and GRU (compare mode).
//! - [`grad_flow`]: ‖∂L/∂h_t‖ per step before the read-out, on a log axis.
//! - [`delay`]: the delay page's held-out accuracy, loss and batch-loss curves over seeds.
//! - [`step_heatmap`]: the inspector's units × steps maps.
//! - [`heatmap`]: the SVG heatmap (one `<rect>` per cell, a value per cell as text), its data
//!   in [`heatmap_data`]; [`grad_flow_text`]: the gradient-flow chart's texts.
//! - [`canvas`]: the `<canvas>` a chart draws into (browser only).
//! - [`csv`]: the curves' and the confusion matrix's numbers as CSV downloads.
pub mod backend;
pub mod canvas;
pub mod colour;
pub mod compare;
pub mod csv;
pub mod delay;
pub mod grad_flow;
pub mod grad_flow_text;
pub mod heatmap;
pub mod heatmap_data;
pub mod loss_curve;
pub mod step_heatmap;
pub mod style;
pub mod text;
pub mod val_curve;

#[cfg(test)]
mod tests;

pub use style::{
    draw_placeholder, nice_ceiling, ChartStyle, FONT_FAMILY, GRID, INK, LOSS_MEAN, LOSS_RAW,
    MUTED_TEXT, REFERENCE, VAL_ACC, VAL_LOSS,
};
pub use text::ChartText;
