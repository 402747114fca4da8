#!/usr/bin/env python3
"""PyTorch on one CPU thread, timing the names recipe on Unroll's own training batches.

The recipe of the training page: one-hot input over 57 symbols, one recurrent layer (hidden
128), `fc` to 18 languages on each name's last character, cross-entropy, Adam (lr 0.001),
batches of 64. The batches are read from a file written by Unroll's native trainer
(`train-names --dump-batches FILE`: the first epoch's length-bucketed batches for that seed),
so both trainers see exactly the same names in the same batches. Each batch runs the module
over its padded length (batch · seq_len step-rows, as Unroll does) and reads the output at
`lengths − 1`.

    python3 scripts/bench/torch_names.py --batches FILE [--cells lstm,gru,rnn] [--hidden-size 128]
        [--threads 1]

The epoch is trained `--epochs` times over (default 3, as the native trainer's figure in the
bench). Prints one JSON object per cell: cell, sec (the median of those epochs' training
times, on --threads threads), secs (each epoch's), steps, mean_loss (of the first epoch). Without torch it prints a line saying so and exits 0 (a benchmark, not a test).
"""

import argparse
import json
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--batches", required=True, help="JSON lines from train-names --dump-batches")
    ap.add_argument("--cells", default="lstm,gru,rnn")
    ap.add_argument("--hidden-size", type=int, default=128)
    ap.add_argument("--classes", type=int, default=18)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1, help="torch.set_num_threads (default 1)")
    args = ap.parse_args()
    try:
        import torch
        from torch import nn
    except ImportError:
        print(json.dumps({"skipped": "torch is not installed (pip install torch)"}))
        return 0

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    vocab = 57
    batches = []
    with open(args.batches, encoding="utf-8") as f:
        for line in f:
            b = json.loads(line)
            n, t = len(b["lengths"]), b["seq_len"]
            batches.append((
                torch.tensor(b["tokens"], dtype=torch.long).view(n, t),
                torch.tensor(b["lengths"], dtype=torch.long),
                torch.tensor(b["labels"], dtype=torch.long),
            ))
    modules = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}
    for cell in args.cells.split(","):
        rnn = modules[cell](vocab, args.hidden_size, batch_first=True)
        fc = nn.Linear(args.hidden_size, args.classes)
        params = list(rnn.parameters()) + list(fc.parameters())
        opt = torch.optim.Adam(params, lr=1e-3)
        loss_fn = nn.CrossEntropyLoss()
        secs, first_total = [], None
        for _ in range(max(args.epochs, 1)):
            total = 0.0
            t0 = time.perf_counter()
            for tokens, lengths, labels in batches:
                x = nn.functional.one_hot(tokens, vocab).float()
                out, _ = rnn(x)
                last = out[torch.arange(len(lengths)), lengths - 1]
                loss = loss_fn(fc(last), labels)
                opt.zero_grad()
                loss.backward()
                opt.step()
                total += loss.item()
            secs.append(time.perf_counter() - t0)
            if first_total is None:
                first_total = total
        sec = sorted(secs)[len(secs) // 2]
        print(json.dumps({
            "cell": cell, "sec": round(sec, 3), "secs": [round(x, 3) for x in secs],
            "steps": len(batches),
            "mean_loss": round(first_total / max(len(batches), 1), 4),
            "torch": torch.__version__, "threads": torch.get_num_threads(),
        }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
