#!/usr/bin/env python3
"""The names page's "As PyTorch" script, run under PyTorch.

Runs only when `torch` and `safetensors` import. Otherwise it prints "SKIPPED: …" and
"0 passed, 0 failed, 1 skipped", and exits 0.

1. `train-names --as-pytorch FILE` writes the script for the page's default configuration
   (LSTM, hidden 128, batch 64, lr 0.001, one epoch here).
2. The script's split and batches are the page's: its first epoch's batches (drawn with
   Unroll's generator) are `train-names --dump-batches`' to the name and label, in order.
3. One epoch, seeds 0, 1, 2, on each side: the script's validation accuracy must fall within
   the spread of Unroll's three (widened by 0.02 on each side: the two sides draw their initial
   weights with different generators, so three seeds are a small sample of each). Both sides
   are printed.
4. Unroll trains one epoch and saves the model (`--save`, the page's download) and its
   probabilities for five names (`--predict`); the script loads the file with
   `load_state_dict(strict=True)` (`--load`, `--epochs 0`) and must give the same
   probabilities within 1e-4.

Usage:  python3 core/tests/python/test_as_pytorch.py
        UNROLL_TRAIN_NAMES=target/debug/train-names python3 core/tests/python/test_as_pytorch.py
The data folder is the one train-names finds (www/data/names, else ../shared/data/names) unless
UNROLL_NAMES_DIR says otherwise. The last line is "N passed, M failed" (", K skipped" when skipped).
"""
import json
import sys
import tempfile
from pathlib import Path

from script_checks import Checks, missing, module, names_dir, native, script, skipped, two_at_once

SEEDS = (0, 1, 2)
MARGIN = 0.02
NAMES = "Nguyen,Schmidt,O'Brien,Ślusàrski,Tanaka"


def train_names(*args):
    return native("train-names", "UNROLL_TRAIN_NAMES", *args)


def main():
    why = missing("torch", "safetensors")
    if why:
        return skipped(why)
    data = names_dir()
    checks = Checks()
    report = checks.report

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        py = tmp / "train_names.py"
        train_names("--as-pytorch", str(py), "--data-dir", str(data))
        text = py.read_text(encoding="utf-8")
        report("the script names the tutorial's 18 languages",
               [] if text.count('CLASSES = ["Arabic", "Chinese"') == 1 else ["CLASSES line not found"])

        dump = Path(tmp) / "batches.jsonl"
        train_names("--dump-batches", str(dump), "--data-dir", str(data))
        theirs = module(py)
        pairs = theirs.load(str(data))
        classes = sorted({lang for _, lang in pairs})
        train, _ = theirs.split(pairs, classes, 0)
        batches = theirs.epoch_batches(pairs, train, 64, 0, 0)
        ours = [json.loads(line) for line in dump.read_text().splitlines()]
        problems = [] if len(ours) == len(batches) else [f"{len(ours)} batches vs {len(batches)}"]
        for k, (o, t) in enumerate(zip(ours, batches)):
            names = [[theirs.INDEX[ch] for ch in pairs[i][0]] for i in t]
            labels = [classes.index(pairs[i][1]) for i in t]
            width = o["seq_len"]  # tokens: [batch, seq_len] flattened, batch first
            rows = [o["tokens"][b * width:b * width + n] for b, n in enumerate(o["lengths"])]
            if rows != names or o["labels"] != labels:
                problems.append(f"batch {k} differs")
                break
        report("the script's split and first epoch's batches are the page's", problems)

        # Seven one-epoch runs, independent of each other: two at a time. The last saves the
        # model that PyTorch loads below.
        weights = tmp / "model.safetensors"
        *runs, saved = two_at_once(
            *[lambda s=s: train_names("--epochs", "1", "--seed", str(s), "--data-dir", str(data)) for s in SEEDS],
            *[lambda s=s: script(py, "--epochs", "1", "--seed", str(s), "--data", str(data)) for s in SEEDS],
            lambda: train_names("--epochs", "1", "--seed", "3", "--data-dir", str(data), "--save", str(weights), "--predict", NAMES),
        )
        unroll = [rows[-1]["val_acc"] for rows in runs[:len(SEEDS)]]
        torch_ = [rows[-1]["val_acc"] for rows in runs[len(SEEDS):]]
        lo, hi = min(unroll) - MARGIN, max(unroll) + MARGIN
        print("validation accuracy after one epoch, seeds " + ", ".join(map(str, SEEDS)))
        print("  Unroll:  " + "  ".join(f"{a:.4f}" for a in unroll))
        print("  PyTorch: " + "  ".join(f"{a:.4f}" for a in torch_))
        report("one epoch of the script lands within Unroll's seeds",
               [f"seed {s}: {a:.4f} outside [{lo:.4f}, {hi:.4f}]" for s, a in zip(SEEDS, torch_) if not lo <= a <= hi])

        ours = [o for o in saved if "name" in o]
        theirs = [t for t in script(py, "--epochs", "0", "--data", str(data), "--load", str(weights), "--predict", NAMES) if "name" in t]
        problems = []
        if [o["name"] for o in ours] != [t["name"] for t in theirs] or len(ours) != 5:
            problems.append(f"names differ: {[o['name'] for o in ours]} vs {[t['name'] for t in theirs]}")
        for o, t in zip(ours, theirs):
            bad = [k for k, (a, b) in enumerate(zip(o["probs"], t["probs"])) if not abs(a - b) <= 1e-4]
            if bad or len(o["probs"]) != len(t["probs"]) or len(o["probs"]) != 18:
                problems.append(f"{o['name']}: classes {bad} differ by more than 1e-4")
        report("the page's weights give the page's predictions in PyTorch (1e-4)", problems)

    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
