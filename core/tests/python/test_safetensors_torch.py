#!/usr/bin/env python3
"""Weights between Unroll and PyTorch through .safetensors.

Runs only when `torch` and `safetensors` import. Otherwise it prints
"SKIPPED: torch not installed" and "0 passed, 0 failed, 1 skipped", and exits 0.

1. `cargo run --bin bench -- --export-test-weights DIR` writes Unroll's models as
   unroll_*.safetensors, with their inputs and outputs in unroll_*.json.
2. Each file is loaded with `load_state_dict(safetensors.torch.load_file(path))` (strict) into
   nn.LSTM / nn.GRU / nn.RNN, or into a module whose attributes are `rnn` and `fc`. The model
   must then reproduce Unroll's outputs.
3. PyTorch models (default init, seeded) are saved with `safetensors.torch.save_file` as
   torch_*.safetensors, with inputs and outputs in torch_*.json. One of them is float64, and the
   classifier is saved without metadata. Then
   `cargo run --bin bench -- --check-test-weights DIR` imports them into Unroll and compares.

Tolerance: |err| <= 1e-5 + 1e-4*|ref|; a NaN fails.

Usage:  python3 core/tests/python/test_safetensors_torch.py
        UNROLL_BENCH=target/debug/bench python3 core/tests/python/test_safetensors_torch.py
The last line is "N passed, M failed" (with ", K skipped" when skipped).
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from script_checks import Checks, missing, skipped

ROOT = Path(__file__).resolve().parents[2]
ATOL, RTOL = 1e-5, 1e-4


def bench(*args):
    """Runs Unroll's bench binary (UNROLL_BENCH, or `cargo run`) and returns the completed process."""
    exe = os.environ.get("UNROLL_BENCH")
    cmd = [exe, *args] if exe else ["cargo", "run", "--quiet", "--bin", "bench", "--", *args]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)


