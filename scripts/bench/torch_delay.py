#!/usr/bin/env python3
"""PyTorch's time for a delay-copy sweep, by the lab's own "As PyTorch" script.

The script is the one the page offers for the sweep's configuration (written by the native
`delay-copy --as-pytorch FILE` with the bench's settings), imported and run as it is: every
cell and seed in turn, one fresh random batch a step, the held-out evaluations on Unroll's
schedule. The script asks PyTorch for one thread; `--threads` gives it N instead (its call
to `torch.set_num_threads` is redirected), so the same sweep is timed on 1 thread and on N.

    python3 scripts/bench/torch_delay.py --script FILE [--threads 1,2] [--rounds 1]

Prints one JSON object per thread count: threads, sec (the median of the rounds' wall-clock
seconds of the whole sweep), secs (each round's). Without torch it prints a line saying so
and exits 0 (a benchmark, not a test).
"""

import argparse
import contextlib
import importlib.util
import io
import json
import statistics
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--script", required=True, help="the page's script (delay-copy --as-pytorch)")
    ap.add_argument("--threads", default="1")
    ap.add_argument("--rounds", type=int, default=1)
    args = ap.parse_args()
    try:
        import torch
    except ImportError:
        print(json.dumps({"skipped": "torch is not installed (pip install torch)"}))
        return 0
    spec = importlib.util.spec_from_file_location("unroll_delay_copy", args.script)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    set_threads = torch.set_num_threads
    for n in [int(t) for t in args.threads.split(",")]:
        torch.set_num_threads = lambda _asked, n=n: set_threads(n)
        secs = []
        for _ in range(args.rounds):
            t0 = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                script.main([])
            secs.append(time.perf_counter() - t0)
        print(json.dumps({"threads": n, "sec": statistics.median(secs), "secs": secs}), flush=True)
    torch.set_num_threads = set_threads
    return 0


if __name__ == "__main__":
    sys.exit(main())
