#!/usr/bin/env bash
# Long-memory tasks report: the adding problem, copy memory and temporal order trained by
# Unroll's native runner (`long-memory`, the CPU path of the browser) and by the PyTorch
# reference (core/templates/long_memory.py, the lab's "As PyTorch" script; one thread), RNN, LSTM
# and GRU, seeds 0, 1, 2,
# each task's default length and recipe (hidden 64, batch 32, Adam lr 0.003, clipping at 1.0,
# LSTM forget-gate bias 1.0), both measured on Unroll's fixed held-out set (1024 sequences)
# every 100 steps. Prints per task and cell the final held-out figure of every seed, Unroll
# next to PyTorch, and "solved after N sequences" per run (the first evaluation that met the
# task's criterion; "-" = not within the budget):
#   adding  T = 50,  1500 steps: held-out MSE (baseline 1/6 ≈ 0.167), solved: MSE < 0.01
#   copy    T = 20,  1000 steps: recall cross-entropy, nats (baseline ln 8 ≈ 2.079),
#           solved: < 0.1 × ln 8
#   order   T = 100,  800 steps: held-out accuracy (baseline 0.25), solved: ≥ 0.95
# A benchmark that reports, not a test: it never fails on the figures.
#
#   scripts/memory-report.sh [OUT_DIR]        (default OUT_DIR: a new folder under /tmp)
#   JOBS=2 scripts/memory-report.sh           (parallel processes; default 1)
#   STEPS_SCALE=0.1 scripts/memory-report.sh  (a quick trial: every budget × 0.1)
#   TASKS="adding order" scripts/memory-report.sh
#   LONG_MEMORY_BIN=path scripts/memory-report.sh   (a runner already built; default: build
#                                                    `cargo build --release --bin long-memory`)
#
# Logs: OUT_DIR/<impl>-<task>-<cell>-seed<S>.jsonl (JSON lines of either side; the same
# format); the report is printed and written to OUT_DIR/report.md.
set -euo pipefail
OUT="${1:-$(mktemp -d /tmp/memory-report.XXXXXX)}"
JOBS="${JOBS:-1}"
SCALE="${STEPS_SCALE:-1}"
TASKS="${TASKS:-adding copy order}"
source "$(dirname "${BASH_SOURCE[0]}")/report-runner.sh"
report_runner long-memory LONG_MEMORY_BIN
TORCH="$ROOT/core/templates/long_memory.py"
steps() { awk -v s="$1" -v k="$SCALE" 'BEGIN { n = int(s * k + 0.5); print (n < 1 ? 1 : n) }'; }
budget() { case $1 in adding) steps 1500 ;; copy) steps 1000 ;; order) steps 800 ;; esac; }

echo "logs: $OUT" >&2
# The PyTorch side only where torch imports (IMPLS); the report says when it is missing.
for task in $TASKS; do
  "$BIN" --task "$task" --dump-heldout "$OUT/heldout-$task.json"
done
# Seed 0 of everything first, then seed 1, then seed 2; the slowest cell first within a seed.
for seed in 0 1 2; do
  for task in $TASKS; do
    for cell in lstm gru rnn; do
      for impl in $IMPLS; do
        echo "$impl $task $cell $seed $(budget "$task")"
      done
    done
  done
done > "$OUT/plan.txt"
run_one() {
  local impl=$1 task=$2 cell=$3 seed=$4 n=$5
  local log="$OUT/$impl-$task-$cell-seed$seed.jsonl"
  if [ "$impl" = unroll ]; then
    "$BIN" --task "$task" --cell "$cell" --seed "$seed" --steps "$n" > "$log" 2> "${log%.jsonl}.err"
  else
    python3 "$TORCH" --task "$task" --cell "$cell" --seed "$seed" --seeds 1 --steps "$n" \
      --eval-every 100 --heldout "$OUT/heldout-$task.json" > "$log" 2> "${log%.jsonl}.err"
  fi
  echo "done: $impl $task $cell seed $seed ($(grep -o '"seconds": *[0-9.]*' "$log" | tr -d '"'))" >&2
}
export -f run_one
export BIN OUT TORCH
started=$(date +%s)
xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _ < "$OUT/plan.txt"
elapsed=$(( $(date +%s) - started ))

