//! Training, the same for every lab: one trainer, one sweep, one choice of path.
//!
//! - [`trainer`]: one cell of one task with its weights, Adam's state and its stream, on the
//!   CPU path or on the GPU ([`trainer::Trainer`]); a GPU lost mid-training hands over to the
//!   CPU from the step reached.
//! - [`sweep`]: every (cell, seed) run of a [`sweep::SweepPlan`] on the task's fixed held-out
//!   set, tick by tick, and its resume checkpoint ([`sweep::SweepCheckpoint`]).
//! - [`split`]: one run's batches cut into shares computed by several workers, their
//!   gradients summed in a fixed order.
//! - [`recipe`]: a run's optimisation settings and the model they give for a task and a cell.
//! - [`plan`]: the sweep each page's configuration asks for.
//! - [`backend`]: which path each cell trains on (`backend=auto` times a few steps of each).
//! - [`messages`]: the runs' errors and notices as typed values (the page writes them in its
//!   language).
//! - [`slowmo`]: one training step on one name in slow motion (every stage's numbers, the
//!   trainer's update).
//! - [`clock`]: time, sleeping while paused, and turns of the event loop (the engine's Web
//!   Worker in the browser looks at its command queue between steps).

pub mod backend;
pub mod clock;
pub mod messages;
pub mod plan;
pub mod recipe;
pub mod slowmo;
pub mod split;
pub mod sweep;
pub mod trainer;

/// Optimiser settings of one step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hyper {
    /// Adam learning rate.
    pub lr: f32,
    /// Global-norm gradient clipping threshold (`clip_grad_norm_`); 0 = off.
    pub max_norm: f32,
}
