"""Writes the names generator's fixtures (core/tests/fixtures/generate/*.json): one teacher-forced
batch of a next-character model conditioned on the language, through a PyTorch model in
float64, with the loss and the gradient of every parameter. Fixed seeds.

    python3 core/tests/python/make_generate_fixtures.py core/tests/fixtures/generate

The model (A letters, a start marker, an end marker, C languages; names of n letters, T = n + 1):

- step t reads the one-hot of the start marker (t = 0) or of letter t (slot A is the start
  marker), width A + 1; with `conditioning = "input"` the language's one-hot is concatenated
  to it (PyTorch's char-RNN generation tutorial: `torch.cat((category, input), 1)` order
  reversed, letters first), width A + 1 + C, and the recurrent module starts from zeros;
- with `conditioning = "state"` the input is the letters alone and the initial hidden state of
  every layer and direction is a learned linear map of the language's one-hot:
  `h0 = init(onehot).view(B, L·D, H).transpose(0, 1)` with `init = nn.Linear(C, L·D·H)`
  (an LSTM's c0 stays zero);
- `fc = nn.Linear(D·H, A + 1)` at every step; the targets are the next letter, and the end
  marker (class A) after the last; `nn.CrossEntropyLoss()` (mean over the T·B steps).

Fields: `conditioning`, `cell`, `hidden_size`, `num_layers`, `bidirectional`, `letters` A,
`languages` C, `names` (`[B][n]` letter indices), `language` (`[B]`), `batch`, `seq_len`,
`dense` (`[T, B, I]` time-major, flat), `classes` (`[T·B]`, step-major), `readouts` (T),
`params` and `grads` (`{name: {"shape", "data"}}`: `rnn.*`, `fc.*`, and `init.*` for "state"),
`loss`.
"""
import sys

import torch

from fixture_json import tensor, write

A, C = 4, 2


def case(conditioning, cell, hidden, layers, bidirectional, batch, n):
    torch.manual_seed(17)
    g = torch.Generator().manual_seed(3)
    names = torch.randint(0, A, (batch, n), generator=g)
    language = torch.randint(0, C, (batch,), generator=g)
    t_len = n + 1
    symbols = torch.cat([torch.full((batch, 1), A), names], dim=1).t()  # [T, B], A = start
    x = torch.nn.functional.one_hot(symbols, A + 1).double()
    lang = torch.nn.functional.one_hot(language, C).double()  # [B, C]
    if conditioning == "input":
        x = torch.cat([x, lang.unsqueeze(0).expand(t_len, batch, C)], dim=2)
    targets = torch.cat([names, torch.full((batch, 1), A)], dim=1).t()  # [T, B]
    d = 2 if bidirectional else 1
    rnn_cls = {"rnn": torch.nn.RNN, "lstm": torch.nn.LSTM, "gru": torch.nn.GRU}[cell]
    rnn = rnn_cls(x.shape[2], hidden, num_layers=layers, bidirectional=bidirectional).double()
    fc = torch.nn.Linear(d * hidden, A + 1).double()
    named = [("rnn." + k, p) for k, p in rnn.named_parameters()]
    named += [("fc." + k, p) for k, p in fc.named_parameters()]
    if conditioning == "state":
        init = torch.nn.Linear(C, layers * d * hidden).double()
        named += [("init." + k, p) for k, p in init.named_parameters()]
        h0 = init(lang).view(batch, layers * d, hidden).transpose(0, 1).contiguous()
        state = (h0, torch.zeros_like(h0)) if cell == "lstm" else h0
        out, _ = rnn(x, state)
    else:
        out, _ = rnn(x)
    y = fc(out.reshape(t_len * batch, d * hidden))  # step-major rows
    loss = torch.nn.functional.cross_entropy(y, targets.reshape(-1))
    loss.backward()
    return {
        "conditioning": conditioning, "cell": cell, "hidden_size": hidden, "num_layers": layers,
        "bidirectional": bidirectional, "letters": A, "languages": C,
        "names": names.tolist(), "language": language.tolist(),
        "batch": batch, "seq_len": t_len, "readouts": t_len,
        "dense": x.reshape(-1).tolist(), "classes": targets.reshape(-1).tolist(),
        "params": {k: tensor(p) for k, p in named},
        "grads": {k: tensor(p.grad) for k, p in named},
        "loss": loss.item(),
    }


CASES = [
    ("input", "gru", 1, False),
    ("input", "lstm", 1, True),
    ("input", "rnn", 2, False),
    ("state", "gru", 1, False),
    ("state", "lstm", 2, True),
]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "core/tests/fixtures/generate"
    for conditioning, cell, layers, bidirectional in CASES:
        f = case(conditioning, cell, hidden=3, layers=layers, bidirectional=bidirectional, batch=3, n=3)
        tag = f"{conditioning}_{cell}_l{layers}" + ("_bi" if bidirectional else "")
        write(f"{out}/{tag}.json", f)


if __name__ == "__main__":
    main()
