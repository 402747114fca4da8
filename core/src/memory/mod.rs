//! The classic long-memory tasks — the adding problem, copy memory and temporal order — each
//! with its published memoryless baseline, trained with the same recurrent module and recipe
//! as the delay-copy lab ([`crate::delay`]).
//!
//! - [`task`]: the seeded generators ([`task::MemoryTask`], [`task::MemoryStream`]), the fixed
//!   held-out set ([`task::heldout_set`]) and the baselines with their sources.
//! - [`model`]: the recurrent module with a linear head read at the last step (adding, order)
//!   or the last 10 steps (copy); MSE or cross-entropy, forward and backward
//!   ([`model::MemoryModel`]).
//! - [`trainer`]: one cell trained with Adam and global-norm clipping on the CPU path
//!   ([`trainer::MemoryTrainer`]), held-out evaluations and the per-task criterion of
//!   "solved" ([`trainer::solved`], [`trainer::solved_after`]).
//! - [`outcome`]: what a sweep's finished runs show (which cells beat the baseline or solved
//!   the task, on how many seeds; whether the cells differ beyond the seeds' spread).
//! - [`run`]: the lab page's plan (cells, seeds, T, budget from its URL keys) and the sweep
//!   the engine's worker trains ([`run::MemorySweep`]).
//!
//! Natively, `core/src/bin/long_memory.rs` runs them and prints JSON lines.

pub mod model;
pub mod outcome;
pub mod run;
pub mod task;
pub mod trainer;

pub use model::{MemoryModel, MemoryStats};
pub use task::{heldout_set, paper_copy_loss, MemoryBatch, MemoryStream, MemoryTask, TaskKind};
pub use trainer::{
    recipe_for, solved, solved_after, solved_loss, HeldOutPoint, MemoryStep, MemoryTrainer,
};
