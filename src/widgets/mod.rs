//! Reusable view pieces shared by the pages: chart hosts, heatmaps, headline numbers and the
//! run buttons.

pub mod export;
pub mod heatmap;
pub mod heatmap_data;
pub mod number_field;
pub mod run_controls;
pub mod stat;