def main():
    why = missing("torch", "safetensors", names_data=False)
    if why:
        return skipped(why)
    import torch
    import safetensors.torch

    cells = {"rnn": torch.nn.RNN, "lstm": torch.nn.LSTM, "gru": torch.nn.GRU}

    def tensor(t, dtype):
        return torch.tensor(t["data"], dtype=dtype).reshape(t["shape"])

    def as_json(t):
        return {"shape": list(t.shape), "data": t.detach().double().reshape(-1).tolist()}

    def close(name, got, want):
        """None when `got` matches the JSON tensor `want`, else a message."""
        if list(got.shape) != want["shape"]:
            return f"{name}: shape {list(got.shape)}, expected {want['shape']}"
        w = torch.tensor(want["data"], dtype=torch.float64)
        err = (got.detach().double().reshape(-1) - w).abs()
        bad = int((~(err <= ATOL + RTOL * w.abs())).sum())  # NaN compares False: counted as bad
        return None if bad == 0 else f"{name}: {bad} of {w.numel()} values outside 1e-5 + 1e-4*|ref|"

    def make_module(case, dtype):
        kwargs = dict(
            input_size=case["input_size"],
            hidden_size=case["hidden_size"],
            num_layers=case["num_layers"],
            bidirectional=case["bidirectional"],
            batch_first=case["batch_first"],
        )
        if case["cell"] == "rnn":
            kwargs["nonlinearity"] = case.get("nonlinearity", "tanh")
        return cells[case["cell"]](**kwargs).to(dtype)

    def run_module(m, case, dtype):
        hx = None
        if case.get("h0") is not None:
            h0 = tensor(case["h0"], dtype)
            hx = (h0, tensor(case["c0"], dtype)) if case["cell"] == "lstm" else h0
        with torch.no_grad():
            out, h = m(tensor(case["input"], dtype), hx)
        return (out, *h) if case["cell"] == "lstm" else (out, h, None)

    class Classifier(torch.nn.Module):
        """The name classifier: one-hot symbols -> rnn (batch_first) -> fc at each name's last symbol."""

        def __init__(self, cell, vocab, hidden, classes):
            super().__init__()
            self.rnn = cells[cell](vocab, hidden, batch_first=True)
            self.fc = torch.nn.Linear(hidden, classes)

        def forward(self, tokens, lengths):
            rows = []
            for b, n in enumerate(lengths):  # one name at a time: padding is never read
                x = torch.nn.functional.one_hot(torch.tensor(tokens[b][:n]), self.rnn.input_size)
                out, _ = self.rnn(x.to(self.fc.weight.dtype).unsqueeze(0))
                rows.append(self.fc(out[0, n - 1]))
            return torch.stack(rows)

    checks = Checks()
    report = checks.report

    with tempfile.TemporaryDirectory(prefix="unroll-torch-") as tmp:
        out_dir = Path(tmp)
        p = bench("--export-test-weights", str(out_dir))
        if p.returncode != 0:
            print(f"FAIL unroll export (exit {p.returncode}): {p.stdout}{p.stderr}")
            print("0 passed, 1 failed")
            return 1

        # Unroll -> PyTorch: strict load_state_dict, then the same outputs.
        for path in sorted(out_dir.glob("unroll_*.json")):
            case = json.loads(path.read_text())
            name = f"unroll->torch {path.stem}"
            try:
                weights = out_dir / case["weights"]
                state = safetensors.torch.load_file(str(weights))
                with safetensors.safe_open(str(weights), framework="pt") as f:
                    meta = f.metadata() or {}
                problems = [] if meta.get("cell") == case["cell"] else [f"metadata cell {meta.get('cell')!r}"]
                if case["kind"] == "module":
                    m = make_module(case, torch.float32)
                    m.load_state_dict(state)
                    out, h_n, c_n = run_module(m, case, torch.float32)
                    problems += [close("output", out, case["output"]), close("h_n", h_n, case["h_n"])]
                    if case.get("c_n") is not None:
                        problems.append(close("c_n", c_n, case["c_n"]))
                else:
                    m = Classifier(case["cell"], case["input_size"], case["hidden_size"], case["num_classes"])
                    m.load_state_dict(state)
                    with torch.no_grad():
                        logits = m(case["tokens"], case["lengths"])
                    problems.append(close("logits", logits, case["logits"]))
            except Exception as e:  # a failed load_state_dict names the keys: report it as the failure
                problems = [f"{type(e).__name__}: {e}"]
            report(name, problems)

        # PyTorch -> Unroll: save_file here, import and compare in Rust.
        torch.manual_seed(0)
        specs = [
            ("torch_lstm", dict(cell="lstm", input_size=3, hidden_size=4, num_layers=2, bidirectional=True, batch_first=True), torch.float32, True),
            ("torch_gru_f64", dict(cell="gru", input_size=5, hidden_size=3, num_layers=1, bidirectional=False, batch_first=False), torch.float64, True),
            ("torch_gru_bi", dict(cell="gru", input_size=2, hidden_size=3, num_layers=2, bidirectional=True, batch_first=True), torch.float32, False),
            ("torch_rnn", dict(cell="rnn", nonlinearity="tanh", input_size=3, hidden_size=5, num_layers=1, bidirectional=False, batch_first=False), torch.float32, False),
        ]
        batch, seq_len = 3, 4
        for name, spec, dtype, with_state in specs:
            case = dict(kind="module", weights=f"{name}.safetensors", **spec)
            m = make_module(case, dtype)
            shape = [batch, seq_len, spec["input_size"]] if spec["batch_first"] else [seq_len, batch, spec["input_size"]]
            case["input"] = as_json(torch.rand(shape, dtype=dtype) * 2 - 1)
            if with_state:
                state_shape = [spec["num_layers"] * (2 if spec["bidirectional"] else 1), batch, spec["hidden_size"]]
                case["h0"] = as_json(torch.rand(state_shape, dtype=dtype) * 2 - 1)
                if spec["cell"] == "lstm":
                    case["c0"] = as_json(torch.rand(state_shape, dtype=dtype) * 2 - 1)
            out, h_n, c_n = run_module(m, case, dtype)
            case.update(output=as_json(out), h_n=as_json(h_n), c_n=None if c_n is None else as_json(c_n))
            state = {k: v.detach().contiguous().clone() for k, v in m.state_dict().items()}
            safetensors.torch.save_file(state, str(out_dir / case["weights"]))
            (out_dir / f"{name}.json").write_text(json.dumps(case))

        clf = Classifier("gru", 57, 6, 4)
        lengths, t = [3, 7, 1], 7
        tokens = [[int(v) if i < n else 0 for i, v in enumerate(torch.randint(0, 57, (t,)))] for n in lengths]
        with torch.no_grad():
            logits = clf(tokens, lengths)
        state = {k: v.detach().contiguous().clone() for k, v in clf.state_dict().items()}
        safetensors.torch.save_file(state, str(out_dir / "torch_classifier.safetensors"))  # no metadata: shapes only
        case = dict(kind="classifier", weights="torch_classifier.safetensors", cell="gru", input_size=57, hidden_size=6,
                    num_layers=1, bidirectional=False, batch_first=True, num_classes=4, tokens=tokens, lengths=lengths,
                    logits=as_json(logits))
        (out_dir / "torch_classifier.json").write_text(json.dumps(case))

        expected = {f"{s[0]}.json" for s in specs} | {"torch_classifier.json"}
        p = bench("--check-test-weights", str(out_dir))
        seen = set()
        for line in p.stdout.splitlines():
            word, _, rest = line.partition(" ")
            file = rest.split(":")[0].split(" ")[0]
            if word in ("PASS", "FAIL") and file in expected:
                seen.add(file)
                report(f"torch->unroll {file[:-5]}", [] if word == "PASS" else [rest])
        for file in sorted(expected - seen):
            report(f"torch->unroll {file[:-5]}", [f"no result from bench --check-test-weights (exit {p.returncode}): {p.stderr.strip()[-500:]}"])
        if p.returncode != 0 and checks.failed == 0:
            report("bench --check-test-weights", [f"exit {p.returncode}"])

    return checks.finish()


if __name__ == "__main__":
    sys.exit(main())
