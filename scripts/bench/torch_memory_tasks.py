#!/usr/bin/env python3
"""PyTorch reference of the long-memory tasks: the adding problem, copy memory and temporal order.

The same generators as Unroll's `core/src/memory/task.rs` (the same distributions, drawn from
torch's RNG seeded with the run's seed), the same model (one `nn.RNN/LSTM/GRU` layer,
time-major, PyTorch's default initialisation, the LSTM's forget-gate block of `bias_ih_l0` +
forget_bias, a `Linear(H, O)` head at the readout steps), the same losses (`MSELoss` at the
last step for adding; `CrossEntropyLoss` over the 10 recalled steps for copy and at each
sequence's last step for order) and the same recipe (Adam, `clip_grad_norm_`, batch size).
The held-out set is Unroll's own, read from a file written by
`long-memory --task TASK --length T --dump-heldout FILE`, so both sides are measured on the
same sequences.

    python3 scripts/bench/torch_memory_tasks.py --task adding --heldout FILE [--length 50]
        [--cell lstm] [--seed 0] [--steps N] [--eval-every 100] [--hidden-size 64]
        [--lr 0.003] [--batch-size 32] [--max-norm 1] [--forget-bias 1]

Prints the JSON lines of `long-memory` (one per held-out evaluation, then a summary with
`solved_after`), on one CPU thread. Without torch it prints a line saying so and exits 0.
"""

import argparse
import json
import math
import sys
import time

INPUTS = {"adding": 2, "copy": 10, "order": 8}
OUTPUTS = {"adding": 1, "copy": 10, "order": 4}
READOUTS = {"adding": 1, "copy": 10, "order": 1}
CRITERION = {
    "adding": "held-out MSE < 0.01 (Hochreiter & Schmidhuber 1997, exp. 4)",
    "copy": "held-out recall cross-entropy < 0.1 × ln 8",
    "order": "held-out accuracy ≥ 0.95",
}
BASELINE = {"adding": 1.0 / 6.0, "copy": math.log(8), "order": math.log(4)}


def solved(task, loss, acc):
    if task == "adding":
        return loss < 0.01
    if task == "copy":
        return loss < 0.1 * BASELINE["copy"]
    return acc >= 0.95


def make_batch(torch, task, length, batch, g):
    """(input [T, B, I] float, lengths [B] long, targets) — the generator's distributions."""
    if task == "adding":
        x = torch.zeros(length, batch, 2)
        x[:, :, 0] = torch.rand(length, batch, generator=g)
        half = length // 2
        first = torch.randint(0, half, (batch,), generator=g)
        second = torch.randint(half, length, (batch,), generator=g)
        cols = torch.arange(batch)
        x[first, cols, 1] = 1.0
        x[second, cols, 1] = 1.0
        y = x[first, cols, 0] + x[second, cols, 0]
        return x, torch.full((batch,), length), y
    if task == "copy":
        t_len = length + 20
        tok = torch.zeros(t_len, batch, dtype=torch.long)
        tok[:10] = torch.randint(1, 9, (10, batch), generator=g)
        tok[length + 9] = 9
        y = tok[:10].reshape(-1)  # readout-major: row r·B + b
        x = torch.nn.functional.one_hot(tok, 10).float()
        return x, torch.full((batch,), t_len), y
    t_max = length + 10
    lengths = torch.randint(length, length + 11, (batch,), generator=g)
    tok = torch.randint(0, 4, (t_max, batch), generator=g)
    cols = torch.arange(batch)
    tok[0] = 6
    tok[lengths - 1, cols] = 7
    t1 = torch.randint(10, 21, (batch,), generator=g)
    t2 = torch.randint(50, 61, (batch,), generator=g)
    fy = torch.randint(0, 2, (batch,), generator=g)
    sy = torch.randint(0, 2, (batch,), generator=g)
    tok[t1, cols] = 4 + fy
    tok[t2, cols] = 4 + sy
    x = torch.nn.functional.one_hot(tok, 8).float()
    return x, lengths, 2 * fy + sy


