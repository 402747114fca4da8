//! The delay-copy task (issue 5 scope 5): random token sequences where the target at position
//! t is the token at t − delay. It shows how far back each cell can carry information.
//!
//! - [`task`]: the seeded generator of sequences and targets ([`task::DelayTask`]).
//! - [`model`]: the per-token model — one-hot tokens → recurrent module
//!   ([`crate::math::recurrent::RnnModule`]) → `fc = Linear(H, V)` at every step →
//!   cross-entropy over the supervised positions ([`model::DelayModel`]).
//! - [`trainer`]: Adam on the CPU path, micro-batched with cooperative yields so the browser
//!   tab never freezes ([`trainer::CellTrainer`]); several cells trained side by side on the
//!   same token stream ([`trainer::SideBySide`]).
//!
//! Training runs on the **CPU path** (the Rust reference of `math`), in the browser and
//! natively (`src/bin/delay_copy.rs`); no GPU kernel is involved. Positions are counted from
//! 0: with delay d, positions d, d+1, …, T−1 are supervised (the issue's "from position
//! delay + 1" counts from 1).

pub mod model;
pub mod task;
pub mod trainer;

pub use crate::config::delay::{check_delay, CellSet, DelayConfig, DelayRangeError};
pub use model::{DelayModel, DelayStats};
pub use task::{targets, DelayBatch, DelayTask};
pub use trainer::{CellTrainer, DelayStep, SideBySide};
