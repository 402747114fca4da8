#!/usr/bin/env node
// Two builds' GPU training steps side by side, natively (reports, asserts nothing): the `bench`
// binary of an earlier commit and of this one, run alternately on each Vulkan driver found
// here, at the names recipe's shape (hidden 128, batch 64, length 7: the names' mean padded
// length) and at the long-memory lab's delay task shape (hidden 128, batch 32, length 96; with
// the names' one-hot input and head, so only the recurrence differs from the lab's model).
// For each: seconds per training step (median of --iters after one warm-up, one step then a
// wait for its result) and the compute dispatches, queue submits and read-backs per step, as
// each binary's own counters print them.
//
// Drivers: the system's default Vulkan ICD (lavapipe here) and, where the system Chromium ships
// it, SwiftShader's Vulkan ICD (the same emulated GPU the browser's WebGPU runs on, here
// through wgpu instead of Dawn).
//
// Usage: node scripts/bench/gpu-sides.mjs --before DIR --after DIR [--cells lstm,gru,rnn]
//            [--iters 3] [--delay-cells lstm,rnn]
// DIR: a folder holding a release `bench` binary.

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/**
 * Reads one `bench --backend gpu --cells CELL` output: the GPU row's median seconds per step,
 * the timed pattern's dispatches / submits / read-backs per step and the adapter's name.
 * Returns { sec, dispatches, submits, readbacks, adapter } or { error } (the bench's own
 * failure text where it printed one).
 */
export function parseBench(out, cell) {
  const up = cell.toUpperCase();
  const time = out.match(new RegExp(`^\\| ${up} \\| gpu \\| ([0-9.]+) \\|`, "m"));
  const host = out.match(new RegExp(`^\\| ${up} \\| (\\d+) / [0-9.]+ \\| (\\d+) / [0-9.]+ \\| (\\d+) / [0-9.]+ \\|`, "m"));
  const adapter = out.match(/^GPU path: ([^—(]+)/m)?.[1]?.trim();
  if (!time) return { error: (out.match(/failed: (.*)|unavailable \((.*)\)/)?.[0] ?? "no GPU row").slice(0, 80) };
  return {
    sec: Number(time[1]),
    dispatches: host ? Number(host[1]) : undefined,
    submits: host ? Number(host[2]) : undefined,
    readbacks: host ? Number(host[3]) : undefined,
    adapter,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) main();

function main() {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : dflt;
  };
  const BEFORE = opt("--before");
  const AFTER = opt("--after");
  if (!BEFORE || !AFTER) {
    console.error("usage: gpu-sides.mjs --before DIR --after DIR [--cells lstm,gru,rnn] [--iters 3]");
    process.exit(2);
  }
  const CELLS = opt("--cells", "lstm,gru,rnn").split(",");
  const DELAY_CELLS = opt("--delay-cells", "lstm,rnn").split(",");
  const ITERS = opt("--iters", "3");
  const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
  const SWIFTSHADER_ICD = [join(dirname(CHROMIUM), "vk_swiftshader_icd.json"), "/usr/lib/chromium/vk_swiftshader_icd.json"].find(
    existsSync,
  );

  const drivers = [{ name: "default Vulkan driver", env: {} }];
  if (SWIFTSHADER_ICD) drivers.push({ name: "SwiftShader (Vulkan)", env: { VK_ICD_FILENAMES: SWIFTSHADER_ICD } });
  const shapes = [
    { name: "names recipe", seqLen: 7, batch: 64, cells: CELLS },
    { name: "delay shape", seqLen: 96, batch: 32, cells: DELAY_CELLS },
  ];

  /** One `bench --backend gpu` run: { sec, dispatches, submits, readbacks, adapter } or { error }. */
  function run(dir, cell, shape, env) {
    const bin = join(dir, "bench");
    const r = spawnSync(
      bin,
      ["--backend", "gpu", "--cells", cell, "--iters", ITERS, "--warmup", "1", "--seq-len", String(shape.seqLen), "--batch-size", String(shape.batch)],
      { env: { ...process.env, ...env }, encoding: "utf8", timeout: 900_000 },
    );
    return parseBench(`${r.stdout ?? ""}${r.stderr ?? ""}`, cell);
  }

  const fmt = (r) => (r.error ? `failed: ${r.error}` : r.sec.toFixed(4));
  const hostOf = (r) => (r.error ? "–" : `${r.dispatches} / ${r.submits} / ${r.readbacks}`);

  console.log(`before: ${BEFORE}\nafter:  ${AFTER}\n`);
  console.log("| driver | shape | cell | before s/step | after s/step | after / before | before dispatches / submits / read-backs | after |");
  console.log("|---|---|---|---:|---:|---:|---|---|");
  for (const driver of drivers) {
    for (const shape of shapes) {
      for (const cell of shape.cells) {
        const before = run(BEFORE, cell, shape, driver.env);
        const after = run(AFTER, cell, shape, driver.env);
        const ratio = before.error || after.error ? "–" : `${(after.sec / before.sec).toFixed(2)}×`;
        const label = after.adapter ?? before.adapter ?? driver.name;
        console.log(
          `| ${label} | ${shape.name} (T = ${shape.seqLen}, batch ${shape.batch}) | ${cell.toUpperCase()} | ${fmt(before)} | ${fmt(after)} | ${ratio} | ${hostOf(before)} | ${hostOf(after)} |`,
        );
      }
    }
  }
}
