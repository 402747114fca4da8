#!/usr/bin/env bash
# Installs what is missing (build tools, Chromium, chromedriver, Mesa's Vulkan driver, CJK fonts,
# the names data), then runs every test of Unroll:
#   1. native `cargo test`: CPU math vs PyTorch fixtures, WGSL kernels on Vulkan (lavapipe), data,
#      URL codec, the app's page logic; beside it, the release build with Trunk (brotli quality 9
#      for its pre-compressed copies); then Node tests of the data download path and the scripts
#   2. end-to-end tests in headless Chromium (WebGPU and CPU) against that build, and beside them,
#      at the lowest CPU priority:
#      - the native suite's learning checks that take minutes (its #[ignore]d tests: the adding
#        problem at the lab's defaults, three cells by three seeds)
#      - the native trainer (the binary `cargo test` built, test profile) on the real data, CPU
#        path, 5 epochs per cell: val_acc must be within 0.03 of the lowest PyTorch figure
#        (LSTM >= 0.668, GRU >= 0.699, RNN >= 0.683)
#      - the CPU path's wasm kernels on WebAssembly under Node.js (every PyTorch fixture on the
#        relaxed-SIMD and simd128 kernels)
#      - the safetensors interchange with PyTorch and the "As PyTorch" scripts (names, long
#        memory, generation) run under PyTorch (only where torch is importable)
# It prints each suite's wall time, then, last, "summary: N passed, M failed" over all of them.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
set +e
unroll_setup_test || exit 1
unroll_build_cache # CI only: the compiled dependencies of earlier runs (scripts/setup.sh)
cd "$UNROLL_ROOT"
LOGS="$(mktemp -d)"
# Mesa's Vulkan loader complains (harmlessly) when this is unset, as it is under CI.
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$LOGS/xdg}"; mkdir -p "$XDG_RUNTIME_DIR"; chmod 700 "$XDG_RUNTIME_DIR"
passed=0; failed=0

count_cargo() { # sums "test result: ok. N passed; M failed" lines
  local p f
  p=$(grep -Eo 'test result: [a-zA-Z]+\. [0-9]+ passed' "$1" | awk '{s+=$4} END {print s+0}')
  f=$(grep -Eo '[0-9]+ failed;' "$1" | awk '{s+=$1} END {print s+0}')
  passed=$((passed + p)); failed=$((failed + f))
}
count_node() { # node --test TAP summary: "# pass N" / "# fail M" / "# cancelled K" (a test past its timeout: a failure)
  local p f
  p=$(grep -E '^# pass [0-9]+' "$1" | awk '{s+=$3} END {print s+0}')
  f=$(grep -E '^# (fail|cancelled) [0-9]+' "$1" | awk '{s+=$3} END {print s+0}')
  passed=$((passed + p)); failed=$((failed + f))
}
times="" # one "NAME SECONDS" line per suite, printed at the end
suite() { # suite NAME COUNTER CMD...: runs CMD, tees its log, adds its counts and its wall time; a crash counts as a failure
  local name="$1" counter="$2"; shift 2
  log "== $name: $*"
  local start=$SECONDS
  "$@" 2>&1 | tee "$LOGS/$name.log"
  local rc=${PIPESTATUS[0]}
  local took=$((SECONDS - start))
  local before=$failed
  "$counter" "$LOGS/$name.log"
  if [ "$rc" -ne 0 ] && [ "$failed" -eq "$before" ]; then failed=$((failed + 1)); log "$name exited with $rc"; fi
  log "== $name: ${took} s"
  times+=$(printf '%-16s %5d s' "$name" "$took")$'\n'
}
# record NAME CMD...: runs CMD into $LOGS/NAME.log, with its exit status and its seconds beside it.
record() {
  local name="$1"; shift
  local start=$SECONDS
  "$@" >"$LOGS/$name.log" 2>&1; echo $? >"$LOGS/$name.rc"; echo $((SECONDS - start)) >"$LOGS/$name.took"
}
# A suite in the background: started now, its log kept, counted and timed when `suite_wait` joins it.
suite_bg() { # suite_bg NAME COUNTER CMD...
  local name="$1"; shift 2
  log "== $name (in the background): $*"
  record "$name" "$@" &
  eval "bg_pid_${name//-/_}=$!"
}
suite_wait() { # suite_wait NAME COUNTER: waits for NAME, prints its log, adds its counts and time
  local name="$1" counter="$2" pid_var="bg_pid_${1//-/_}"
  wait "${!pid_var}" 2>/dev/null # a group's suites share one process: the first wait joins them all
  cat "$LOGS/$name.log"
  local rc; rc=$(cat "$LOGS/$name.rc" 2>/dev/null || echo 1)
  local took; took=$(cat "$LOGS/$name.took" 2>/dev/null || echo 0)
  local before=$failed
  "$counter" "$LOGS/$name.log"
  if [ "$rc" -ne 0 ] && [ "$failed" -eq "$before" ]; then failed=$((failed + 1)); log "$name exited with $rc"; fi
  log "== $name: ${took} s (in the background)"
  times+=$(printf '%-16s %5d s (in the background)' "$name" "$took")$'\n'
}
count_plain() { # last "N passed, M failed[, K skipped]" line
  local line; line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | tail -1); line=${line:-0 passed, 0 failed}
  passed=$((passed + $(awk '{print $1}' <<<"$line"))); failed=$((failed + $(awk '{print $3}' <<<"$line")))
}
check_accuracy() { # check_accuracy CELL MIN_VAL_ACC: the native trainer, CPU path, 5 epochs on the real data
  local cell="$1" min="$2" out="$LOGS/train-names-$1.jsonl"
  "$BIN_DIR/train-names" --cell "$cell" --epochs 5 --backend cpu --seed 0 | tee "$out" || return 1
  node -e '
    const [file, cell, min] = process.argv.slice(1);
    const lines = require("fs").readFileSync(file, "utf8").trim().split("\n").map(JSON.parse);
    const last = lines[lines.length - 1];
    const ok = lines.length === 5 && last.val_acc >= Number(min);
    const sec = lines.reduce((s, l) => s + l.sec, 0) / lines.length;
    console.log(`train-names ${cell} (cpu): ${lines.length} epochs, final val_acc ${last.val_acc.toFixed(4)} (needs >= ${min}), ${sec.toFixed(1)} s/epoch`);
    console.log(ok ? "1 passed, 0 failed" : "0 passed, 1 failed");
    process.exit(ok ? 0 : 1);' "$out" "$cell" "$min"
}