def load_heldout(torch, path):
    h = json.load(open(path))
    t_len, batch = h["seq_len"], h["batch"]
    if "dense" in h:
        x = torch.tensor(h["dense"]).reshape(t_len, batch, 2)
        y = torch.tensor(h["values"])
    else:
        tok = torch.tensor(h["tokens"]).reshape(t_len, batch)
        x = torch.nn.functional.one_hot(tok, INPUTS[h["task"]]).float()
        y = torch.tensor(h["classes"])
    return h, x, torch.tensor(h["lengths"]), y


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--task", required=True, choices=["adding", "copy", "order"])
    ap.add_argument("--heldout", required=True, help="JSON from long-memory --dump-heldout")
    ap.add_argument("--length", type=int, default=None)
    ap.add_argument("--cell", default="lstm", choices=["rnn", "lstm", "gru"])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--steps", type=int, default=None)
    ap.add_argument("--eval-every", type=int, default=100)
    ap.add_argument("--hidden-size", type=int, default=64)
    ap.add_argument("--lr", type=float, default=0.003)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--max-norm", type=float, default=1.0, help="0 = no clipping")
    ap.add_argument("--forget-bias", type=float, default=1.0)
    args = ap.parse_args()
    try:
        import torch
        from torch import nn
    except ImportError:
        print(json.dumps({"skipped": "torch is not installed (pip install torch)"}))
        return 0
    torch.set_num_threads(1)
    task = args.task
    length = args.length or {"adding": 50, "copy": 20, "order": 100}[task]
    steps = args.steps if args.steps is not None else {"adding": 1500, "copy": 1000, "order": 800}[task]
    held, hx, hlen, hy = load_heldout(torch, args.heldout)
    if held["task"] != task or held["length"] != length:
        sys.exit(f"--heldout is of {held['task']} length {held['length']}, not {task} length {length}")

    torch.manual_seed(args.seed)
    g = torch.Generator().manual_seed(args.seed)
    h = args.hidden_size
    rnn = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[args.cell](INPUTS[task], h)
    fc = nn.Linear(h, OUTPUTS[task])
    if args.cell == "lstm":
        with torch.no_grad():
            rnn.bias_ih_l0[h : 2 * h] += args.forget_bias
    params = list(rnn.parameters()) + list(fc.parameters())
    opt = torch.optim.Adam(params, lr=args.lr)
    r = READOUTS[task]

    def outputs(x, lengths):
        out, _ = rnn(x)  # [T, B, H]; steps after a sequence's end are never read
        b = x.shape[1]
        cols = torch.arange(b)
        feats = torch.cat([out[lengths - r + k, cols] for k in range(r)])  # [R·B, H]
        return fc(feats)

    def score(y_hat, y):
        """(sum of losses, correct readouts)."""
        if task == "adding":
            return float(((y_hat[:, 0] - y) ** 2).sum()), 0
        loss = nn.functional.cross_entropy(y_hat, y, reduction="sum")
        return float(loss), int((y_hat.argmax(1) == y).sum())

    def evaluate():
        total, correct, count = 0.0, 0, 0
        with torch.no_grad():
            for s in range(0, hx.shape[1], 256):
                sl = slice(s, s + 256)
                xb, lb = hx[:, sl], hlen[sl]
                yb = torch.cat([hy[k * hx.shape[1] :][: hx.shape[1]][sl] for k in range(r)])
                l, c = score(outputs(xb, lb), yb)
                total, correct, count = total + l, correct + c, count + yb.numel()
        return total / count, correct / count

    curve = []
    window = [0.0, 0]
    t0 = [time.perf_counter()]

    def line(step):
        loss, acc = evaluate()
        now = time.perf_counter()
        rec = {
            "task": task, "cell": args.cell, "seed": args.seed, "step": step,
            "sequences": step * args.batch_size,
            "train_loss": window[0] / window[1] if window[1] else None,
            "heldout_loss": loss, "heldout_acc": acc, "solved": solved(task, loss, acc),
            "ms": round((now - t0[0]) * 10000) / 10,
        }
        print(json.dumps(rec), flush=True)
        window[0], window[1] = 0.0, 0
        t0[0] = now
        curve.append(rec)

    line(0)
    started = time.perf_counter()
    skipped = 0
    for k in range(1, steps + 1):
        x, lengths, y = make_batch(torch, task, length, args.batch_size, g)
        y_hat = outputs(x, lengths)
        if task == "adding":
            loss = nn.functional.mse_loss(y_hat[:, 0], y)
        else:
            loss = nn.functional.cross_entropy(y_hat, y)
        opt.zero_grad()
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(params, args.max_norm if args.max_norm > 0 else float("inf"))
        if math.isfinite(loss.item()) and math.isfinite(float(norm)):
            opt.step()
        else:
            skipped += 1
        window[0] += loss.item()
        window[1] += 1
        if k % args.eval_every == 0 or k == steps:
            line(k)
    last = curve[-1]
    after = next((c["sequences"] for c in curve if c["solved"]), None)
    print(json.dumps({
        "summary": True, "task": task, "length": length, "cell": args.cell, "seed": args.seed,
        "steps": steps, "params": sum(p.numel() for p in params),
        "heldout_loss": last["heldout_loss"], "heldout_acc": last["heldout_acc"],
        "baseline_loss": BASELINE[task], "solved_after": after, "criterion": CRITERION[task],
        "skipped": skipped, "seconds": round((time.perf_counter() - started) * 10) / 10,
    }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
