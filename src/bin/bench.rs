//! Benchmark (work in progress).
fn main() {}