# The release wasm build (what the e2e tests load) runs beside the native suites: much of it is
# one thread (the fat-LTO link and wasm-opt), and it builds for another target and profile than
# `cargo test`, so neither waits for the other's build lock. UNROLL_SERIAL_BUILD=1 runs it in turn.
# The tests need the pre-compressed copies but not the last percent of brotli (quality 11 costs
# about 30 s on the wasm module; quality 9 takes 3 s and is 4 % larger).
trunk_build() { env UNROLL_BROTLI_QUALITY="${UNROLL_BROTLI_QUALITY:-9}" bash -c 'trunk build --release --skip-version-check && echo "test result: ok. 1 passed; 0 failed;"'; }
[ -n "${UNROLL_SERIAL_BUILD:-}" ] || suite_bg trunk-build count_cargo trunk_build
# UNROLL_CARGO_TIMINGS=1 also writes Cargo's build timings (target/cargo-timings/).
suite cargo-test count_cargo cargo test --no-fail-fast ${UNROLL_CARGO_TIMINGS:+--timings}
suite node-data count_node node --test scripts/tests/
# The browser build's CPU kernels on WebAssembly itself (core/tests/web/packed.rs, fixtures.rs):
# the packed products bit for bit against their twins, and every PyTorch fixture on both kernels
# (relaxed SIMD, `f32x4.relaxed_madd`; simd128), under Node.js, which before Node 22 compiles
# relaxed SIMD only with a flag. A debug wasm32 build of the core's test crates (about 4 min on
# the loaded 2-core machine, seconds once built); the tests themselves take about 2 s.
web_tests() {
  local flag=""
  node --experimental-wasm-relaxed-simd -e 0 2>/dev/null && flag=--experimental-wasm-relaxed-simd
  NODE_ARGS="$flag" CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
    cargo test -p unroll-core --target wasm32-unknown-unknown --features web-tests --test fixtures_web --test packed_web
}
# The accuracy checks and the PyTorch suites run the native binaries that `cargo test` built for
# the core's tests (test profile: the core at opt-level 1, its hot dependencies at 2; the same
# numbers as a release build, bit for bit, in about twice its time), so nothing is compiled
# again for them.
BIN_DIR="${CARGO_TARGET_DIR:-$UNROLL_ROOT/target}/debug"
# Thresholds: the lowest validation accuracy PyTorch reaches with the same recipe after 5 epochs
# (LSTM 0.698, GRU 0.729, RNN 0.713: the lowest of 6 runs over 4 seeded splits, PyTorch on one
# CPU thread) minus 0.03.
# later_suites RUN: each suite after `cargo test`, in turn, as `RUN NAME COUNTER CMD...` (RUN is
# `suite`, or `recorded`, which keeps its log, status and time for `suite_wait`).
later_suites() {
  local run="$1"
  # The native suite's learning checks that take minutes (marked #[ignore]: the adding problem
  # at the page's defaults), from the test binary `cargo test` built (nothing is compiled again).
  "$run" learning count_cargo cargo test --no-fail-fast --test suite -- --ignored
  "$run" accuracy-lstm count_plain check_accuracy lstm 0.668
  "$run" accuracy-gru count_plain check_accuracy gru 0.699
  "$run" accuracy-rnn count_plain check_accuracy rnn 0.683
  "$run" web-tests count_cargo web_tests
  if ! command -v python3 >/dev/null 2>&1; then
    log "python3 not found: skipping the PyTorch suites (they also need torch)"
    return 0
  fi
  "$run" torch-interop count_plain env UNROLL_BENCH="$BIN_DIR/bench" python3 core/tests/python/test_safetensors_torch.py
  "$run" torch-script count_plain env UNROLL_TRAIN_NAMES="$BIN_DIR/train-names" python3 core/tests/python/test_as_pytorch.py
  "$run" torch-delay count_plain env UNROLL_DELAY_COPY="$BIN_DIR/delay-copy" UNROLL_LONG_MEMORY="$BIN_DIR/long-memory" python3 core/tests/python/test_delay_pytorch.py
  "$run" torch-generate count_plain env UNROLL_GENERATE_NAMES="$BIN_DIR/generate-names" python3 core/tests/python/test_generate_pytorch.py
}
recorded() { # listed first: a suite that never ends its record counts as failed
  local name="$1" counter="$2"; shift 2
  echo "$name $counter" >>"$LOGS/later"
  record "$name" "$@"
}
if [ -n "${UNROLL_SERIAL_BUILD:-}" ]; then suite trunk-build count_cargo trunk_build; else suite_wait trunk-build count_cargo; fi
# The suites after `cargo test` (the accuracy checks, the wasm kernels' tests, the PyTorch suites)
# run beside the e2e files, in the background at the lowest CPU priority (Linux's SCHED_IDLE
# where `chrt` can set it, else nice 19): the e2e files have the cores whenever they want them,
# and these take what they leave, most of all while the files that run alone have one core to
# themselves. What is left of them when the e2e files end runs on. UNROLL_SERIAL_SUITES=1 runs
# them in turn before the e2e files instead.
if [ -n "${UNROLL_SERIAL_SUITES:-}" ]; then
  later_suites suite
