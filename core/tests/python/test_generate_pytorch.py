#!/usr/bin/env python3
"""The generation lab's "As PyTorch" script, run under PyTorch.

Runs only when `torch` imports and the names data is found. Otherwise it prints "SKIPPED: …"
and "0 passed, 0 failed, 1 skipped", and exits 0.

1. `generate-names --as-pytorch FILE --epochs 1` writes the script for the lab's default recipe
   (GRU, hidden 64, the language at every step, Adam 0.005, batches of 32, clipping at 1) with
   one epoch. The script is run from a folder where nothing else lies, so it runs on its own.
2. Its held-out names are the lab's: its baselines line (the split's sizes, the held-out
   characters, the uniform, unigram and bigram losses) equals `generate-names`' to 1e-12, so
   the split is the same to the name; and an epoch has the same number of steps.
3. One epoch, seeds 0, 1, 2, on each side: the script's held-out loss per character must fall
   within the spread of Unroll's three, widened by 0.03 nats on each side (the initial weights
   come from different generators, so three seeds are a small sample of each), and below the
   bigram baseline. Both sides are printed.
4. The sampler: with a prefix and top-k 1 every name of a language is the same and starts with
   the prefix; at temperature 0.5 the shares of training, held-out and new names sum to 1 for
   every language and most names end before the length limit.
5. `--steps` (the lab's step budget, which its page writes into the script): one epoch and 11
   steps train two epochs, the second cut after its 11th step.
6. The language as the initial state with a backward direction (GRU, hidden 32, one epoch):
   the script trains `init.*` and its teacher-forced loss falls far below the bigram's, as
   Unroll's does (both under 1 nat: the backward direction has read the next letter).

Usage:  python3 core/tests/python/test_generate_pytorch.py
        UNROLL_GENERATE_NAMES=target/debug/generate-names python3 core/tests/python/test_generate_pytorch.py
The last line is "N passed, M failed" (", K skipped" when skipped).
"""
import math
import sys
import tempfile
from pathlib import Path

from script_checks import Checks, missing, names_dir, native, script, skipped, two_at_once

SEEDS = (0, 1, 2)
MARGIN = 0.03


def generate_names(*args):
    return native("generate-names", "UNROLL_GENERATE_NAMES", *args)


def one(rows, key):
    return [r[key] for r in rows if key in r]


