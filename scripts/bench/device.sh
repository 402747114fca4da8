#!/usr/bin/env bash
# The GPU path against the CPU path on a machine with a real GPU, natively (Linux, Vulkan; Rust
# and this repository present; no network, Node.js or Chromium needed): one command that
# builds the native binaries and prints, for each cell,
#   - the names recipe: `train-names --epochs 1` (hidden 128, batch 64, seed 0), training seconds
#     of the epoch, `--backend gpu` and `--backend cpu`;
#   - the long-memory lab's delay task: `delay-copy` at recipe R (length 96, hidden 128,
#     batch 32), median ms per training step over the steps without a held-out evaluation,
#     both backends;
#   - `bench`'s step time and the host's dispatches / submits / read-backs per training step at
#     both shapes (names T = 7, batch 64; delay T = 96, batch 32).
# It reports; it asserts no times. It stops with a clear message, before any timing, when wgpu
# finds no GPU adapter or only a CPU one (lavapipe, SwiftShader): those figures would not be a
# GPU's. It prints the adapter it found either way.
#
#   scripts/bench/device.sh                      # on the GPU machine
#   scripts/bench/device.sh --allow-cpu-adapter  # let a CPU adapter stand in (to try the script)
#   scripts/bench/device.sh --cells lstm --delay-steps 40 --skip-build
#
# Options: --cells LIST (default lstm,gru,rnn; the delay task runs lstm and rnn of them, as the
# lab's recipe does), --delay-steps N (default 60), --skip-build (use the binaries as built),
# --allow-cpu-adapter. Environment: CARGO_TARGET_DIR; UNROLL_DEVICE_PROFILE (cargo profile,
# default `device`, defined here on cargo's command line: the release settings without
# cross-crate LTO, to build in less time; `release` gives the shipped settings);
# UNROLL_NAMES_DIR (the 18 names files; default www/data/names or $UNROLL_SHARED_DIR/data/names,
# else filled by `node scripts/fetch-data.mjs` where Node.js is present); UNROLL_DEVICE_BUDGET
# (seconds, default 300: a step that would start after it is skipped and said so).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"

CELLS="lstm,gru,rnn"
DELAY_STEPS=60
BUILD=1
ALLOW_CPU=0
usage() { sed -n '2,27p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case "$1" in
    --cells) CELLS="$2"; shift 2 ;;
    --delay-steps) DELAY_STEPS="$2"; shift 2 ;;
    --skip-build) BUILD=0; shift ;;
    --allow-cpu-adapter) ALLOW_CPU=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "device.sh: unknown option $1 (--help)" >&2; exit 2 ;;
  esac
done

die() { echo "device.sh: $*" >&2; exit 1; }
BUDGET="${UNROLL_DEVICE_BUDGET:-300}"
START=$SECONDS
left() { echo $((BUDGET - (SECONDS - START))); }
PROFILE="${UNROLL_DEVICE_PROFILE:-device}"
TARGET="${CARGO_TARGET_DIR:-$ROOT/target}"
BIN="$TARGET/$PROFILE"
export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-/tmp/xdg-$(id -u)}"
mkdir -p "$XDG_RUNTIME_DIR"

echo "# device.sh on $(hostname), $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ //') ($(nproc) threads; the CPU path uses one)"

if [ "$BUILD" = 1 ]; then
  echo "building bench, train-names, delay-copy (profile $PROFILE) ..."
  t0=$SECONDS
  profile_def=()
  [ "$PROFILE" = device ] && profile_def=(--config 'profile.device.inherits="release"' --config 'profile.device.lto=false' --config 'profile.device.codegen-units=16')
  cargo build -q "${profile_def[@]}" --profile "$PROFILE" -p unroll-core --bin bench --bin train-names --bin delay-copy
  echo "built in $((SECONDS - t0)) s"
fi
for b in bench train-names delay-copy; do
  [ -x "$BIN/$b" ] || die "$BIN/$b is missing (build it, or drop --skip-build)"
done

# The adapter, before any timing: bench prints "GPU path: NAME (Vulkan, DeviceType), ..." or
# "GPU path: unavailable (why)".
probe="$("$BIN/bench" --backend gpu --cells rnn --iters 1 --warmup 0 --hidden-size 8 --batch-size 1 --seq-len 1 2>&1 || true)"
line="$(printf '%s\n' "$probe" | grep -m1 '^GPU path:' || true)"
[ -n "$line" ] || die "bench printed no adapter line; its output was:
$probe"
case "$line" in
  "GPU path: unavailable"*) die "no GPU adapter found (bench: ${line#GPU path: }) Is the NVIDIA Vulkan driver installed (vulkaninfo --summary)?" ;;
esac
adapter="${line#GPU path: }"
adapter="${adapter%%, whole-sequence*}"
echo "adapter: $adapter"
case "$adapter" in
  *", Cpu)"*)
    if [ "$ALLOW_CPU" = 1 ]; then
      echo "NOTE: this adapter is a CPU rasteriser, not a GPU (--allow-cpu-adapter): the GPU figures below are a CPU running the kernels."
    else
      die "the only adapter is a CPU rasteriser ($adapter), not a GPU; stopping rather than timing it. Run with --allow-cpu-adapter to time it anyway."
    fi ;;
