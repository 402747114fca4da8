//! What the long-memory tasks keep across reloads, in the lab's store
//! ([`crate::sequence::store::MEMORY`]): the held-out curves of the last [`KEPT_SWEEPS`]
//! sweeps, each under its configuration's canonical query, and whether it had finished, as a
//! list of [`KeptSweep`] (the lab's shared format, [`crate::sequence::kept`]); beside it the
//! training seed's latest checkpoint ([`ResumePoint`]).
//! After a reload during a sweep the page shows its finished runs and the training seed as far
//! as its checkpoint, and Go on trains the rest from there, with the numbers of a sweep that
//! never stopped.

pub use crate::sequence::kept::{keep, KeptSweep, KEPT_SWEEPS};

/// The training seed's latest checkpoint of a sweep, as kept: the engine's checkpoint (every
/// run of its seed, with its held-out curve), no training-batch curves.
pub type ResumePoint = crate::sequence::runs::ResumePoint<()>;
