#!/usr/bin/env python3
"""Unroll's long-memory tasks (the adding problem, copy memory, temporal order) as a PyTorch script.

Written by Unroll for one configuration of its long-memory lab (the block below). It trains the
same models with the same recipe on the same task and prints the same held-out figures.

    pip install torch
    python3 long_memory.py                          # every cell and seed of the configuration
    python3 long_memory.py --steps 100 --seeds 1    # a shorter trial
    python3 long_memory.py --cell lstm --save lstm.pt

The tasks, time-major as nn.RNN reads them by default (the generators of Unroll's
core/src/memory/task.rs, the same distributions):
- adding (Hochreiter & Schmidhuber 1997, exp. 4): T pairs (value in U[0, 1), marker), one
  marker in 0..T/2 and one in T/2..T; the target is the sum of the two marked values, read at
  the last step; MSE. Always answering 1 scores 1/6.
- copy (Arjovsky, Shah & Bengio 2016): 10 symbols from 1..8, T - 1 blanks (0), the delimiter 9,
  10 blanks; the 10 symbols are recalled at the last 10 steps; cross-entropy over those 10
  steps only. A uniform guess among the 8 symbols scores ln 8.
- order (Hochreiter & Schmidhuber 1997, exp. 6a): length in T..T+10, B (6) first and E (7)
  last, X (4) or Y (5) at one t1 in 10..20 and one t2 in 50..60, distractors a-d (0..3)
  elsewhere; one of 4 classes (XX, XY, YX, YY) read at the sequence's last step; cross-entropy.
  A uniform guess scores ln 4.
The model: one recurrent layer (nn.RNN with tanh, nn.LSTM or nn.GRU; parameters rnn.*) and
nn.Linear(hidden, outputs) at the readout steps (fc.*); PyTorch's default initialisation plus
the forget-gate bias on the LSTM's bias_ih_l0 (rows hidden..2*hidden, gate order i, f, g, o).
Adam (betas 0.9/0.999, eps 1e-8), global gradient-norm clipping (clip_grad_norm_, off at 0),
a batch of fresh sequences every step (a step with a non-finite loss or norm is skipped).
Evaluation on a fixed held-out set of 1024 sequences before the first step, every EVAL_EVERY
steps and after the last; "solved" is the lab's criterion (adding: MSE < 0.01; copy: recall
cross-entropy < 0.1 x ln 8; order: accuracy >= 0.95).

What is not the same: Unroll draws its sequences and initial weights with ChaCha8; this script
draws them with torch's generator from the same seeds, so the runs agree in outcome (which
cell solves the task, and about when), not digit for digit. Its held-out set is its own too,
unless --heldout reads Unroll's (`long-memory --task TASK --length T --dump-heldout FILE`).

Output: one JSON object per evaluation (task, cell, seed, step, sequences, train_loss,
heldout_loss, heldout_acc, solved, ms), one summary object per run (params, solved_after,
...), then a table of the final held-out figures (on stderr).
"""
import argparse
import json
import math
import sys
import time

# <configuration>
CONFIG = dict(
    task="adding",
    length=50,
    cells=["rnn", "lstm", "gru"],
    hidden_size=64,
    lr=0.003,
    batch_size=32,
    max_norm=1.0,
    forget_bias=1.0,
    steps=1500,
    seed=0,
    seeds=3,
    eval_every=75,
)
PAGE = None  # the page this configuration came from
# </configuration>

INPUTS = {"adding": 2, "copy": 10, "order": 8}
OUTPUTS = {"adding": 1, "copy": 10, "order": 4}
READOUTS = {"adding": 1, "copy": 10, "order": 1}
DEFAULT_LENGTH = {"adding": 50, "copy": 20, "order": 100}
DEFAULT_STEPS = {"adding": 1500, "copy": 1000, "order": 800}
MIN_LENGTH = {"adding": 2, "copy": 1, "order": 62}
BASELINE = {"adding": 1.0 / 6.0, "copy": math.log(8), "order": math.log(4)}
CRITERION = {
    "adding": "held-out MSE < 0.01 (Hochreiter & Schmidhuber 1997, exp. 4)",
    "copy": "held-out recall cross-entropy < 0.1 × ln 8",
    "order": "held-out accuracy ≥ 0.95",
}
HELDOUT_SEQUENCES = 1024
HELDOUT_SEED = 0x0048_454C_444F_5554  # a seed no training run uses


