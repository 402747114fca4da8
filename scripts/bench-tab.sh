#!/usr/bin/env bash
# Benchmark of training in the browser tab (CPU path and WebGPU on SwiftShader, headless
# Chromium) next to the native trainer (SIMD and portable matrix products), PyTorch on one
# thread (when torch is installed) and the GPU host's dispatch / submit / read-back counts.
# It reports; it asserts no times. Options are those of scripts/bench/tab.mjs (--help), e.g.
#
#   ./scripts/bench-tab.sh                                   # LSTM, GRU, RNN; CPU and WebGPU
#   ./scripts/bench-tab.sh --cells lstm --backends cpu --skip-torch
#
# UNROLL_BENCH_SKIP_BUILD=1 reuses dist/ and the release binaries as they are.
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
exec node scripts/bench/tab.mjs "$@"
