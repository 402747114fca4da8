#!/usr/bin/env bash
# The generation lab's reference run: the lab's default recipe (GRU, hidden 64, one layer, the
# language's one-hot at every step, Adam lr 0.005, batches of 32, clipping at 1.0, 3 epochs) on
# the names classifier's split (seed 0), trained by Unroll's native runner (`generate-names`,
# the CPU path of the browser) and by the lab's "As PyTorch" script (written by
# `generate-names --as-pytorch`, run with torch.set_num_threads(1)), seeds 0, 1, 2, one run at a
# time. Prints per run the held-out loss per character (nats), the perplexity, the bigram
# baseline and how far below it the run is, and the means over the languages of 200 names each
# at temperature 0.5 (shares of new and training names, mean length); then each side's mean and
# seed spread of the held-out loss, and whether every Unroll run lies within PyTorch's spread.
# A benchmark that reports, not a test: it never fails on the figures.
#
#   scripts/generate-report.sh [OUT_DIR]          (default OUT_DIR: a new folder under /tmp)
#   EPOCHS=1 scripts/generate-report.sh           (a shorter recipe)
#   GENERATE_NAMES_BIN=path scripts/generate-report.sh   (a runner already built; default:
#                                                   `cargo build --release --bin generate-names`)
#
# Logs: OUT_DIR/<unroll|torch>-seed<S>.jsonl (JSON lines of either side, the same format) and the
# script run, OUT_DIR/generate.py; the report is printed and written to OUT_DIR/report.md.
set -euo pipefail
OUT="${1:-$(mktemp -d /tmp/generate-report.XXXXXX)}"
EPOCHS="${EPOCHS:-3}"
source "$(dirname "${BASH_SOURCE[0]}")/report-runner.sh"
report_runner generate-names GENERATE_NAMES_BIN
"$BIN" --epochs "$EPOCHS" --as-pytorch "$OUT/generate.py"
DATA_ARGS=()
[ -n "${UNROLL_NAMES_DIR:-}" ] && DATA_ARGS=(--data-dir "$UNROLL_NAMES_DIR")
echo "logs: $OUT" >&2
for seed in 0 1 2; do
  for impl in $IMPLS; do
    log="$OUT/$impl-seed$seed.jsonl"
    if [ "$impl" = unroll ]; then
      "$BIN" --epochs "$EPOCHS" --seed "$seed" --show 0 "${DATA_ARGS[@]}" > "$log"
    else
      # The script finds the data where the runner does unless told otherwise.
      data="${UNROLL_NAMES_DIR:-$( [ -d www/data/names ] && echo www/data/names || echo ../shared/data/names)}"
      python3 "$OUT/generate.py" --seed "$seed" --threads 1 --show 0 --data "$data" > "$log"
    fi
    echo "done: $impl seed $seed" >&2
  done
done

python3 - "$OUT" "$EPOCHS" <<'EOF_PY' | tee "$OUT/report.md"
import json
import statistics
import sys
from pathlib import Path

out, epochs = Path(sys.argv[1]), sys.argv[2]
rows = {}
for log in sorted(out.glob("*-seed*.jsonl")):
    impl, seed = log.stem.split("-seed")
    lines = [json.loads(l) for l in log.read_text().splitlines() if l.startswith("{")]
    base = next(l["baselines"] for l in lines if "baselines" in l)
    last = [l for l in lines if "epoch" in l][-1]
    summary = next(l["summary"] for l in lines if "summary" in l)
    secs = sum(l["sec"] for l in lines if "epoch" in l)
    rows[(impl, int(seed))] = (base, last, summary, secs)

print(f"Default recipe, {epochs} epochs, split seed 0; samples: 200 per language at temperature 0.5.\n")
print("| run | held-out loss/char | perplexity | bigram | below bigram | samples: new | training names | mean length | training s |")
print("|---|---|---|---|---|---|---|---|---|")
names = {"unroll": "Unroll", "torch": "PyTorch"}
for impl in ["unroll", "torch"]:
    for seed in (0, 1, 2):
        if (impl, seed) not in rows:
            continue
        base, last, s, secs = rows[(impl, seed)]
        print(f"| {names[impl]}, seed {seed} | {last['heldout_loss']:.4f} | {last['perplexity']:.3f} | {base['bigram']:.4f} "
              f"| {base['bigram'] - last['heldout_loss']:.3f} | {s['new']:.3f} | {s['training']:.3f} | {s['mean_length']:.2f} | {secs:.0f} |")
print()
spread = {}
for impl in ["unroll", "torch"]:
    losses = [rows[(impl, s)][1]["heldout_loss"] for s in (0, 1, 2) if (impl, s) in rows]
    if losses:
        spread[impl] = (min(losses), max(losses))
        sd = statistics.stdev(losses) if len(losses) > 1 else 0.0
        print(f"{names[impl]}: held-out loss mean {statistics.mean(losses):.4f}, sd {sd:.4f}, "
              f"range {min(losses):.4f} to {max(losses):.4f}")
if "torch" in spread and "unroll" in spread:
    lo, hi = spread["torch"]
    outside = [(s, rows[("unroll", s)][1]["heldout_loss"]) for s in (0, 1, 2)
               if not lo <= rows[("unroll", s)][1]["heldout_loss"] <= hi]
    if outside:
        gaps = ", ".join(f"seed {s}: {x:.4f} ({x - hi:+.4f} from the range's top)" if x > hi
                         else f"seed {s}: {x:.4f} ({x - lo:+.4f} from the range's bottom)" for s, x in outside)
        print(f"Unroll outside PyTorch's seed range [{lo:.4f}, {hi:.4f}]: {gaps}")
    else:
        print(f"Every Unroll run lies within PyTorch's seed range [{lo:.4f}, {hi:.4f}].")
EOF_PY
