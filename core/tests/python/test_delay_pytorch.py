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
from pathlib import Path

from script_checks import Checks, missing, native, script, skipped, two_at_once

STEPS = "400"
SEEDS = (0, 1, 2)
TASKS = ("adding", "copy", "order")
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
        scripts = {}
        for task in TASKS:
            # Not `copy.py`: a script's folder comes first on Python's path, and it would
            # shadow the standard library's `copy`.
            path = Path(tmp) / f"unroll-{task}.py"
            long_memory("--task", task, "--steps", "30", "--seeds", "1", "--as-pytorch", str(path))
            scripts[task] = path

        # Every run below is one thread and depends on no other, so they share a pool of two (one
        # per core), the longest first: Unroll's sweep one seed per process (each seed draws its own
        # tokens and weights, so a seed's runs alone give the numbers of the three-seed sweep), the
        # PyTorch script of the sweep, and the three task scripts.
        # The page's evaluation schedule: every min(100, max(1, steps // 10)) = 40 steps.
        results = two_at_once(
            *[lambda s=s: delay_copy("--steps", STEPS, "--eval-every", "40", "--seed", str(s), "--seeds", "1") for s in SEEDS],
            lambda: script(py),
            *[lambda path=path: script(path, "--eval-every", "10") for path in scripts.values()],
        )
        ours = by_run([row for rows in results[:len(SEEDS)] for row in rows])
        theirs = by_run(results[len(SEEDS)])
        task_rows = dict(zip(TASKS, results[len(SEEDS) + 1:]))
        print(f"held-out token accuracy after {STEPS} steps (first loss), delay 8:")
        for name, runs in (("Unroll", ours), ("PyTorch", theirs)):
            print(f"  {name:8} " + "  ".join(f"{c} s{s} {a:.3f} ({l:.3f})" for (c, s), (l, a) in sorted(runs.items())))
        expected = {(c, s) for c in ("rnn", "lstm") for s in SEEDS}
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

        for task, path in scripts.items():
            text = path.read_text(encoding="utf-8")
            problems = [] if f"    task=\"{task}\",\n" in text and "    steps=30,\n" in text else ["configuration block not found"]
            rows = task_rows[task]
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