python3 - "$OUT" "$elapsed" "$JOBS" <<'EOF_PY' | tee "$OUT/report.md"
import glob, json, os, sys
out, elapsed, jobs = sys.argv[1], sys.argv[2], sys.argv[3]
runs = {}
for path in glob.glob(f"{out}/*.jsonl"):
    lines = [json.loads(l) for l in open(path) if l.strip()]
    summary = next((l for l in lines if l.get("summary")), None)
    if summary is None:
        continue
    impl = os.path.basename(path).split("-")[0]
    runs[(impl, summary["task"], summary["cell"], summary["seed"])] = (summary, [l for l in lines if not l.get("summary")])
METRIC = {"adding": ("held-out MSE", "heldout_loss", "{:.4f}"),
          "copy": ("held-out recall CE (nats)", "heldout_loss", "{:.3f}"),
          "order": ("held-out accuracy", "heldout_acc", "{:.3f}")}
BASE = {"adding": "1/6 ≈ 0.167", "copy": "ln 8 ≈ 2.079", "order": "0.25"}
for task in ["adding", "copy", "order"]:
    rows = [k for k in runs if k[1] == task]
    if not rows:
        continue
    s = runs[rows[0]][0]
    name, key, fmt = METRIC[task]
    print(f"\n### {task} (T = {s['length']}, {s['steps']} steps of 32 sequences; {name}, baseline {BASE[task]}; solved: {s['criterion']})\n")
    print("| cell | params | Unroll s0 / s1 / s2 | PyTorch s0 / s1 / s2 | Unroll solved after (sequences) | PyTorch solved after |")
    print("|---|---|---|---|---|---|")
    for cell in ["rnn", "lstm", "gru"]:
        cols = []
        params = "?"
        for impl in ["unroll", "torch"]:
            vals, solved = [], []
            for seed in [0, 1, 2]:
                r = runs.get((impl, task, cell, seed))
                if r is None:
                    vals.append("·"); solved.append("·"); continue
                params = r[0]["params"]
                vals.append(fmt.format(r[0][key]))
                solved.append("-" if r[0]["solved_after"] is None else f"{r[0]['solved_after']:,}")
            cols.append((" / ".join(vals), " / ".join(solved)))
        print(f"| {cell.upper()} | {params:,} | {cols[0][0]} | {cols[1][0]} | {cols[0][1]} | {cols[1][1]} |" if isinstance(params, int) else f"| {cell} | ? | {cols[0][0]} | {cols[1][0]} | {cols[0][1]} | {cols[1][1]} |")
    # The curve: the mean over seeds at every evaluation, Unroll vs PyTorch.
    steps = sorted({c["step"] for k in rows for c in runs[k][1]})
    print(f"\nMean over seeds of the {name} at each evaluation (Unroll | PyTorch):\n")
    print("| step | " + " | ".join(f"{c.upper()}" for c in ["rnn", "lstm", "gru"]) + " |")
    print("|---|---|---|---|")
    for st in steps[:: max(1, len(steps) // 8)] + ([steps[-1]] if (len(steps) - 1) % max(1, len(steps) // 8) else []):
        cells = []
        for cell in ["rnn", "lstm", "gru"]:
            pair = []
            for impl in ["unroll", "torch"]:
                v = [c[key] for seed in [0, 1, 2] for c in runs.get((impl, task, cell, seed), (None, []))[1] if c["step"] == st]
                pair.append(fmt.format(sum(v) / len(v)) if v else "·")
            cells.append(" \\| ".join(pair))
        print(f"| {st} | " + " | ".join(cells) + " |")
secs = {impl: sum(r[0]["seconds"] for k, r in runs.items() if k[0] == impl) for impl in ["unroll", "torch"]}
torch_ran = any(k[0] == "torch" for k in runs)
torch_time = f"PyTorch {secs['torch']:.0f} s" if torch_ran else "PyTorch not run (torch is not installed)"
print(f"\nTraining time summed over runs (held-out evaluations included): Unroll {secs['unroll']:.0f} s, {torch_time} (one thread each); wall time {elapsed} s with JOBS={jobs}.")
EOF_PY
