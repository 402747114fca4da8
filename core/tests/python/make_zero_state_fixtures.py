"""Writes module fixtures without `h0`/`c0`: PyTorch's default initial state (zeros, which take no
gradient), in the format of core/tests/fixtures/README.md. float64, fixed seed.

    python3 core/tests/python/make_zero_state_fixtures.py core/tests/fixtures
"""
import sys

import torch

from fixture_json import tensor, write


def case(cell, name, num_layers, bidirectional, batch_first):
    torch.manual_seed(7)
    input_size, hidden_size, batch, seq_len = 3, 4, 2, 5
    module = {"rnn": torch.nn.RNN, "lstm": torch.nn.LSTM, "gru": torch.nn.GRU}[cell](
        input_size, hidden_size, num_layers=num_layers, bidirectional=bidirectional,
        batch_first=batch_first).double()
    shape = (batch, seq_len, input_size) if batch_first else (seq_len, batch, input_size)
    x = torch.randn(*shape, dtype=torch.float64, requires_grad=True)
    out = module(x)  # no initial state: PyTorch uses zeros
    if cell == "lstm":
        output, (h_n, c_n) = out
    else:
        output, h_n = out
        c_n = None
    grad_output = torch.randn_like(output)
    grad_h_n = torch.randn_like(h_n)
    loss = (grad_output * output).sum() + (grad_h_n * h_n).sum()
    grad_c_n = None
    if c_n is not None:
        grad_c_n = torch.randn_like(c_n)
        loss = loss + (grad_c_n * c_n).sum()
    loss.backward()
    params = dict(module.named_parameters())
    fixture = {
        "name": name,
        "source": f"torch {torch.__version__} nn.{module.__class__.__name__} float64, no initial state",
        "cell": cell,
        "input_size": input_size,
        "hidden_size": hidden_size,
        "num_layers": num_layers,
        "bidirectional": bidirectional,
        "batch_first": batch_first,
        "batch": batch,
        "seq_len": seq_len,
        "loss_definition": "L = sum(grad_output*output) + sum(grad_h_n*h_n) + sum(grad_c_n*c_n) (c_n for lstm only)",
        "params": {k: tensor(v) for k, v in params.items()},
        "input": tensor(x),
        "output": tensor(output),
        "h_n": tensor(h_n),
        "grad_output": tensor(grad_output),
        "grad_h_n": tensor(grad_h_n),
        "loss": loss.item(),
        "grads": {**{k: tensor(v.grad) for k, v in params.items()}, "input": tensor(x.grad)},
        "param_count": sum(p.numel() for p in module.parameters()),
    }
    if c_n is not None:
        fixture["c_n"] = tensor(c_n)
        fixture["grad_c_n"] = tensor(grad_c_n)
    return fixture


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else "core/tests/fixtures"
    for cell, name, layers, bi, bf in [
        ("lstm", "lstm_zero_state", 2, True, True),
        ("gru", "gru_zero_state", 1, False, False),
    ]:
        write(f"{out}/{name}.json", case(cell, name, layers, bi, bf))