def solved(task, loss, acc):
    if task == "adding":
        return loss < 0.01
    if task == "copy":
        return loss < 0.1 * BASELINE["copy"]
    return acc >= 0.95


def make_batch(torch, task, length, batch, g):
    """(input [T, B, I] float, lengths [B] long, targets), targets readout-major (row r*B + b)."""
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
        y = tok[:10].reshape(-1)
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


def load_heldout(torch, path, task, length):
    """Unroll's held-out set, written by `long-memory --dump-heldout`."""
    with open(path, encoding="utf-8") as f:
        h = json.load(f)
    if h["task"] != task or h["length"] != length:
        sys.exit(f"--heldout is of {h['task']} length {h['length']}, not {task} length {length}")
    t_len, batch = h["seq_len"], h["batch"]
    if "dense" in h:
        x = torch.tensor(h["dense"]).reshape(t_len, batch, 2)
        y = torch.tensor(h["values"])
    else:
        tok = torch.tensor(h["tokens"]).reshape(t_len, batch)
        x = torch.nn.functional.one_hot(tok, INPUTS[task]).float()
        y = torch.tensor(h["classes"])
    return x, torch.tensor(h["lengths"]), y


def make_model(cell, cfg, seed):
    """The cell with its head, initialised from `seed` (torch is imported here, so that `--help`
    works without it)."""
    import torch
    from torch import nn

    task, h = cfg["task"], cfg["hidden_size"]

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            kind = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[cell]
            self.rnn = kind(INPUTS[task], h)
            self.fc = nn.Linear(h, OUTPUTS[task])

        def forward(self, x, lengths):  # x [T, B, I] -> outputs [R*B, O] at the readout steps
            out, _ = self.rnn(x)  # steps after a sequence's end are never read
            r = READOUTS[task]
            cols = torch.arange(x.shape[1])
            feats = torch.cat([out[lengths - r + k, cols] for k in range(r)])
            return self.fc(feats)

    torch.manual_seed(seed)
    model = Model()
    if cell == "lstm" and cfg["forget_bias"] != 0.0:
        with torch.no_grad():
            model.rnn.bias_ih_l0[h:2 * h] += cfg["forget_bias"]
    return model


def score(task, y_hat, y):
    """(sum of the losses, correct readouts) of a batch."""
    from torch import nn

    if task == "adding":
        return float(((y_hat[:, 0] - y) ** 2).sum()), 0
    loss = nn.functional.cross_entropy(y_hat, y, reduction="sum")
    return float(loss), int((y_hat.argmax(1) == y).sum())


def train(cell, seed, cfg, heldout, emit):
    import torch
    from torch import nn

    task, steps = cfg["task"], cfg["steps"]
    model = make_model(cell, cfg, seed)
    params = list(model.parameters())
    opt = torch.optim.Adam(params, lr=cfg["lr"], betas=(0.9, 0.999), eps=1e-8)
    stream = torch.Generator().manual_seed(seed)  # the cells of one seed share it
    hx, hlen, hy = heldout
    r, n = READOUTS[task], hx.shape[1]
    curve, window, clock = [], [0.0, 0], [time.perf_counter()]

    def evaluate(step):
        total = correct = count = 0
        with torch.no_grad():
            for s in range(0, n, 256):
                sl = slice(s, s + 256)
                yb = torch.cat([hy[k * n:(k + 1) * n][sl] for k in range(r)])
                loss, right = score(task, model(hx[:, sl], hlen[sl]), yb)
                total, correct, count = total + loss, correct + right, count + yb.numel()
        loss, acc = total / count, correct / count
        now = time.perf_counter()
        row = dict(task=task, cell=cell, seed=seed, step=step, sequences=step * cfg["batch_size"],
                   train_loss=window[0] / window[1] if window[1] else None,
                   heldout_loss=loss, heldout_acc=acc, solved=solved(task, loss, acc),
                   ms=round((now - clock[0]) * 10000) / 10)
        window[0], window[1], clock[0] = 0.0, 0, now
        curve.append(row)
        emit(row)

    evaluate(0)
    started, skipped = time.perf_counter(), 0
    for step in range(1, steps + 1):
        x, lengths, y = make_batch(torch, task, cfg["length"], cfg["batch_size"], stream)
        y_hat = model(x, lengths)
        if task == "adding":
            loss = nn.functional.mse_loss(y_hat[:, 0], y)
        else:
            loss = nn.functional.cross_entropy(y_hat, y)
        opt.zero_grad()
        loss.backward()
        limit = cfg["max_norm"] if cfg["max_norm"] > 0 else float("inf")
        norm = torch.nn.utils.clip_grad_norm_(params, limit)
        if math.isfinite(loss.item()) and math.isfinite(float(norm)):
            opt.step()
        else:
            skipped += 1
        window[0] += loss.item()
        window[1] += 1
        if step % cfg["eval_every"] == 0 or step == steps:
            evaluate(step)
    last = curve[-1]
    emit(dict(summary=True, task=task, length=cfg["length"], cell=cell, seed=seed, steps=steps,
              params=sum(p.numel() for p in params), heldout_loss=last["heldout_loss"],
              heldout_acc=last["heldout_acc"], baseline_loss=BASELINE[task],
              solved_after=next((c["sequences"] for c in curve if c["solved"]), None),
              criterion=CRITERION[task], skipped=skipped,
              seconds=round((time.perf_counter() - started) * 10) / 10))
    return model, last


