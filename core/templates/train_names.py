#!/usr/bin/env python3
"""Unroll's name -> language classifier, as a PyTorch script.

Written by Unroll for one configuration of its names page (the block below). It trains the same
model with the same recipe on the same data, and it loads the page's downloaded weights.

    pip install torch safetensors
    python3 train_names.py                        # train from PyTorch's default initialisation
    python3 train_names.py --load model.safetensors --epochs 2   # continue from the page's weights
    python3 train_names.py --load model.safetensors --epochs 0 --predict Nguyen,Schmidt

What is the same as on the page: the data (the PyTorch tutorial's data/names files, or your
file), its normalisation (Unicode NFD, the 57 symbols a-z A-Z " .,;'", trimmed ends), one
sample per distinct (name, language) pair, the split's rule (about 10 % of each language for
validation, grouped by name so a name never sits on both sides), batches of names of equal
length, the module (one-hot input -> nn.RNN / nn.LSTM / nn.GRU, batch_first, parameter names
rnn.* and fc.*), PyTorch's default initialisation plus the forget-gate bias, the head, the
loss (mean cross-entropy), Adam and the clipping. The split and the batch order are the
page's too: the script draws them with Unroll's generator (ChaCha8 seeded as Unroll seeds it,
and the same shuffle), so the validation names are the page's. What is not the same: the
initial weights (PyTorch's generator), so accuracies agree within the spread of seeds, not
digit for digit. The weights of a downloaded model, on the other hand, give the page's
predictions.

Output: one JSON object per epoch (epoch, train_loss, val_loss, val_acc, sec) and, with
--predict, one per name (name, probs: the softmax over CLASSES, in that order).
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
    cell="lstm",
    hidden_size=128,
    num_layers=1,
    bidirectional=False,
    lr=0.001,
    batch_size=64,
    epochs=5,
    max_norm=0.0,
    forget_bias=0.0,
    seed=0,
    head="last",
)
CLASSES = None  # the languages in label order (fc's rows); None: the data's, sorted
DATA = "data/names"  # a folder of <Language>.txt files, or a name<TAB>label .tsv file
PAGE = None  # the page this configuration came from
# </configuration>

# <data>
VOCAB = string.ascii_letters + " .,;'"  # a-z, A-Z, then " .,;'": the index order of Unroll's one-hot input
INDEX = {c: i for i, c in enumerate(VOCAB)}
VAL_FRACTION = 0.1


def normalize(line):
    """Trimmed, NFD, only the 57 symbols, trimmed again: "Ślusàrski" -> "Slusarski"."""
    kept = "".join(c for c in unicodedata.normalize("NFD", line.strip()) if c in INDEX)
    return kept.strip(" ")


def read_text(path):
    data = path.read_bytes()
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")


def load(source):
    """[(symbol indices, language)] with one entry per distinct (name, language) pair."""
    path = Path(source)
    pairs = []
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix == ".txt" and p.is_file())
        if not files:
            sys.exit(f"{path}: no <Language>.txt files in this folder")
        for f in files:
            seen = set()
            for line in read_text(f).splitlines():
                name = normalize(line)
                if name and name not in seen:
                    seen.add(name)
                    pairs.append((name, f.stem))
    else:
        seen = set()
        for i, line in enumerate(read_text(path).splitlines()):
            if not line.strip():
                continue
            fields = line.split("\t")
            if i == 0 and len(fields) == 2 and fields[0].strip().lower() == "name":
                continue  # a header line
            if len(fields) != 2 or not fields[1].strip() or not normalize(fields[0]):
                continue  # skipped, as the page skips it
            pair = (normalize(fields[0]), fields[1].strip())
            if pair not in seen:
                seen.add(pair)
                pairs.append(pair)
    return pairs


SPLIT_STREAM = 1  # the split's ChaCha stream
EPOCH_STREAM_BASE = 1 << 32  # epoch e's batches are drawn on stream EPOCH_STREAM_BASE + e
MASK32 = 0xFFFFFFFF


class ChaCha8:
    """Unroll's random numbers: Rust's ChaCha8Rng::seed_from_u64(seed) on stream `stream`
    (rand_chacha 0.9: the key filled by PCG32 from the seed, 8 rounds, a 64-bit block counter
    and a 64-bit stream), read 32 bits at a time."""

    def __init__(self, seed, stream=0):
        state, key = seed & 0xFFFFFFFFFFFFFFFF, []
        for _ in range(8):
            state = (state * 6364136223846793005 + 11634580027462260723) & 0xFFFFFFFFFFFFFFFF
            x, rot = (((state >> 18) ^ state) >> 27) & MASK32, state >> 59
            key.append(((x >> rot) | (x << (32 - rot))) & MASK32)
        self.input = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574, *key, 0, 0,
                      stream & MASK32, (stream >> 32) & MASK32]
        self.words, self.block = [], 0

    def _refill(self):
        def rotl(v, c):
            return ((v << c) & MASK32) | (v >> (32 - c))

        def quarter(x, a, b, c, d):
            x[a] = (x[a] + x[b]) & MASK32; x[d] = rotl(x[d] ^ x[a], 16)
            x[c] = (x[c] + x[d]) & MASK32; x[b] = rotl(x[b] ^ x[c], 12)
            x[a] = (x[a] + x[b]) & MASK32; x[d] = rotl(x[d] ^ x[a], 8)
            x[c] = (x[c] + x[d]) & MASK32; x[b] = rotl(x[b] ^ x[c], 7)

        start = list(self.input)
        start[12], start[13] = self.block & MASK32, self.block >> 32
        x = list(start)
        for _ in range(4):  # 8 rounds
            quarter(x, 0, 4, 8, 12); quarter(x, 1, 5, 9, 13); quarter(x, 2, 6, 10, 14); quarter(x, 3, 7, 11, 15)
            quarter(x, 0, 5, 10, 15); quarter(x, 1, 6, 11, 12); quarter(x, 2, 7, 8, 13); quarter(x, 3, 4, 9, 14)
        self.words = [(a + b) & MASK32 for a, b in zip(x, start)]
        self.words.reverse()
        self.block += 1

    def next_u32(self):
        if not self.words:
            self._refill()
        return self.words.pop()

    def below(self, bound):
        """A number in [0, bound), 0 < bound < 2^32, drawn as Rust's rand 0.9 draws `..bound`."""
        m = self.next_u32() * bound
        result, lo = m >> 32, m & MASK32
        if lo > (-bound & MASK32) and lo + ((self.next_u32() * bound) >> 32) > MASK32:
            result += 1
        return result


