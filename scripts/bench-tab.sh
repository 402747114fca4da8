#!/usr/bin/env bash
# Benchmark of training in the browser tab (CPU path and WebGPU on SwiftShader, headless
# Chromium) next to the native trainer (SIMD and portable matrix products), PyTorch on one
# thread (when torch is installed) and the GPU host's dispatch / submit / read-back counts.
# Then the long-memory lab's delay task at recipe R's size (length 96, hidden 128, batch 32;
# LSTM and RNN): tab CPU ms/step, tab WebGPU ms/step and what `backend=auto` picks with its two
# timings (scripts/bench/delay-tab.mjs). It reports; it asserts no times. Options are those of
# scripts/bench/tab.mjs (--help), e.g.
#
#   ./scripts/bench-tab.sh                                   # LSTM, GRU, RNN; CPU and WebGPU
#   ./scripts/bench-tab.sh --cells lstm --backends cpu --skip-torch
#
# UNROLL_BENCH_SKIP_BUILD=1 reuses dist/ and the release binaries as they are;
# UNROLL_BENCH_DELAY=0 leaves out the delay task, UNROLL_BENCH_DELAY=only runs it alone.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
unroll_setup_test
cd "$ROOT"
if [ "${UNROLL_BENCH_SKIP_BUILD:-0}" != 1 ]; then
  cargo build --release --bin train-names --bin bench
  trunk build --release --skip-version-check
fi
export UNROLL_BIN_DIR="${UNROLL_BIN_DIR:-${CARGO_TARGET_DIR:-$ROOT/target}/release}"
if [ "${UNROLL_BENCH_DELAY:-1}" != only ]; then
  node scripts/bench/tab.mjs "$@"
fi
if [ "${UNROLL_BENCH_DELAY:-1}" != 0 ]; then
  node scripts/bench/delay-tab.mjs
fi
