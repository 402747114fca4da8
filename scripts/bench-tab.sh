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
#   ./scripts/bench-tab.sh --readme                         # the README's table, written into it
#
# --readme runs the names recipe in full (every cell, CPU and WebGPU, the native trainer and
# PyTorch where it is installed) and nothing else, then writes the README's benchmark table
# from that one run (the machine by its CPU model, the load, the commit).
#
# UNROLL_BENCH_SKIP_BUILD=1 reuses dist/ and the release binaries as they are;
# UNROLL_BENCH_DELAY=0 leaves out the delay task, UNROLL_BENCH_DELAY=only runs it alone.
#
# Before/after in one run: UNROLL_BENCH_BEFORE=DIR names a checkout of an earlier commit, built
# (`trunk build --release` and `cargo build --release --bin bench`; its binaries in
# DIR/target/release, or UNROLL_BENCH_BEFORE_BIN). The names recipe then runs in the tab on
# both builds, alternating cell by cell (UNROLL_BENCH_CELLS, default lstm,gru,rnn; the options
# above apply to both), and scripts/bench/gpu-sides.mjs times both `bench` binaries natively on
# each Vulkan driver found (lavapipe; SwiftShader's, from Chromium) at the names and delay
# shapes. The delay task in the tab runs on this build only.
#
# Then a sweep's runs in parallel Web Workers (scripts/bench/sweep-workers.mjs): a delay-copy
# sweep of 2 seeds × 2 cells at a small budget with workers=1, 2 and N (automatic: the cores
# less one), side by side, next to PyTorch running the page's "As PyTorch" script of the same
# sweep on 1 thread and on N threads (the cores; needs torch and the release `delay-copy`),
# printed as one table (seconds, speed-up, the page's main-thread busy time, the same numbers
# or not, memory per worker); UNROLL_BENCH_WORKERS=0 leaves it out, UNROLL_BENCH_WORKERS=only
# runs it alone:
#
#   UNROLL_BENCH_SKIP_BUILD=1 UNROLL_BENCH_WORKERS=only ./scripts/bench-tab.sh
#
# Then one names run split across workers (scripts/bench/names-workers.mjs): the names recipe's
# LSTM epoch in the tab with workers=1, 2 and N (the machine's logical CPUs), the native trainer
# split the same way, next to PyTorch on 1 thread and on N threads, as one table;
# UNROLL_BENCH_SPLIT=0 leaves it out, UNROLL_BENCH_SPLIT=only runs it alone:
#
#   UNROLL_BENCH_SKIP_BUILD=1 UNROLL_BENCH_SPLIT=only ./scripts/bench-tab.sh
#
# Last, the browser's WebGPU floor (scripts/bench/webgpu-floor.mjs: what one dispatch and one
# submit with its read-back cost, and the adapter's best multiply-add rate);
# UNROLL_BENCH_WEBGPU_FLOOR=0 leaves it out.
set -euo pipefail
# One of the workers benchmarks alone: builds (unless skipped) the release binary its PyTorch
# and native rows need and the app, then hands over to its script.
only_bench() {
  local bin="$1" script="$2"
  shift 2
  ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  source "$ROOT/scripts/setup.sh"
  unroll_setup_test
  cd "$ROOT"
  if [ "${UNROLL_BENCH_SKIP_BUILD:-0}" != 1 ]; then
    cargo build --release --bin "$bin"
    trunk build --release --skip-version-check
  fi
  export UNROLL_BIN_DIR="${UNROLL_BIN_DIR:-${CARGO_TARGET_DIR:-$ROOT/target}/release}"
  exec node "scripts/bench/$script" "$@"
}
if [ "${UNROLL_BENCH_SPLIT:-1}" = only ]; then only_bench train-names names-workers.mjs "$@"; fi
if [ "${UNROLL_BENCH_WORKERS:-1}" = only ]; then only_bench delay-copy sweep-workers.mjs "$@"; fi
for arg in "$@"; do
  if [ "$arg" = --readme ]; then
    : "${UNROLL_BENCH_DELAY:=0}" "${UNROLL_BENCH_WEBGPU_FLOOR:=0}"
    if [ -n "${UNROLL_BENCH_BEFORE:-}" ]; then echo "bench-tab: --readme measures this build alone; unset UNROLL_BENCH_BEFORE" >&2; exit 2; fi
  fi
done
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
source "$ROOT/scripts/setup.sh"
unroll_setup_test
cd "$ROOT"
if [ "${UNROLL_BENCH_SKIP_BUILD:-0}" != 1 ]; then
  cargo build --release --bin train-names --bin bench --bin delay-copy
  trunk build --release --skip-version-check
fi
export UNROLL_BIN_DIR="${UNROLL_BIN_DIR:-${CARGO_TARGET_DIR:-$ROOT/target}/release}"
BEFORE="${UNROLL_BENCH_BEFORE:-}"
if [ "${UNROLL_BENCH_DELAY:-1}" != only ] && [ -n "$BEFORE" ]; then
  BEFORE_BIN="${UNROLL_BENCH_BEFORE_BIN:-$BEFORE/target/release}"
  IFS=, read -ra cells <<< "${UNROLL_BENCH_CELLS:-lstm,gru,rnn}"
  for cell in "${cells[@]}"; do
    echo "## $cell, before: $BEFORE/dist"
    UNROLL_E2E_DIST="$BEFORE/dist" UNROLL_BIN_DIR="$BEFORE_BIN" node scripts/bench/tab.mjs --cells "$cell" "$@"
    echo "## $cell, after: $ROOT/dist"
    node scripts/bench/tab.mjs --cells "$cell" "$@"
  done
  node scripts/bench/gpu-sides.mjs --before "$BEFORE_BIN" --after "$UNROLL_BIN_DIR"
elif [ "${UNROLL_BENCH_DELAY:-1}" != only ]; then
  node scripts/bench/tab.mjs "$@"
fi
if [ "${UNROLL_BENCH_DELAY:-1}" != 0 ]; then
  node scripts/bench/delay-tab.mjs
fi
if [ "${UNROLL_BENCH_WORKERS:-1}" != 0 ]; then
  node scripts/bench/sweep-workers.mjs
fi
if [ "${UNROLL_BENCH_SPLIT:-1}" != 0 ]; then
  node scripts/bench/names-workers.mjs
fi
if [ "${UNROLL_BENCH_WEBGPU_FLOOR:-1}" != 0 ]; then
  node scripts/bench/webgpu-floor.mjs
fi