def shuffle(items, rng):
    """Shuffles the list in place as Rust's rand 0.9 `SliceRandom::shuffle` does (Fisher-Yates
    from the front, several indices drawn from one 32-bit number)."""
    if len(items) <= 1:
        return
    chunk, remaining = 0, 1
    for i in range(len(items)):
        n = i + 1  # index i is drawn from [0, n)
        if remaining == 0:
            bound, remaining = n, 1
            while bound * (n + remaining) <= MASK32:
                bound *= n + remaining
                remaining += 1
            chunk = rng.below(bound)
        remaining -= 1
        if remaining == 0:
            j = chunk
        else:
            j, chunk = chunk % n, chunk // n
        items[i], items[j] = items[j], items[i]


def split(pairs, classes, seed):
    """(train, val) indices: each language wants round(0.1 * n) validation samples (at least 1,
    at most n - 1); whole names go to validation while every language they belong to wants more."""
    langs_of, order = {}, []
    for i, (name, lang) in enumerate(pairs):
        if name not in langs_of:
            langs_of[name] = []
            order.append(name)
        langs_of[name].append(i)
    count = {c: 0 for c in classes}
    for _, lang in pairs:
        count[lang] += 1
    want = {c: 0 if n < 2 else min(max(math.floor(VAL_FRACTION * n + 0.5), 1), n - 1) for c, n in count.items()}
    shuffle(order, ChaCha8(seed, SPLIT_STREAM))
    val_names = set()
    for name in order:
        langs = [pairs[i][1] for i in langs_of[name]]
        if all(want[c] > 0 for c in langs):
            val_names.add(name)
            for c in langs:
                want[c] -= 1
    for c in classes:
        if count[c] >= 2 and not any(pairs[i][1] == c for n in val_names for i in langs_of[n]):
            val_names.add(next(n for n in order if any(pairs[i][1] == c for i in langs_of[n])))
    val = [i for i, (name, _) in enumerate(pairs) if name in val_names]
    train = [i for i, (name, _) in enumerate(pairs) if name not in val_names]
    return train, val


def epoch_batches(pairs, train, batch_size, seed, epoch, join_rest=True):
    """Epoch `epoch`'s batches (from 0), as Unroll forms them: the names grouped by length, each
    length's names shuffled (shortest length first), cut into batches; each length's remainder
    joined short to long into batches (join_rest) or kept as a batch of its own; the batches
    shuffled. Drawn from ChaCha8(seed) on stream EPOCH_STREAM_BASE + epoch."""
    rng = ChaCha8(seed, EPOCH_STREAM_BASE + epoch)
    buckets = {}
    for i in train:
        buckets.setdefault(len(pairs[i][0]), []).append(i)
    for length in sorted(buckets):
        shuffle(buckets[length], rng)
    batches, rest = [], []
    for length in sorted(buckets):
        bucket = buckets[length]
        full = len(bucket) - len(bucket) % batch_size if join_rest else len(bucket)
        batches += [bucket[k:k + batch_size] for k in range(0, full, batch_size)]
        rest += bucket[full:]
    batches += [rest[k:k + batch_size] for k in range(0, len(rest), batch_size)]
    shuffle(batches, rng)
    return batches


# </data>

PADDED_LEN = 10  # head "padded": names truncated or padded with zero vectors to 10 symbols, output 10 read