def main(argv=None):
    parser = argparse.ArgumentParser(description="Unroll's long-memory tasks in PyTorch.")
    parser.add_argument("--task", choices=["adding", "copy", "order"],
                        help="another task (its default T and budget unless given)")
    parser.add_argument("--length", type=int, help="T: pairs (adding), blanks (copy), minimum length (order)")
    parser.add_argument("--cell", choices=["rnn", "lstm", "gru"], action="append",
                        help="train this cell (repeatable); default: the configuration's")
    parser.add_argument("--steps", type=int, help="optimisation steps of every run")
    parser.add_argument("--seeds", type=int, help="runs per cell, seeds seed, seed+1, ...")
    parser.add_argument("--seed", type=int, help="seed of the first run")
    parser.add_argument("--eval-every", type=int, help="steps between held-out evaluations")
    parser.add_argument("--heldout", help="evaluate on Unroll's held-out set (long-memory --dump-heldout FILE)")
    parser.add_argument("--save", help="save each run's weights as PATH (cell and seed added)")
    args = parser.parse_args(argv)
    cfg = dict(CONFIG)
    if args.task and args.task != cfg["task"]:
        cfg.update(task=args.task, length=DEFAULT_LENGTH[args.task], steps=DEFAULT_STEPS[args.task])
    for key in ("length", "steps", "seeds", "seed", "eval_every"):
        if getattr(args, key) is not None:
            cfg[key] = getattr(args, key)
    if args.cell:
        cfg["cells"] = args.cell
    cfg["eval_every"] = max(1, cfg["eval_every"])
    task = cfg["task"]
    if cfg["length"] < MIN_LENGTH[task]:
        sys.exit(f"{task} needs T >= {MIN_LENGTH[task]} (got {cfg['length']})")

    import torch

    torch.set_num_threads(1)
    if args.heldout:
        heldout = load_heldout(torch, args.heldout, task, cfg["length"])
    else:
        x, lengths, y = make_batch(torch, task, cfg["length"], HELDOUT_SEQUENCES,
                                   torch.Generator().manual_seed(HELDOUT_SEED))
        heldout = (x, lengths, y)
    emit = lambda row: print(json.dumps(row), flush=True)
    finals = []
    for seed in range(cfg["seed"], cfg["seed"] + cfg["seeds"]):
        for cell in cfg["cells"]:
            model, last = train(cell, seed, cfg, heldout, emit)
            finals.append((cell, seed, last))
            if args.save:
                stem = args.save[:-3] if args.save.endswith(".pt") else args.save
                torch.save(model.state_dict(), f"{stem}-{cell}-seed{seed}.pt")
    print(f"{task}, T = {cfg['length']}, {cfg['steps']} steps: final held-out loss "
          f"(baseline {BASELINE[task]:.3f}; solved: {CRITERION[task]})", file=sys.stderr)
    for cell, seed, last in finals:
        print(f"  {cell:5} seed {seed}: {last['heldout_loss']:.4f}"
              f"{'  solved' if last['solved'] else ''}", file=sys.stderr)


if __name__ == "__main__":
    main()
