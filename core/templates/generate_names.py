#!/usr/bin/env python3
"""Unroll's names generator (a next-character model conditioned on the language), as a PyTorch
script.

Written by Unroll for one configuration of its generation lab (the block below). It trains the
same model with the same recipe on the same names, judges it on the same held-out names against
the same baselines, and writes names with a temperature and top-k as the lab does.

    pip install torch
    python3 generate_names.py                       # train, report, then write names
    python3 generate_names.py --epochs 1 --samples 0 # one epoch, no names written
    python3 generate_names.py --steps 1500          # the lab's step budget: stops after 1500 steps
    python3 generate_names.py --language Italian --prefix Ma --temperature 0.8 --show 10

What is the same as on the lab: the data (the PyTorch tutorial's data/names files) and its
normalisation, the split (the names classifier's: its validation names are the held-out names,
drawn with Unroll's generator, so exactly the lab's), the alphabet (the symbols the names use)
with a start marker read before the first letter and an end marker predicted after the last,
teacher forcing, the batches (names of one length each, so no step is padding) and their order,
the module (nn.RNN / nn.LSTM / nn.GRU, batch_first, then nn.Linear at every step; parameter
names rnn.*, fc.* and, when the language is the initial state, init.*), the loss
(nn.CrossEntropyLoss over every real character, the end marker counted as one), Adam, the
clipping, the baselines (uniform, unigram and bigram models with add-one smoothing fitted on the
training names) and the sampler (softmax of logits / temperature over the top-k). What is not:
PyTorch's initial weights and its random draws when sampling, so losses agree within the spread
of seeds, not digit for digit.

Output: JSON lines: {"baselines"} (held-out loss per character in nats, the split's sizes),
one {"epoch"} per epoch (train_loss, heldout_loss, perplexity, below_bigram, steps, step, sec; with
--steps the last epoch is cut where the lab's run stops, and `step` counts every step so far), one
{"quality"} per language (shares of training, held-out and new names among --samples names,
mean length, some samples) and a closing {"summary"}.
"""
import argparse
import json
import math
import string
import sys
import time
import unicodedata
from pathlib import Path

# <configuration>
CONFIG = dict(
    cell="gru",
    hidden_size=64,
    num_layers=1,
    bidirectional=False,
    conditioning="input",
    lr=0.005,
    batch_size=32,
    epochs=3,
    steps=0,
    max_norm=1.0,
    forget_bias=1.0,
    seed=0,
    split_seed=0,
    temperature=0.5,
    top_k=0,
    samples=200,
    max_len=24,
)
DATA = "data/names"  # a folder of <Language>.txt files, or a name<TAB>label .tsv file
PAGE = None  # the page this configuration came from
# </configuration>

# <data>
from train_names import (EPOCH_STREAM_BASE, INDEX, SPLIT_STREAM, VAL_FRACTION, VOCAB, ChaCha8,  # noqa: E402,F401
                         epoch_batches, load, normalize, read_text, shuffle, split)
# </data>

EVAL_BATCH = 256  # held-out names per evaluation batch


def baselines(train_names, heldout_names, letters):
    """Held-out loss per character of the uniform, unigram and bigram models fitted on the
    training names (letter indices; K = letters + 1 outcomes: the letters and the end marker;
    previous symbols: the letters and the start marker = letters), add-one smoothed."""
    k = letters + 1
    uni, bi, frm, total = [0] * k, [[0] * k for _ in range(k)], [0] * k, 0

    def pairs(name):
        return zip([letters, *name], [*name, letters])

    for name in train_names:
        for p, c in pairs(name):
            uni[c] += 1
            bi[p][c] += 1
            frm[p] += 1
            total += 1
    unigram = bigram = 0.0
    n = 0
    for name in heldout_names:
        for p, c in pairs(name):
            unigram -= math.log((uni[c] + 1) / (total + k))
            bigram -= math.log((bi[p][c] + 1) / (frm[p] + k))
            n += 1
    return {"uniform": math.log(k), "unigram": unigram / n, "bigram": bigram / n, "characters": n}


