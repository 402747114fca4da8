// The before/after GPU bench reads each `bench` binary's printed tables: seconds per step and
// the host's dispatch / submit / read-back counts of the timed pattern (not the session's).

import { test } from "node:test";
import assert from "node:assert/strict";
import { parseBench } from "../bench/gpu-sides.mjs";

const OUT = `GPU path: llvmpipe (LLVM 15.0.6, 256 bits) — Mesa 22.3.6 (LLVM 15.0.6) (Vulkan), whole-sequence cell kernels with 8 batch rows per workgroup, 8 per invocation (default); CPU path: 1 thread, matrix products avx512f and portable.

| cell | path | sec/iteration (median) | fastest | GFLOP/iteration | GFLOP/s (median) |
|------|------|-----------------------:|--------:|----------------:|-----------------:|
| LSTM | cpu (avx512f) | 0.00410 | 0.00400 | 0.1770 | 43.17 |
| LSTM | gpu | 0.09450 | 0.09394 | 0.1770 | 1.87 |

GPU compute dispatches of one training step by length (batch 64, 1 layer, 1 direction):

| cell | T = 7 | T = 96 |
|------|------:|-------:|
| LSTM | 14 | 14 |

| cell | compute dispatches | queue submits | buffer read-backs |
|------|-------------------:|--------------:|------------------:|
| LSTM | 14 / 14 | 2 / 1.125 | 1 / 0.125 |
`;

test("reads the GPU row's median and the timed pattern's host counts", () => {
  assert.deepEqual(parseBench(OUT, "lstm"), {
    sec: 0.0945,
    dispatches: 14,
    submits: 2,
    readbacks: 1,
    adapter: "llvmpipe",
  });
});

test("a cell the output does not hold, or a failed GPU row, is an error, not a number", () => {
  assert.ok(parseBench(OUT, "rnn").error);
  const failed = "| RNN | gpu | failed: device lost | | | |\n";
  assert.match(parseBench(failed, "rnn").error, /device lost/);
  assert.match(parseBench("GPU path: unavailable (no adapter); CPU rows only.", "rnn").error, /no adapter/);
});