esac

names_dir="${UNROLL_NAMES_DIR:-}"
if [ -z "$names_dir" ]; then
  for d in www/data/names "${UNROLL_SHARED_DIR:-../shared}/data/names"; do
    if ls "$d"/*.txt >/dev/null 2>&1; then names_dir="$d"; break; fi
  done
fi
if [ -z "$names_dir" ] && command -v node >/dev/null 2>&1; then
  node scripts/fetch-data.mjs >&2 && names_dir=www/data/names
fi
[ -n "$names_dir" ] || die "the names data is not here: set UNROLL_NAMES_DIR to a folder of the 18 names files (Arabic.txt …)"

# the first number that JSON key $1 has on stdin (nothing where none)
field() { grep -o "\"$1\":[0-9.eE+-]*" | head -n1 | cut -d: -f2 || true; }
# the number on stdin with $1 decimals (nothing for nothing)
round() { awk -v d="$1" 'NF { printf "%.*f\n", d, $1 }'; }
# median of the numbers on stdin
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.4g\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
# runs "$@" when the budget allows, else says why not on the script's stderr (fd 3, whatever the
# caller does with the command's own stderr); stdout of the command on stdout
exec 3>&2
budgeted() {
  local l rc=0
  l="$(left)"
  if [ "$l" -le 0 ]; then echo "skipped ${1##*/}: the ${BUDGET}-s budget is spent" >&3; return 1; fi
  timeout "$l" "$@" || rc=$?
  [ "$rc" != 124 ] || echo "stopped ${1##*/} at the ${BUDGET}-s budget" >&3
  return "$rc"
}

IFS=, read -ra cells <<< "$CELLS"
echo
echo "## Names recipe: one epoch of train-names (hidden 128, batch 64, seed 0), training seconds"
echo
echo "| cell | GPU s/epoch | CPU s/epoch | GPU speed-up (CPU / GPU) | GPU val_acc | CPU val_acc |"
echo "|---|---:|---:|---:|---:|---:|"
for cell in "${cells[@]}"; do
  declare -A sec=() acc=()
  for backend in gpu cpu; do
    err="$(mktemp)"
    out="$(budgeted "$BIN/train-names" --epochs 1 --backend "$backend" --cell "$cell" --seed 0 --data-dir "$names_dir" 2>"$err" || true)"
    if [ "$backend" = gpu ] && ! grep -q '^backend: GPU' "$err"; then
      echo "train-names --backend gpu did not run on the GPU: $(grep -m1 '^backend\|^notice\|error' "$err" || tail -n1 "$err")" >&2
    fi
    rm -f "$err"
    sec[$backend]="$(printf '%s\n' "$out" | field sec | round 2)"
    acc[$backend]="$(printf '%s\n' "$out" | field val_acc | round 4)"
  done
  ratio="$(awk -v g="${sec[gpu]:-0}" -v c="${sec[cpu]:-0}" 'BEGIN { if (g > 0 && c > 0) printf "%.2f", c / g; else print "-" }')"
  printf '| %s | %s | %s | %s | %s | %s |\n' "$cell" "${sec[gpu]:--}" "${sec[cpu]:--}" "$ratio" "${acc[gpu]:--}" "${acc[cpu]:--}"
done

echo
echo "## Delay task: delay-copy at recipe R (length 96, delay 8, hidden 128, batch 32), $DELAY_STEPS steps, median ms/step"
echo
echo "| cell | GPU ms/step | CPU ms/step | GPU speed-up (CPU / GPU) |"
echo "|---|---:|---:|---:|"
for cell in "${cells[@]}"; do
  [ "$cell" = gru ] && continue
  declare -A ms=()
  for backend in gpu cpu; do
    out="$(budgeted "$BIN/delay-copy" --cell "$cell" --seeds 1 --steps "$DELAY_STEPS" --eval-every 100000 --backend "$backend" 2>/dev/null || true)"
    # Steps 2.. without a held-out evaluation (step 1 compiles the kernels).
    ms[$backend]="$(printf '%s\n' "$out" | { grep '"heldout_acc":null' || true; } | { grep -v '"step":1,' || true; } | { grep -o '"ms":[0-9.eE+-]*' || true; } | cut -d: -f2 | median)"
  done
  ratio="$(awk -v g="${ms[gpu]:-0}" -v c="${ms[cpu]:-0}" 'BEGIN { if (g > 0 && c > 0) printf "%.2f", c / g; else print "-" }')"
  printf '| %s | %s | %s | %s |\n' "$cell" "${ms[gpu]:--}" "${ms[cpu]:--}" "$ratio"
done

echo
echo "## bench: one training step (forward + backward + Adam) and the host's work per step"
for shape in "7 64" "96 32"; do
  read -r t b <<< "$shape"
  echo
  echo "### seq_len $t, batch $b, hidden 128"
  budgeted "$BIN/bench" --backend both --simd on --cells "$CELLS" --iters 10 --warmup 2 --seq-len "$t" --batch-size "$b" 2>/dev/null \
    | sed -n '/^| cell | path/,/^$/p; /^| cell | compute dispatches/,/^$/p' || true
done
echo
echo "total: $((SECONDS - START)) s (budget ${BUDGET} s)"