else
  log "== in the background at the lowest CPU priority, beside the e2e files: learning, accuracy-lstm/gru/rnn, web-tests, the PyTorch suites"
  : >"$LOGS/later"
  # A process group of their own (job control on for this one start), which scripts/e2e/run.mjs
  # stops while a file that needs a quiet machine runs (UNROLL_E2E_PAUSE_PGID).
  set -m
  ( chrt --idle --pid 0 "$BASHPID" 2>/dev/null || renice -n 19 -p "$BASHPID" >/dev/null; later_suites recorded ) &
  later_pid=$!
  set +m
  export UNROLL_E2E_PAUSE_PGID="$later_pid"
fi
# Two files at a time (one file's browser leaves much of 2 cores idle), longest first; then the
# files marked `// Runs alone:` (each says why: a bound on the main thread's longest task, a
# race a busy machine shows) one at a time, with nothing beside them but the suites above.
# UNROLL_E2E_CONCURRENCY=1 runs every file in turn (scripts/e2e/run.mjs).
suite e2e count_node env UNROLL_E2E_SKIP_BUILD=1 node scripts/e2e/run.mjs
if [ -z "${UNROLL_SERIAL_SUITES:-}" ]; then
  kill -CONT -"$later_pid" 2>/dev/null # never left stopped, whatever the e2e did
  wait "$later_pid"
  while read -r name counter; do
    eval "bg_pid_${name//-/_}=$later_pid"
    suite_wait "$name" "$counter"
  done <"$LOGS/later"
fi
printf 'suite times (wall clock):\n%s%-16s %5d s\n' "$times" "total" "$SECONDS"
echo "summary: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
