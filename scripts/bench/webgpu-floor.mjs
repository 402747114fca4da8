#!/usr/bin/env node
// The floor of WebGPU in this browser (reports, asserts nothing): what a submitted dispatch
// costs, and how fast the device does arithmetic at best, without the app. On a CPU-emulated
// adapter (SwiftShader in headless Chromium) these two figures bound what any kernel layout
// can gain: fewer dispatches save at most their cost, and a training step cannot take less
// than its multiply-adds at the best rate.
//
// 1. Dispatch cost: one command buffer holding N dispatches of a kernel that writes one float
//    per invocation (one workgroup of 64 each), submitted, then 4 bytes copied out and mapped
//    (as the app waits for each step's loss). Median over --reps submits for each N; the slope
//    between the smallest and the largest N is the cost of one dispatch, the intercept that of
//    a submit with its read-back.
// 2. Arithmetic rate: 64 workgroups of 64 invocations, each running --iters iterations of 8
//    independent multiply-adds in registers (no memory traffic in the loop). Reported in
//    GFMA/s (10^9 multiply-adds per second), median over --reps dispatches.
//
// Usage: node scripts/bench/webgpu-floor.mjs [--reps 15] [--iters 4096] [--counts 1,14,38,394]
// Needs the system Chromium (CHROMIUM_PATH); WebGPU through --enable-unsafe-webgpu.

import { launch } from "../e2e/lib.mjs";
import { flag, opt } from "./cli.mjs";

const REPS = Number(opt("--reps", "15"));
const ITERS = Number(opt("--iters", "4096"));
const COUNTS = opt("--counts", "1,14,38,394").split(",").map(Number);

/** Runs in the page: both measurements, returned as plain numbers. */
async function measure({ reps, iters, counts }) {
  const adapter = await navigator.gpu?.requestAdapter();
  if (!adapter) return { error: "no WebGPU adapter" };
  const device = await adapter.requestDevice();
  const info = adapter.info ?? {};
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

  const write = device.createComputePipeline({
    layout: "auto",
    compute: {
      module: device.createShaderModule({
        code: `@group(0) @binding(0) var<storage, read_write> out: array<f32>;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  out[g.x] = out[g.x] + 1.0;
}`,
      }),
      entryPoint: "main",
    },
  });
  const out = device.createBuffer({ size: 256, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const writeGroup = device.createBindGroup({ layout: write.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: out } }] });

  // Milliseconds from the submit of one pass (`pipeline`, `group`, `dispatches` workgroup counts)
  // and a 4-byte copy out of `src` to the read-back's mapping.
  async function timeSubmit(pipeline, group, dispatches, src) {
    const enc = device.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(pipeline);
    pass.setBindGroup(0, group);
    for (const groups of dispatches) pass.dispatchWorkgroups(groups);
    pass.end();
    const back = device.createBuffer({ size: 4, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    enc.copyBufferToBuffer(src, 0, back, 0, 4);
    const t0 = performance.now();
    device.queue.submit([enc.finish()]);
    await back.mapAsync(GPUMapMode.READ);
    const ms = performance.now() - t0;
    back.destroy();
    return ms;
  }
  const submitAndRead = (n) => timeSubmit(write, writeGroup, new Array(n).fill(1), out);

  const dispatch = [];
  for (const n of counts) {
    for (let w = 0; w < 3; w++) await submitAndRead(n);
    const times = [];
    for (let r = 0; r < reps; r++) times.push(await submitAndRead(n));
    dispatch.push({ n, ms: median(times) });
  }

  const fmaModule = device.createShaderModule({
    code: `@group(0) @binding(0) var<storage, read_write> sink: array<f32>;
const ITERS: u32 = ${iters}u;
@compute @workgroup_size(64) fn main(@builtin(global_invocation_id) g: vec3<u32>) {
  let x = f32(g.x) * 1e-6;
  var a0 = x; var a1 = x + 0.1; var a2 = x + 0.2; var a3 = x + 0.3;
  var a4 = x + 0.4; var a5 = x + 0.5; var a6 = x + 0.6; var a7 = x + 0.7;
  let m = 0.999; let c = 1e-4;
  for (var i = 0u; i < ITERS; i++) {
    a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);
    a4 = fma(a4, m, c); a5 = fma(a5, m, c); a6 = fma(a6, m, c); a7 = fma(a7, m, c);
  }
  sink[g.x] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}`,
  });
  const fma = device.createComputePipeline({ layout: "auto", compute: { module: fmaModule, entryPoint: "main" } });
  const groups = 64;
  const sink = device.createBuffer({ size: groups * 64 * 4, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC });
  const fmaGroup = device.createBindGroup({ layout: fma.getBindGroupLayout(0), entries: [{ binding: 0, resource: { buffer: sink } }] });
  const runFma = () => timeSubmit(fma, fmaGroup, [groups], sink);
  for (let w = 0; w < 2; w++) await runFma();
  const fmaTimes = [];
  for (let r = 0; r < reps; r++) fmaTimes.push(await runFma());
  const fmaMs = median(fmaTimes);
  const fmas = groups * 64 * iters * 8;
  return {
    adapter: `${info.vendor ?? "?"} ${info.architecture ?? ""} ${info.description ?? ""}`.trim(),
    dispatch,
    fmaMs,
    gfmaPerSec: fmas / (fmaMs * 1e6),
    fmas,
  };
}

const browser = await launch({ webgpu: true });
try {
  const page = await browser.context.newPage();
  await page.route("http://localhost/**", (route) =>
    route.fulfill({ contentType: "text/html", body: "<!doctype html><title>webgpu floor</title>" }),
  );
  await page.goto("http://localhost/floor");
  const r = await page.evaluate(measure, { reps: REPS, iters: ITERS, counts: COUNTS });
  if (r.error) {
    console.log(r.error);
    process.exitCode = 1;
  } else {
    console.log(`adapter: ${r.adapter}`);
    console.log("dispatches in one submit | submit + 4-byte read-back, ms (median)");
    for (const d of r.dispatch) console.log(`${String(d.n).padStart(6)} | ${d.ms.toFixed(3)}`);
    const first = r.dispatch[0];
    const last = r.dispatch[r.dispatch.length - 1];
    const perDispatch = (last.ms - first.ms) / (last.n - first.n);
    console.log(`per dispatch: ${(perDispatch * 1000).toFixed(1)} µs; submit + read-back: ${(first.ms - perDispatch * first.n).toFixed(3)} ms`);
    console.log(
      `arithmetic: ${(r.fmas / 1e6).toFixed(0)} M multiply-adds in ${r.fmaMs.toFixed(1)} ms = ${r.gfmaPerSec.toFixed(2)} GFMA/s`,
    );
  }
} finally {
  await browser.close();
}
