//! The delay-copy task: random token sequences where the target at position t is the token at
//! t − delay. It shows how far back each cell can carry information.
//!
//! - [`task`]: the seeded generator of sequences and targets ([`task::DelayTask`]).
//! - [`model`]: the per-token model — one-hot tokens → recurrent module
//!   ([`crate::math::recurrent::RnnModule`]) → `fc = Linear(H, V)` at every step →
//!   cross-entropy over the supervised positions ([`model::DelayModel`]).
//! - [`trainer`]: one cell trained with Adam and global-norm clipping on the CPU path
//!   ([`trainer::CellTrainer`], settings in [`trainer::Recipe`]); several cells trained side by
//!   side on the same token stream ([`trainer::SideBySide`]).
//! - [`backend`]: which path each cell's runs train on (`backend`: `auto` measures both).
//! - [`run`]: measured runs — every cell × seed of a configuration for its step budget,
//!   evaluated on a fixed held-out set ([`run::Sweep`], [`run::DelayRun`]).
//! - [`outcome`]: what the finished runs show, as typed values — the sweep summary (final
//!   held-out accuracy vs delay), the [`outcome::Outcome`] of one delay's runs, the capacity
//!   figures ([`outcome::Capacity`]).
//!
//! Training runs on the **CPU path** (the Rust reference of `math`) or on the GPU (the same
//! model on the WGSL kernels of [`crate::gpu`], [`CellTrainer::attach_gpu`]): in the browser
//! inside the engine's Web Worker on the path [`backend`] picks, natively with `delay-copy
//! --backend cpu|gpu` (`core/src/bin/delay_copy.rs`). Positions are counted from 0: with delay d, positions d, d+1,
//! …, T−1 are supervised (the course's "from position delay + 1" counts from 1).

pub mod backend;
pub mod model;
pub mod outcome;
pub mod run;
pub mod task;
pub mod trainer;

pub use crate::config::delay::{check_delay, CellSet, DelayConfig, DelayRangeError};
pub use model::{DelayModel, DelayStats};
pub use outcome::{judge, Capacity, Outcome, SweepSummary};
pub use run::{
    DelayRun, HeldOut, HeldOutSet, ResumeRefused, RunId, RunResult, RunSettings, Sweep,
    SweepCheckpoint, Tick,
};
pub use task::{targets, DelayBatch, DelayTask};
pub use trainer::{Backend, CellTrainer, DelayStep, Recipe, SideBySide, TrainerState};
