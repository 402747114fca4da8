"""Writes the long-memory task fixtures (core/tests/fixtures/memory/*.json): one small batch of
each task (adding, copy, temporal order) through a PyTorch model in float64 — the recurrent
module, a Linear head at the readout steps, the task's loss — with the loss and the gradient of
every parameter. Fixed seed.

    python3 core/tests/python/make_memory_fixtures.py core/tests/fixtures/memory

Fields: `task`, `length`, `cell`, `hidden_size`, `forget_bias`, `batch`, `seq_len`, `lengths`
(`[B]`), `dense` (adding: `[T, B, 2]` time-major, flat) or `tokens` (copy, order: `[T, B]`
time-major, flat; 0 after a sequence's end), `values` (adding: `[B]`) or `classes` (`[R·B]`,
readout-major), `readouts` R, `params` and `grads` (`{name: {"shape", "data"}}`, names `rnn.*`
and `fc.*`), `loss` (`MSELoss` or `CrossEntropyLoss`, mean over the readouts).
"""
import sys

import torch

from fixture_json import tensor, write

VOCAB = {"adding": 2, "copy": 10, "order": 8}
OUTPUTS = {"adding": 1, "copy": 10, "order": 4}


def batch_of(task, length, batch, g):
    """Sequences of the task's form (torch's RNG; the generator's own draws are not needed)."""
    if task == "adding":
        t_len = length
        x = torch.zeros(t_len, batch, 2, dtype=torch.float64)
        x[:, :, 0] = torch.rand(t_len, batch, generator=g, dtype=torch.float64)
        values = []
        for b in range(batch):
            i = int(torch.randint(0, t_len // 2, (1,), generator=g))
            j = int(torch.randint(t_len // 2, t_len, (1,), generator=g))
            x[i, b, 1] = 1.0
            x[j, b, 1] = 1.0
            values.append(float(x[i, b, 0] + x[j, b, 0]))
        return {"seq_len": t_len, "lengths": [t_len] * batch, "dense": x, "values": values, "readouts": 1}
    if task == "copy":
        t_len = length + 20
        tok = torch.zeros(t_len, batch, dtype=torch.long)
        tok[:10] = torch.randint(1, 9, (10, batch), generator=g)
        tok[length + 9] = 9
        classes = tok[:10].reshape(-1).tolist()
        return {"seq_len": t_len, "lengths": [t_len] * batch, "tokens": tok, "classes": classes, "readouts": 10}
    t_len = length + 10
    tok = torch.zeros(t_len, batch, dtype=torch.long)
    lengths, classes = [], []
    for b in range(batch):
        n = int(torch.randint(length, length + 11, (1,), generator=g))
        tok[1 : n - 1, b] = torch.randint(0, 4, (n - 2,), generator=g)
        tok[0, b], tok[n - 1, b] = 6, 7
        i = int(torch.randint(10, 21, (1,), generator=g))
        j = int(torch.randint(50, 61, (1,), generator=g))
        fy, sy = [int(v) for v in torch.randint(0, 2, (2,), generator=g)]
        tok[i, b], tok[j, b] = 4 + fy, 4 + sy
        lengths.append(n)
        classes.append(2 * fy + sy)
    return {"seq_len": t_len, "lengths": lengths, "tokens": tok, "classes": classes, "readouts": 1}


def case(task, cell, length, hidden, batch, forget_bias):
    torch.manual_seed(11)
    g = torch.Generator().manual_seed(5)
    data = batch_of(task, length, batch, g)
    rnn = {"rnn": torch.nn.RNN, "lstm": torch.nn.LSTM, "gru": torch.nn.GRU}[cell](VOCAB[task], hidden).double()
    fc = torch.nn.Linear(hidden, OUTPUTS[task]).double()
    if cell == "lstm":
        with torch.no_grad():
            rnn.bias_ih_l0[hidden : 2 * hidden] += forget_bias
    if "dense" in data:
        x = data["dense"]
    else:
        x = torch.nn.functional.one_hot(data["tokens"], VOCAB[task]).double()
    out, _ = rnn(x)  # [T, B, H]; steps after a sequence's end are never read
    r = data["readouts"]
    rows = []
    for k in range(r):
        for b in range(batch):
            rows.append(out[data["lengths"][b] - r + k, b])
    y = fc(torch.stack(rows))  # [R·B, O]
    if task == "adding":
        loss = torch.nn.functional.mse_loss(y[:, 0], torch.tensor(data["values"], dtype=torch.float64))
    else:
        loss = torch.nn.functional.cross_entropy(y, torch.tensor(data["classes"]))
    loss.backward()
    named = [("rnn." + n, p) for n, p in rnn.named_parameters()] + [("fc." + n, p) for n, p in fc.named_parameters()]
    fixture = {
        "task": task, "length": length, "cell": cell, "hidden_size": hidden, "forget_bias": forget_bias,
        "batch": batch, "seq_len": data["seq_len"], "lengths": data["lengths"], "readouts": r,
        "params": {n: tensor(p) for n, p in named},
        "grads": {n: tensor(p.grad) for n, p in named},
        "loss": loss.item(),
    }
    if "dense" in data:
        fixture["dense"] = data["dense"].reshape(-1).tolist()
        fixture["values"] = data["values"]
    else:
        fixture["tokens"] = data["tokens"].reshape(-1).tolist()
        fixture["classes"] = data["classes"]
    return fixture


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "core/tests/fixtures/memory"
    for task, cell, length in [("adding", "lstm", 8), ("copy", "gru", 3), ("order", "rnn", 62), ("order", "lstm", 62)]:
        f = case(task, cell, length, hidden=3, batch=3, forget_bias=1.0)
        write(f"{out}/{task}_{cell}.json", f)


if __name__ == "__main__":
    main()
