//! Tests across the app's pages: every message in both languages, the first frame's texts, the sequence lab driver's model on real sweeps, the long-memory lab's
//! verdicts and the long-memory tasks' outcomes as the page words them, and the app's layers
//! (no page imports another, no import runs up, no cycle between folders). They live in the library's unit tests (not in `tests/`)
//! so that `cargo test` compiles the app once, as its test harness only.

mod delay_verdict;
mod frame;
mod lab_driver;
mod layers;
mod memory_outcome;
mod messages;
mod sequence_store;
