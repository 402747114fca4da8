//! The delay-copy task: random token sequences where the target at position t is the token at
//! t − delay. It shows how far back each cell can carry information.
//!
//! - [`task`]: the seeded generator of sequences and targets, the held-out set and the
//!   baseline, as a [`crate::task::Task`] ([`task::DelayTask`]); it lives with the other tasks
//!   in [`crate::task::delay`] (re-exported here under its earlier path) and trains through
//!   the labs' one model, trainer and sweep ([`crate::train`]).
//! - [`outcome`]: what the finished runs show, as typed values — the sweep summary (final
//!   held-out accuracy vs delay), the [`outcome::Outcome`] of one delay's runs, the capacity
//!   figures ([`outcome::Capacity`]).
//!
//! Positions are counted from 0: with delay d, positions d, d+1, …, T−1 are supervised (the
//! course's "from position delay + 1" counts from 1). Natively, `delay-copy`
//! (`core/src/bin/delay_copy.rs`) runs a sweep and prints JSON lines.

pub mod outcome;
pub use crate::task::delay as task;

pub use crate::config::delay::{check_delay, CellSet, DelayConfig, DelayRangeError};
pub use outcome::{judge, Capacity, Outcome, SweepSummary};
pub use task::{targets, DelayTask};
