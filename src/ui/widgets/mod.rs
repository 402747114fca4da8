//! Reusable view pieces shared by the pages (and, later, the lessons).

pub mod chart_canvas;
pub mod heatmap;
pub mod stat;
