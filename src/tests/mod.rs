//! Tests across the app's pages: every message in both languages, and the long-memory lab's
//! verdicts and the long-memory tasks' outcomes as the page words them. They live in the library's unit tests (not in `tests/`)
//! so that `cargo test` compiles the app once, as its test harness only.

mod delay_verdict;
mod memory_outcome;
mod messages;
