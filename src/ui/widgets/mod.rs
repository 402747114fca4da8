//! Reusable view pieces shared by the pages (and, later, the lessons).

pub mod heatmap;
pub mod stat;
