//! Reusable view pieces shared by the pages: a figure's downloads ([`export`]), a number
//! field, headline numbers and the run buttons, a script's "As PyTorch" panel, a sweep's
//! Web Workers.

pub mod backend;
pub mod export;
pub mod number_field;
pub mod run_controls;
pub mod script;
pub mod stat;
pub mod workers;
