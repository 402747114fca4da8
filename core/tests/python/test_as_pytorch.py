#!/usr/bin/env python3
"""The names page's "As PyTorch" script, run under PyTorch.

Runs only when `torch` and `safetensors` import. Otherwise it prints "SKIPPED: …" and
"0 passed, 0 failed, 1 skipped", and exits 0.

1. `train-names --as-pytorch FILE` writes the script for the page's default configuration
   (LSTM, hidden 128, batch 64, lr 0.001, one epoch here).
2. One epoch, seeds 0, 1, 2, on each side: the script's validation accuracy must fall within
   the spread of Unroll's three (widened by 0.02 on each side: the two sides split the data with
   different generators, so three seeds are a small sample of each). Both sides are printed.
3. Unroll trains one epoch and saves the model (`--save`, the page's download) and its
   probabilities for five names (`--predict`); the script loads the file with
   `load_state_dict(strict=True)` (`--load`, `--epochs 0`) and must give the same
   probabilities within 1e-4.

Usage:  python3 core/tests/python/test_as_pytorch.py
        UNROLL_TRAIN_NAMES=target/debug/train-names python3 core/tests/python/test_as_pytorch.py
The data folder is the one train-names finds (www/data/names, else ../shared/data/names) unless
UNROLL_NAMES_DIR says otherwise. The last line is "N passed, M failed" (", K skipped" when skipped).
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SEEDS = (0, 1, 2)
MARGIN = 0.02
NAMES = "Nguyen,Schmidt,O'Brien,Ślusàrski,Tanaka"


def names_dir():
    if os.environ.get("UNROLL_NAMES_DIR"):
        return Path(os.environ["UNROLL_NAMES_DIR"])
    for d in (ROOT / "www/data/names", ROOT.parent / "shared/data/names"):
        if d.is_dir():
            return d
    return None


def train_names(*args):
    exe = os.environ.get("UNROLL_TRAIN_NAMES")
    cmd = [exe, *args] if exe else ["cargo", "run", "--quiet", "--profile", "test", "--bin", "train-names", "--", *args]
    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"train-names {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()[-500:]}")
    return [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]


def script(path, *args):
    p = subprocess.run([sys.executable, str(path), *args], cwd=ROOT, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{path.name} {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()[-800:]}")
    return [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]


def main():
    try:
        import torch  # noqa: F401
        import safetensors  # noqa: F401
    except ImportError as e:
        print(f"SKIPPED: {getattr(e, 'name', None) or 'torch'} not installed ({e})")
        print("0 passed, 0 failed, 1 skipped")
        return 0
    data = names_dir()
    if data is None:
        print("SKIPPED: no names data (run ./scripts/test.sh once, or set UNROLL_NAMES_DIR)")
        print("0 passed, 0 failed, 1 skipped")
        return 0
    passed = failed = 0

    def report(name, problems):
        nonlocal passed, failed
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"PASS {name}")

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        py = tmp / "train_names.py"
        train_names("--as-pytorch", str(py), "--data-dir", str(data))
        text = py.read_text(encoding="utf-8")
        report("the script names the tutorial's 18 languages",
               [] if text.count('CLASSES = ["Arabic", "Chinese"') == 1 else ["CLASSES line not found"])

        unroll = [train_names("--epochs", "1", "--seed", str(s), "--data-dir", str(data))[-1]["val_acc"] for s in SEEDS]
        torch_ = [script(py, "--epochs", "1", "--seed", str(s), "--data", str(data))[-1]["val_acc"] for s in SEEDS]
        lo, hi = min(unroll) - MARGIN, max(unroll) + MARGIN
        print("validation accuracy after one epoch, seeds " + ", ".join(map(str, SEEDS)))
        print("  Unroll:  " + "  ".join(f"{a:.4f}" for a in unroll))
        print("  PyTorch: " + "  ".join(f"{a:.4f}" for a in torch_))
        report("one epoch of the script lands within Unroll's seeds",
               [f"seed {s}: {a:.4f} outside [{lo:.4f}, {hi:.4f}]" for s, a in zip(SEEDS, torch_) if not lo <= a <= hi])

        weights = tmp / "model.safetensors"
        ours = [o for o in train_names("--epochs", "1", "--seed", "3", "--data-dir", str(data), "--save", str(weights), "--predict", NAMES) if "name" in o]
        theirs = [t for t in script(py, "--epochs", "0", "--data", str(data), "--load", str(weights), "--predict", NAMES) if "name" in t]
        problems = []
        if [o["name"] for o in ours] != [t["name"] for t in theirs] or len(ours) != 5:
            problems.append(f"names differ: {[o['name'] for o in ours]} vs {[t['name'] for t in theirs]}")
        for o, t in zip(ours, theirs):
            bad = [k for k, (a, b) in enumerate(zip(o["probs"], t["probs"])) if not abs(a - b) <= 1e-4]
            if bad or len(o["probs"]) != len(t["probs"]) or len(o["probs"]) != 18:
                problems.append(f"{o['name']}: classes {bad} differ by more than 1e-4")
        report("the page's weights give the page's predictions in PyTorch (1e-4)", problems)

    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
