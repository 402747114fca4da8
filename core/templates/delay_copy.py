#!/usr/bin/env python3
"""Unroll's delay-copy experiment, as a PyTorch script.

Written by Unroll for one configuration of its long-memory lab (the block below). It trains the
same models with the same recipe on the same task and prints the same held-out figures.

    pip install torch
    python3 delay_copy.py                         # every cell and seed of the configuration
    python3 delay_copy.py --steps 500 --seeds 1   # a shorter trial
    python3 delay_copy.py --cell lstm --save lstm.pt

The task: sequences of LENGTH tokens drawn uniformly from 0..VOCAB-1; the target at position t
is the token at t - DELAY, so positions t >= DELAY are supervised (loss and accuracy are taken
there only). A fresh random batch every step. The model: one-hot input -> one recurrent layer
(nn.RNN with tanh, nn.LSTM or nn.GRU; parameter names rnn.*) -> nn.Linear(hidden, vocab) at
every position (fc.*). PyTorch's default initialisation, plus the forget-gate bias on the
LSTM's bias_ih_l0 (rows hidden..2*hidden, gate order i, f, g, o). Mean cross-entropy over the
supervised tokens, global gradient-norm clipping (clip_grad_norm_, off at 0), Adam (betas
0.9/0.999, eps 1e-8). Evaluation: a fixed held-out set of 256 sequences from its own seed,
the same for every cell and seed, before the first step, every EVAL_EVERY steps and after the
last. The cells of one seed see the same token stream.

What is not the same: Unroll draws its tokens and initial weights with ChaCha8; this script
draws them with torch's generator from the same seeds, so the runs agree in outcome (which
cell learns the delay, and about when), not digit for digit.

Output: one JSON object per evaluation (cell, seed, step, heldout_loss, heldout_acc, sec), then
a table of the last held-out accuracies.
"""
import argparse
import json
import sys
import time

# <configuration>
CONFIG = dict(
    cells=["rnn", "lstm"],
    delay=8,
    length=96,
    vocab=10,
    hidden_size=128,
    lr=0.003,
    batch_size=32,
    max_norm=1.0,
    forget_bias=1.0,
    steps=3000,
    seed=0,
    seeds=3,
)
PAGE = None  # the page this configuration came from
# </configuration>

HELDOUT_SEQUENCES = 256
HELDOUT_SEED = 0x0048_454C_444F_5554  # a seed no training run uses


def eval_every(steps):
    """Unroll's schedule: every min(100, max(1, steps // 10)) steps."""
    return min(100, max(1, steps // 10))


def tokens(generator, batch, cfg):
    """[batch, length] tokens, uniform in 0..vocab-1."""
    import torch

    return torch.randint(0, cfg["vocab"], (batch, cfg["length"]), generator=generator)


def make_model(cell, cfg, seed):
    """The cell with its head, initialised from `seed` (torch is imported here, so that `--help`
    works without it)."""
    import torch
    from torch import nn

    class Model(nn.Module):
        def __init__(self):
            super().__init__()
            kind = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}[cell]
            self.rnn = kind(cfg["vocab"], cfg["hidden_size"], batch_first=True)
            self.fc = nn.Linear(cfg["hidden_size"], cfg["vocab"])

        def forward(self, x):  # x: [B, T] tokens -> logits [B, T, V]
            onehot = nn.functional.one_hot(x, cfg["vocab"]).float()
            out, _ = self.rnn(onehot)
            return self.fc(out)

    torch.manual_seed(seed)
    model = Model()
    if cell == "lstm" and cfg["forget_bias"] != 0.0:
        h = cfg["hidden_size"]
        with torch.no_grad():
            model.rnn.bias_ih_l0[h:2 * h] += cfg["forget_bias"]
    return model


def loss_and_acc(model, x, cfg):
    """Mean cross-entropy (nats) and token accuracy over the supervised positions t >= delay."""
    from torch import nn

    d = cfg["delay"]
    logits = model(x)[:, d:, :]
    target = x[:, : cfg["length"] - d]
    loss = nn.functional.cross_entropy(logits.reshape(-1, cfg["vocab"]), target.reshape(-1))
    acc = (logits.argmax(-1) == target).float().mean()
    return loss, acc


def train(cell, seed, cfg, heldout, emit):
    import torch

    model = make_model(cell, cfg, seed)
    opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"], betas=(0.9, 0.999), eps=1e-8)
    stream = torch.Generator().manual_seed(seed)  # the cells of one seed share it
    every = eval_every(cfg["steps"])
    started = time.time()
    last = None

    def evaluate(step):
        nonlocal last
        with torch.no_grad():
            loss, acc = loss_and_acc(model, heldout, cfg)
        last = float(acc)
        emit(dict(cell=cell, seed=seed, step=step, heldout_loss=round(float(loss), 6),
                  heldout_acc=round(last, 6), sec=round(time.time() - started, 2)))

    evaluate(0)
    for step in range(1, cfg["steps"] + 1):
        loss, _ = loss_and_acc(model, tokens(stream, cfg["batch_size"], cfg), cfg)
        opt.zero_grad()
        loss.backward()
        if cfg["max_norm"] > 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), cfg["max_norm"])
        opt.step()
        if step % every == 0 or step == cfg["steps"]:
            evaluate(step)
    return model, last


def main(argv=None):
    parser = argparse.ArgumentParser(description="Unroll's delay-copy runs in PyTorch.")
    parser.add_argument("--cell", choices=["rnn", "lstm", "gru"], action="append",
                        help="train this cell (repeatable); default: the configuration's")
    parser.add_argument("--steps", type=int, help="optimisation steps of every run")
    parser.add_argument("--seeds", type=int, help="runs per cell, seeds seed, seed+1, ...")
    parser.add_argument("--seed", type=int, help="seed of the first run")
    parser.add_argument("--delay", type=int, help="how many steps back the target is")
    parser.add_argument("--save", help="save each run's weights as PATH (cell and seed added)")
    args = parser.parse_args(argv)
    cfg = dict(CONFIG)
    for key in ("steps", "seeds", "seed", "delay"):
        if getattr(args, key) is not None:
            cfg[key] = getattr(args, key)
    if args.cell:
        cfg["cells"] = args.cell
    if not 0 < cfg["delay"] < cfg["length"]:
        sys.exit(f"delay must satisfy 0 < delay < length ({cfg['length']})")

    import torch

    torch.set_num_threads(1)
    heldout = tokens(torch.Generator().manual_seed(HELDOUT_SEED), HELDOUT_SEQUENCES, cfg)
    emit = lambda row: print(json.dumps(row), flush=True)
    finals = {}
    for seed in range(cfg["seed"], cfg["seed"] + cfg["seeds"]):
        for cell in cfg["cells"]:
            model, acc = train(cell, seed, cfg, heldout, emit)
            finals.setdefault(cell, []).append(acc)
            if args.save:
                stem = args.save[:-3] if args.save.endswith(".pt") else args.save
                torch.save(model.state_dict(), f"{stem}-{cell}-seed{seed}.pt")
    chance = 1.0 / cfg["vocab"]
    print(f"held-out token accuracy after {cfg['steps']} steps, delay {cfg['delay']}, "
          f"chance {chance:.2f}:", file=sys.stderr)
    for cell, accs in finals.items():
        print(f"  {cell:5} " + "  ".join(f"{a:.3f}" for a in accs), file=sys.stderr)


if __name__ == "__main__":
    main()
