#!/usr/bin/env python3
"""The long-memory lab's "As PyTorch" scripts (delay-copy, and each task page's), run under PyTorch.

Runs only when `torch` imports. Otherwise it prints "SKIPPED: …" and "0 passed, 0 failed,
1 skipped", and exits 0.

1. `delay-copy --as-pytorch FILE --steps 400` writes the script for the lab's default
   configuration (recipe R: delay 8, length 96, hidden 128, batch 32, Adam 0.003, clipping 1,
   forget-gate bias 1, RNN and LSTM, seeds 0, 1, 2) with a budget of 400 steps.
2. Both sides train every cell and seed. Their tokens and initial weights come from different
   generators, so they are compared by outcome, as the page states it: before the first step
   every run's loss is chance's ln 10 (±0.05; the script's held-out loss before the first
   step, Unroll's first batch), and after 400 steps every run of both
   cells has learned the delay (held-out token accuracy ≥ 0.8; chance is 0.1). A script that
   shifted the targets, mis-shaped the batch or left the forget-gate bias out of the LSTM's
   gate block would fail one or the other. Both sides' figures are printed.
3. For each task page (adding, copy, order), `long-memory --task TASK --steps 30 --seeds 1
   --as-pytorch FILE` writes the task's script; it runs briefly (RNN, LSTM and GRU, 30 steps,
   held-out evaluations every 10) and must print every cell's evaluations at steps 0, 10, 20
   and 30 and a summary, with finite losses that start where an untrained model starts (copy
   and order: the cross-entropy of a near-uniform guess, ln 10 and ln 4 within 0.25), and on
   the adding and copy tasks a held-out loss after 30 steps below the one before the first.

Usage:  python3 core/tests/python/test_delay_pytorch.py
        UNROLL_DELAY_COPY=target/debug/delay-copy UNROLL_LONG_MEMORY=target/debug/long-memory \
            python3 core/tests/python/test_delay_pytorch.py
The last line is "N passed, M failed" (", K skipped" when skipped).
"""
import math
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from script_checks import Checks, missing, native, script, skipped

STEPS = "400"
LEARNED = 0.8


def delay_copy(*args):
    return native("delay-copy", "UNROLL_DELAY_COPY", *args)


def long_memory(*args):
    return native("long-memory", "UNROLL_LONG_MEMORY", *args)


def by_run(rows):
    """{(cell, seed): (first loss, last held-out accuracy)}: the first loss is the held-out loss
    before the first step where the rows have it (the script), else the first step's batch loss
    (`delay-copy`, whose first line is step 1)."""
    first, last = {}, {}
    for r in rows:
        key = (r["cell"], r["seed"])
        first.setdefault(key, r["loss"] if "loss" in r else r["heldout_loss"])
        if r.get("heldout_acc") is not None:
            last[key] = r["heldout_acc"]
    return {k: (first[k], a) for k, a in last.items()}


def main():
    why = missing("torch", names_data=False)
    if why:
        return skipped(why)
    checks = Checks()
    report = checks.report

    with tempfile.TemporaryDirectory() as tmp:
        py = Path(tmp) / "delay_copy.py"
        delay_copy("--as-pytorch", str(py), "--steps", STEPS)
        text = py.read_text(encoding="utf-8")
        report("the script carries the lab's configuration",
               [] if "    cells=[\"rnn\", \"lstm\"],\n" in text and "    steps=400,\n" in text else ["configuration block not found"])
        # The page's evaluation schedule: every min(100, max(1, steps // 10)) = 40 steps.
        # Both sides train on one thread, so they run at once (one per core).
        with ThreadPoolExecutor(max_workers=2) as pool:
            ours_rows = pool.submit(delay_copy, "--steps", STEPS, "--eval-every", "40")
            theirs_rows = pool.submit(script, py)
            ours, theirs = by_run(ours_rows.result()), by_run(theirs_rows.result())
        print(f"held-out token accuracy after {STEPS} steps (first loss), delay 8:")
        for name, runs in (("Unroll", ours), ("PyTorch", theirs)):
            print(f"  {name:8} " + "  ".join(f"{c} s{s} {a:.3f} ({l:.3f})" for (c, s), (l, a) in sorted(runs.items())))
        expected = {(c, s) for c in ("rnn", "lstm") for s in (0, 1, 2)}
        problems = []
        for name, runs in (("Unroll", ours), ("PyTorch", theirs)):
            if set(runs) != expected:
                problems.append(f"{name}: runs {sorted(runs)}")
            for (c, s), (loss, _) in runs.items():
                if not abs(loss - math.log(10)) <= 0.05:
                    problems.append(f"{name} {c} seed {s}: first held-out loss {loss:.4f}, not ln 10")
        report("both sides start at chance", problems)
        report("both sides learn delay 8 with every cell and seed (accuracy >= 0.8)",
               [f"{name} {c} seed {s}: {a:.3f}" for name, runs in (("Unroll", ours), ("PyTorch", theirs))
                for (c, s), (_, a) in runs.items() if not a >= LEARNED])

        for task in ("adding", "copy", "order"):
            # Not `copy.py`: a script's folder comes first on Python's path, and it would
            # shadow the standard library's `copy`.
            path = Path(tmp) / f"unroll-{task}.py"
            long_memory("--task", task, "--steps", "30", "--seeds", "1", "--as-pytorch", str(path))
            text = path.read_text(encoding="utf-8")
            problems = [] if f"    task=\"{task}\",\n" in text and "    steps=30,\n" in text else ["configuration block not found"]
            rows = script(path, "--eval-every", "10")
            evals = [r for r in rows if not r.get("summary")]
            summaries = [r for r in rows if r.get("summary")]
            for cell in ("rnn", "lstm", "gru"):
                mine = [r for r in evals if r["cell"] == cell]
                steps = [r["step"] for r in mine]
                if steps != [0, 10, 20, 30]:
                    problems.append(f"{cell}: evaluations at {steps}")
                    continue
                losses = [r["heldout_loss"] for r in mine]
                if not all(math.isfinite(l) for l in losses):
                    problems.append(f"{cell}: losses {losses}")
                    continue
                start = {"copy": math.log(10), "order": math.log(4)}.get(task)
                if start is not None and not abs(losses[0] - start) <= 0.25:
                    problems.append(f"{cell}: first held-out loss {losses[0]:.4f}, not about {start:.4f}")
                if task != "order" and not losses[-1] < losses[0]:
                    problems.append(f"{cell}: held-out loss {losses[0]:.4f} -> {losses[-1]:.4f}")
                print(f"  {task:6} {cell:4} held-out loss " + " ".join(f"{l:.4f}" for l in losses))
            if sorted(r["cell"] for r in summaries) != ["gru", "lstm", "rnn"]:
                problems.append(f"summaries {summaries}")
            report(f"the {task} page's script runs under torch", problems)

    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
