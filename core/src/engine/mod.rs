//! The training engine as a service: the messages between the page and the engine's Web
//! Worker, and (in the browser) the worker's side of them.
//!
//! In the browser every training loop — the names classifier on either backend, compare
//! mode's runs, delay-copy and the long-memory tasks, with their held-out evaluations and
//! gradient flow — runs inside one dedicated Web Worker owned by the app shell, so the page's
//! main thread only draws. The page sends [`Command`](protocol::Command)s and receives
//! [`Report`](protocol::Report)s, each message a `postcard`-encoded batch (the worker sends
//! at most one batch per [`FLUSH_MS`]; the page applies them once per animation frame). The
//! user's own data files are parsed there as well and the data set stays there (the page gets
//! its summary), so a file of millions of names never blocks the page.
//!
//! - [`protocol`]: the messages, with the one event type of every sweep
//!   ([`protocol::LabEvent`]) (native too, so `cargo test` checks the round trips).
//! - [`generate`]: names written with a generator's weights (the generation lab's sampler and
//!   quality panel).
//! - [`parallel`]: a sweep's runs in several workers, merged into one sweep's events (the
//!   page's engine client drives it).
//! - [`run`]: the one training loop — a page's query read into its sweep, trained with its
//!   controls and reported as events — run by the worker and by the native commands.
//! - `worker` (wasm only): the worker's message loop, sessions and their controls.
//! - `share_port` (wasm only): a split run's messages between the engine's worker and its
//!   helper workers ([`crate::train::split`]).

/// A data set kept by the worker, numbered by the page (its commands name it by this id).
pub type DataId = u64;

pub mod generate;
pub mod parallel;
pub mod protocol;
pub mod run;
#[cfg(target_arch = "wasm32")]
pub mod share_port;
#[cfg(target_arch = "wasm32")]
pub mod worker;

/// Milliseconds the worker gathers reports before it posts them as one message: at most ten
/// page updates a second while training (a number that changes 60 times a second cannot be
/// read, and every update costs the page a style, layout and paint pass).
pub const FLUSH_MS: f64 = 100.0;
