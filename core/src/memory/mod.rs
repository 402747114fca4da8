//! The classic long-memory tasks — the adding problem, copy memory and temporal order — each
//! with its published memoryless baseline, trained with the same model, recipe and sweep as
//! every lab ([`crate::train`]).
//!
//! - [`task`]: the seeded generators, the readouts and losses, the fixed held-out set, the
//!   baselines and the criteria of "solved", as [`crate::task::Task`]s
//!   ([`task::MemoryTask`]); they live with the other tasks in [`crate::task::memory`]
//!   (re-exported here under their earlier path).
//! - [`outcome`]: what a sweep's finished runs show (which cells beat the baseline or solved
//!   the task, on how many seeds; whether the cells differ beyond the seeds' spread).
//!
//! Natively, `long-memory` (`core/src/bin/long_memory.rs`) runs them and prints JSON lines.

pub mod outcome;
pub use crate::task::memory as task;

pub use task::{paper_copy_loss, MemoryStream, MemoryTask, TaskKind};