def main():
    import torch
    from torch import nn
    from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=DATA, help="folder of <Language>.txt files or a name<TAB>label .tsv")
    ap.add_argument("--epochs", type=int, default=CONFIG["epochs"])
    ap.add_argument("--seed", type=int, default=CONFIG["seed"])
    ap.add_argument("--load", help="a .safetensors file downloaded from the page (rnn.*, fc.*)")
    ap.add_argument("--save", help="write the trained weights here as .safetensors")
    ap.add_argument("--predict", help="comma-separated names to classify at the end")
    args = ap.parse_args()
    c = CONFIG

    torch.manual_seed(args.seed)
    pairs = load(args.data)
    classes = CLASSES or sorted({lang for _, lang in pairs})
    label = {lang: k for k, lang in enumerate(classes)}
    unknown = sorted({lang for _, lang in pairs} - set(label))
    if unknown:
        sys.exit(f"languages not in CLASSES: {unknown}")
    train, val = split(pairs, classes, args.seed)

    cells = {"rnn": nn.RNN, "lstm": nn.LSTM, "gru": nn.GRU}
    directions = 2 if c["bidirectional"] else 1

    class Classifier(nn.Module):
        def __init__(self):
            super().__init__()
            self.rnn = cells[c["cell"]](len(VOCAB), c["hidden_size"], num_layers=c["num_layers"],
                                        bidirectional=c["bidirectional"], batch_first=True)
            self.fc = nn.Linear(directions * c["hidden_size"], len(classes))

        def forward(self, x, lengths):
            """x: [batch, seq_len, 57] one-hot; lengths: [batch]. Returns logits [batch, classes]."""
            if c["head"] == "padded":
                out, _ = self.rnn(x)
                return self.fc(out[:, PADDED_LEN - 1, :])
            packed = pack_padded_sequence(x, lengths, batch_first=True, enforce_sorted=False)
            out, _ = pad_packed_sequence(self.rnn(packed)[0], batch_first=True)
            return self.fc(out[torch.arange(len(lengths)), lengths - 1, :])

    model = Classifier()
    if c["cell"] == "lstm" and c["forget_bias"]:
        h = c["hidden_size"]
        with torch.no_grad():
            for name, p in model.rnn.named_parameters():
                if name.startswith("bias_ih"):
                    p[h:2 * h] += c["forget_bias"]
    if args.load:
        from safetensors.torch import load_file
        model.load_state_dict(load_file(args.load), strict=True)

    def encode(names):
        """One-hot [batch, seq_len, 57] and lengths [batch] (seq_len 10 with head "padded")."""
        lengths = [len(n) for n in names]
        width = PADDED_LEN if c["head"] == "padded" else max(lengths)
        x = torch.zeros(len(names), width, len(VOCAB))
        for b, n in enumerate(names):
            for t, ch in enumerate(n[:width]):
                x[b, t, INDEX[ch]] = 1.0
        return x, torch.tensor(lengths)

    def batch_of(indices):
        x, lengths = encode([pairs[i][0] for i in indices])
        return x, lengths, torch.tensor([label[pairs[i][1]] for i in indices])

    loss_fn = nn.CrossEntropyLoss()
    opt = torch.optim.Adam(model.parameters(), lr=c["lr"])
    for epoch in range(1, args.epochs + 1):
        start, total, n = time.time(), 0.0, 0
        model.train()
        for indices in epoch_batches(pairs, train, c["batch_size"], args.seed, epoch - 1):
            x, lengths, y = batch_of(indices)
            loss = loss_fn(model(x, lengths), y)
            opt.zero_grad()
            loss.backward()
            if c["max_norm"] > 0:
                nn.utils.clip_grad_norm_(model.parameters(), c["max_norm"])
            opt.step()
            total += loss.item() * len(indices)
            n += len(indices)
        model.eval()
        val_loss, correct = 0.0, 0
        with torch.no_grad():
            for k in range(0, len(val), c["batch_size"]):
                x, lengths, y = batch_of(val[k:k + c["batch_size"]])
                logits = model(x, lengths)
                val_loss += nn.functional.cross_entropy(logits, y, reduction="sum").item()
                correct += int((logits.argmax(1) == y).sum())
        print(json.dumps({"epoch": epoch, "train_loss": total / n, "val_loss": val_loss / len(val),
                          "val_acc": correct / len(val), "sec": time.time() - start}), flush=True)
    if args.save:
        from safetensors.torch import save_file
        save_file({k: v.contiguous() for k, v in model.state_dict().items()}, args.save)
    if args.predict:
        model.eval()
        names = [normalize(s) for s in args.predict.split(",") if normalize(s)]
        with torch.no_grad():
            x, lengths = encode(names)
            probs = torch.softmax(model(x, lengths), dim=1)
        for name, p in zip(names, probs):
            print(json.dumps({"name": name, "probs": p.tolist()}))


if __name__ == "__main__":
    main()