def main():
    why = missing("torch")
    if why:
        return skipped(why)
    data = str(names_dir())
    checks = Checks()
    with tempfile.TemporaryDirectory() as tmp:
        py = Path(tmp) / "generate.py"
        generate_names("--as-pytorch", str(py), "--epochs", "1", "--data-dir", data)
        text = py.read_text(encoding="utf-8")
        checks.report("the script carries the names script's data code",
                      [] if "from train_names import" not in text and text.count("def split(") == 1
                      else ["the data section was not filled in"])

        state = Path(tmp) / "state.py"
        opts = ["--conditioning", "state", "--bidirectional", "--hidden-size", "32", "--epochs", "1"]
        generate_names(*opts, "--as-pytorch", str(state), "--data-dir", data)
        # Every run below is independent of the others: two at a time, one per core.
        *epochs, prefixed, sampled, state_ours, state_theirs = two_at_once(
            *[lambda s=s: generate_names("--epochs", "1", "--seed", str(s), "--samples", "0", "--data-dir", data) for s in SEEDS],
            *[lambda s=s: script(py, "--seed", str(s), "--samples", "0", "--threads", "1", "--data", data) for s in SEEDS],
            lambda: script(py, "--samples", "12", "--language", "Italian", "--prefix", "Ma", "--top-k", "1",
                           "--threads", "1", "--data", data),
            lambda: script(py, "--samples", "20", "--threads", "1", "--data", data),
            lambda: generate_names(*opts, "--samples", "0", "--data-dir", data),
            lambda: script(state, "--samples", "0", "--threads", "1", "--data", data),
        )
        ours = dict(zip(SEEDS, epochs[:len(SEEDS)]))
        theirs = dict(zip(SEEDS, epochs[len(SEEDS):]))

        a, b = one(ours[0], "baselines")[0], one(theirs[0], "baselines")[0]
        problems = [f"{k}: {a[k]} vs {b.get(k)}" for k in ("train_names", "heldout_names", "characters", "letters")
                    if a[k] != b.get(k)]
        problems += [f"{k}: {a[k]!r} vs {b.get(k)!r}" for k in ("uniform", "unigram", "bigram")
                     if not abs(a[k] - b[k]) <= 1e-12 * abs(a[k])]
        steps = (one(ours[0], "steps"), one(theirs[0], "steps"))
        if steps[0] != steps[1]:
            problems.append(f"steps per epoch {steps[0]} vs {steps[1]}")
        checks.report("the held-out names and the batches per epoch are the lab's", problems)

        unroll = [one(ours[s], "heldout_loss")[-1] for s in SEEDS]
        torch_ = [one(theirs[s], "heldout_loss")[-1] for s in SEEDS]
        lo, hi = min(unroll) - MARGIN, max(unroll) + MARGIN
        print(f"held-out loss per character after one epoch (bigram {a['bigram']:.4f}), seeds " + ", ".join(map(str, SEEDS)))
        print("  Unroll:  " + "  ".join(f"{x:.4f}" for x in unroll))
        print("  PyTorch: " + "  ".join(f"{x:.4f}" for x in torch_))
        checks.report("one epoch of the script lands within Unroll's seeds, below the bigram",
                      [f"seed {s}: {x:.4f} outside [{lo:.4f}, {hi:.4f}]" for s, x in zip(SEEDS, torch_) if not lo <= x <= hi]
                      + [f"seed {s}: {x:.4f} not below the bigram" for s, x in zip(SEEDS, torch_) if not x < a["bigram"]])

        # The lab's step budget: 530 steps are one whole epoch and 11 steps of the next.
        per = one(ours[0], "steps")[0]
        rows = script(py, "--steps", str(per + 11), "--samples", "0", "--threads", "1", "--data", data)
        epochs = one(rows, "epoch")
        checks.report("--steps stops within an epoch, where the lab's run stops",
                      [] if epochs == [1, 2] and one(rows, "steps") == [per, 11] and one(rows, "step") == [per, per + 11]
                      else [f"epochs {epochs}, steps {one(rows, 'steps')}, step {one(rows, 'step')}"])

        rows = prefixed
        q = one(rows, "quality")
        names = [n for r in rows if "samples" in r for n in r["samples"]]
        problems = [] if len(q) == 1 and q[0]["language"] == "Italian" else [f"quality rows {q}"]
        if len(names) != 5 or len(set(names)) != 1 or not names[0].startswith("Ma"):
            problems.append(f"top-k 1 with prefix Ma wrote {names}")
        checks.report("a prefix and top-k 1 write one name that starts with the prefix", problems)

        rows = sampled
        q = one(rows, "quality")
        problems = [] if len(q) == 18 else [f"{len(q)} languages"]
        problems += [f"{r['language']}: shares sum to {r['training'] + r['heldout'] + r['new']}" for r in q
                     if not math.isclose(r["training"] + r["heldout"] + r["new"], 1.0)]
        unended = sum(r["unended"] for r in q) / max(len(q), 1)
        if not unended < 0.1:
            problems.append(f"{unended:.2f} of the names hit the length limit")
        checks.report("at temperature 0.5 every language's shares sum to 1 and names end", problems)

        ours = one(state_ours, "heldout_loss")[-1]
        theirs = one(state_theirs, "heldout_loss")[-1]
        print(f"state, bidirectional, hidden 32, one epoch: held-out loss Unroll {ours:.4f}, PyTorch {theirs:.4f}")
        checks.report("the language as the initial state, bidirectional: both sides read the future",
                      [f"{side} {x:.4f} not under 1 nat" for side, x in (("Unroll", ours), ("PyTorch", theirs)) if not x < 1.0])
    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