def main():
    import torch
    from torch import nn

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=DATA, help="folder of <Language>.txt files or a name<TAB>label .tsv")
    ap.add_argument("--epochs", type=int, default=CONFIG["epochs"], help="whole epochs, when --steps is 0")
    ap.add_argument("--steps", type=int, default=CONFIG["steps"],
                    help="optimisation steps in all, as the lab's step budget (0: --epochs whole epochs)")
    ap.add_argument("--seed", type=int, default=CONFIG["seed"], help="seed of the weights, the batches and the samples")
    ap.add_argument("--split-seed", type=int, default=CONFIG["split_seed"], help="seed of the split (the names page's)")
    ap.add_argument("--threads", type=int, default=0, help="torch.set_num_threads (0: PyTorch's default)")
    ap.add_argument("--temperature", type=float, default=CONFIG["temperature"], help="0.1 to 2")
    ap.add_argument("--top-k", type=int, default=CONFIG["top_k"], help="draw among the k most likely symbols (0: all)")
    ap.add_argument("--greedy", action="store_true", help="always the most likely symbol")
    ap.add_argument("--prefix", default="", help="letters every name starts with")
    ap.add_argument("--language", action="append", help="write names for this language only (repeatable)")
    ap.add_argument("--samples", type=int, default=CONFIG["samples"], help="names written per language (0: none)")
    ap.add_argument("--show", type=int, default=5, help="of which printed per language")
    args = ap.parse_args()
    c = CONFIG
    if not 0.1 <= args.temperature <= 2 and not args.greedy:
        sys.exit(f"--temperature {args.temperature}: between 0.1 and 2")
    if args.threads > 0:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    pairs = load(args.data)
    classes = sorted({lang for _, lang in pairs})
    label = {lang: k for k, lang in enumerate(classes)}
    train, val = split(pairs, classes, args.split_seed)
    alphabet = "".join(ch for ch in VOCAB if any(ch in name for name, _ in pairs))
    letter = {ch: i for i, ch in enumerate(alphabet)}
    a, langs = len(alphabet), len(classes)  # start = input slot a, end = class a
    state = c["conditioning"] == "state"
    features = a + 1 + (0 if state else langs)
    letters_of = [[letter[ch] for ch in name] for name, _ in pairs]
    base = baselines([letters_of[i] for i in train], [letters_of[i] for i in val], a)
    print(json.dumps({"baselines": {**base, "letters": a, "train_names": len(train), "heldout_names": len(val)}}), flush=True)

    cells = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}
    layers, hidden = c["num_layers"], c["hidden_size"]
    directions = 2 if c["bidirectional"] else 1

    class Generator(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = cells[c["cell"]](features, hidden, num_layers=layers,
                                        bidirectional=c["bidirectional"], batch_first=True)
            self.fc = nn.Linear(directions * hidden, a + 1)
            if state:
                self.init = nn.Linear(langs, layers * directions * hidden)

        def forward(self, x, lang):
            """x: [batch, steps, features] one-hot; lang: [batch]. Returns logits [batch, steps, a + 1]."""
            if state:
                h0 = self.init(nn.functional.one_hot(lang, langs).float())
                h0 = h0.view(len(lang), layers * directions, hidden).transpose(0, 1).contiguous()
                out, _ = self.rnn(x, (h0, torch.zeros_like(h0)) if c["cell"] == "lstm" else h0)
            else:
                out, _ = self.rnn(x)
            return self.fc(out)

    model = Generator()
    if c["cell"] == "lstm" and c["forget_bias"]:
        with torch.no_grad():
            for name, p in model.rnn.named_parameters():
                if name.startswith("bias_ih"):
                    p[hidden:2 * hidden] += c["forget_bias"]

    def encode(names, lang):
        """Teacher-forced input [batch, n + 1, features] of names of n letters each (start,
        c1 ... cn), with the language's one-hot at every step unless it is the initial state."""
        x = torch.zeros(len(names), len(names[0]) + 1, features)
        for b, (name, ln) in enumerate(zip(names, lang)):
            x[b, 0, a] = 1.0
            for t, ch in enumerate(name):
                x[b, t + 1, ch] = 1.0
            if not state:
                x[b, :, a + 1 + ln] = 1.0
        return x

    def batch_of(indices):
        names = [letters_of[i] for i in indices]
        lang = [label[pairs[i][1]] for i in indices]
        targets = torch.tensor([[*name, a] for name in names])  # c1 ... cn, end
        return encode(names, lang), torch.tensor(lang), targets

    by_length = {}
    for i in val:
        by_length.setdefault(len(pairs[i][0]), []).append(i)
    heldout = [idx[k:k + EVAL_BATCH] for n in sorted(by_length) for idx in [by_length[n]]
               for k in range(0, len(idx), EVAL_BATCH)]

    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), lr=c["lr"])
    done, epoch = 0, 0

    def more():
        return done < args.steps if args.steps > 0 else epoch < args.epochs

    while more():
        epoch += 1
        start, total, steps = time.time(), 0.0, 0
        model.train()
        for indices in epoch_batches(pairs, train, c["batch_size"], args.seed, epoch - 1, join_rest=False):
            if args.steps > 0 and done >= args.steps:
                break  # the lab's run stops here, within the epoch
            done += 1
            x, lang, y = batch_of(indices)
            loss = loss_fn(model(x, lang).reshape(-1, a + 1), y.reshape(-1))
            opt.zero_grad()
            loss.backward()
            if c["max_norm"] > 0:
                nn.utils.clip_grad_norm_(model.parameters(), c["max_norm"])
            opt.step()
            total += loss.item()
            steps += 1
        if steps == 0:
            break  # no training names: nothing more to train
        sec = time.time() - start
        model.eval()
        held = 0.0
        with torch.no_grad():
            for indices in heldout:
                x, lang, y = batch_of(indices)
                held += nn.functional.cross_entropy(model(x, lang).reshape(-1, a + 1), y.reshape(-1),
                                                    reduction="sum").item()
        held /= base["characters"]
        print(json.dumps({"epoch": epoch, "train_loss": total / max(steps, 1), "heldout_loss": held,
                          "perplexity": math.exp(held), "below_bigram": base["bigram"] - held,
                          "steps": steps, "step": done, "sec": sec}), flush=True)

    if args.samples <= 0:
        return
    prefix = [letter[ch] for ch in normalize(args.prefix)] if args.prefix.strip() else []
    unknown = [ch for ch in normalize(args.prefix) if ch not in letter]
    if unknown:
        sys.exit(f"--prefix {args.prefix!r}: {unknown[0]!r} is in no name of the data")
    train_set = {pairs[i][0] for i in train}
    val_set = {pairs[i][0] for i in val}
    generator = torch.Generator().manual_seed(args.seed * 1_000_000)

    def write(lang, count):
        """`count` names of language `lang`, written together one letter at a time; each step
        reads the letters written so far (so a backward direction has no future to read)."""
        written = [list(prefix) for _ in range(count)]
        ended = [False] * count
        with torch.no_grad():
            while not all(ended) and len(written[0]) < c["max_len"]:
                x = encode(written, [lang] * count)
                logits = model(x, torch.tensor([lang] * count))[:, -1, :]
                if args.greedy:
                    chosen = logits.argmax(1)
                else:
                    logits = logits / args.temperature
                    if 0 < args.top_k < a + 1:
                        kth = logits.topk(args.top_k, dim=1).values[:, -1:]
                        logits = logits.masked_fill(logits < kth, float("-inf"))
                    chosen = torch.multinomial(torch.softmax(logits, 1), 1, generator=generator)[:, 0]
                for s, ch in enumerate(chosen.tolist()):
                    if ended[s]:
                        written[s].append(a)  # a place holder after the end, dropped below
                    elif ch == a:
                        ended[s] = True
                        written[s].append(a)
                    else:
                        written[s].append(ch)
        names = ["".join(alphabet[ch] for ch in (w[:w.index(a)] if a in w else w)) for w in written]
        return names, ended

    chosen_langs = args.language or classes
    for name in chosen_langs:
        if name not in label:
            sys.exit(f"--language {name}: not one of {classes}")
    means = {"new": 0.0, "training": 0.0, "mean_length": 0.0}
    for name in chosen_langs:
        names, ended = write(label[name], args.samples)
        n = len(names)
        own = [len(pairs[i][0]) for i in train if pairs[i][1] == name]
        q = {"language": name, "training": sum(s in train_set for s in names) / n,
             "heldout": sum(s in val_set and s not in train_set for s in names) / n,
             "new": sum(s not in train_set and s not in val_set for s in names) / n,
             "unended": ended.count(False) / n, "mean_length": sum(map(len, names)) / n,
             "data_mean_length": sum(own) / max(len(own), 1)}
        for k in means:
            means[k] += q[k] / len(chosen_langs)
        print(json.dumps({"quality": q, "samples": names[:args.show]}), flush=True)
    print(json.dumps({"summary": {**means, "temperature": args.temperature, "top_k": args.top_k,
                                  "greedy": args.greedy, "conditioning": c["conditioning"],
                                  "bidirectional": c["bidirectional"]}}))


if __name__ == "__main__":
    main()
