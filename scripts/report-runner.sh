# What the reference-run reports (memory-report.sh, generate-report.sh) share, sourced after they
# set OUT: the repository root as the working folder, cargo on the PATH, a copy of the release
# runner under $OUT, and which sides run.
#
#   report_runner NAME VAR   builds `cargo build --release --bin NAME` unless $VAR names a runner
#                            already built, copies it to $OUT/NAME (so a rebuild while the runs go
#                            on cannot change the code they run) and sets BIN to the copy
#   IMPLS                    "unroll torch", or "unroll" (and a line on stderr) where torch does
#                            not import
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$OUT"
cd "$ROOT"
export PATH="$HOME/.cargo/bin:$PATH"

report_runner() {
  local name=$1 var=$2 exe="${!2:-}"
  if [ -z "$exe" ]; then
    cargo build --release --bin "$name" >&2
    exe="${CARGO_TARGET_DIR:-$ROOT/target}/release/$name"
  fi
  cp "$exe" "$OUT/$name"
  BIN="$OUT/$name"
}

IMPLS="unroll torch"
if ! python3 -c 'import torch' 2>/dev/null; then
  IMPLS="unroll"
  echo "PyTorch: torch does not import here, so only Unroll's runs are made" >&2
fi
