#!/usr/bin/env node
// The browser's floor for a warm load of the app's wasm module (reports, asserts nothing): how
// long the longest main-thread task is when a page does nothing but compile the same .wasm
// (`WebAssembly.compileStreaming`, as the wasm-bindgen loader does) and instantiate nothing.
// Beside it, the app's own page loaded the same way, so the two figures differ only by what the
// app does after the module is compiled.
//
// Each visit is a new page in one browser profile. Four cases: the floor page, the same with the
// module compiled in a worker and posted to the page (as the app's loader does: the page's
// floor is then only what receiving the module costs), and the app from the HTTP cache (the
// hashed .wasm is `immutable`; service workers blocked), and the app from its service worker
// (offline after the first visit, as scripts/bench-load.mjs's warm visits). --trace lists the
// `v8.wasm.*` events of the page's main thread and of its workers.
// Chromium keeps a code cache beside a wasm response that has been compiled and run for a
// while; a warm load then deserialises that code (the trace's `v8.wasm.compileConsume`) instead
// of compiling. The first visit waits --hot seconds so the cache is written.
//
// Usage: node scripts/bench/wasm-floor.mjs [--dir dist] [--runs 3] [--visits 3] [--hot 8] [--trace]
//        [--cases floor,worker,app-http,app-sw]
// Needs a release build in --dir and the system Chromium.

import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { createDistServer } from "../serve-dist.mjs";
import { flag, opt } from "./cli.mjs";

const DIR = resolve(opt("--dir", "dist"));
const RUNS = Number(opt("--runs", "3"));
const VISITS = Number(opt("--visits", "3"));
const HOT_S = Number(opt("--hot", "8"));
const TRACE = flag("--trace");
/** Which cases run (--cases floor,worker,app-http,app-sw; default all). */
const CASES = opt("--cases", "floor,worker,app-http,app-sw").split(",");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const WASM = readdirSync(DIR).find((f) => /_bg\.wasm$/.test(f));
if (!WASM) throw new Error(`no *_bg.wasm in ${DIR}`);

/** The floor page: compile the module, record when it is done, nothing else. */
const FLOOR_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>wasm floor</title></head><body>
<h1>wasm floor</h1>
<script type="module">
const t0 = performance.now();
const module = await WebAssembly.compileStreaming(fetch("/${WASM}"));
window.__compiledAt = performance.now();
window.__compileMs = window.__compiledAt - t0;
window.__module = module;
</script></body></html>`;

/** The same, the module compiled by a worker and posted to the page (as the app's loader does). */
const FLOOR_WORKER_HTML = `<!doctype html><html><head><meta charset="utf-8"><title>wasm floor, worker</title></head><body>
<h1>wasm floor, compiled in a worker</h1>
<script type="module">
const t0 = performance.now();
const worker = new Worker("/floor-worker.js");
const module = await new Promise((resolve) => (worker.onmessage = (e) => resolve(e.data)));
window.__compiledAt = performance.now();
window.__compileMs = window.__compiledAt - t0;
window.__module = module;
</script></body></html>`;
const FLOOR_WORKER_JS = `WebAssembly.compileStreaming(fetch("/${WASM}")).then((m) => postMessage(m));`;

/** Runs before any page script: every main-thread task over 50 ms. */
function probe() {
  window.__tasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__tasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: "longtask", buffered: true });
}

/**
 * `v8.wasm.*` and long `RunTask` events of the renderer's main thread, as "name ms" lines, and
 * the `v8.wasm.*` events of its dedicated workers, as "worker: name ms".
 */
function wasmEvents(events) {
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  if (!main) return [];
  const workers = new Set(
    events
      .filter((e) => e.name === "thread_name" && e.pid === main.pid && /^DedicatedWorker/.test(e.args?.name ?? ""))
      .map((e) => e.tid),
  );
  return events
    .filter((e) => e.pid === main.pid && (e.tid === main.tid || workers.has(e.tid)) && e.ph === "X" && e.dur > 5_000)
    .filter((e) => e.name.startsWith("v8.wasm") || (e.tid === main.tid && e.name === "RunTask" && e.dur > 50_000))
    .map((e) => `${e.tid === main.tid ? "" : "worker: "}${e.name} ${(e.dur / 1000).toFixed(0)}`);
}

async function visit(context, url, ready) {
  const page = await context.newPage();
  await page.addInitScript(probe);
  const cdp = await context.newCDPSession(page);
  const events = [];
  if (TRACE) {
    cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
    await cdp.send("Tracing.start", { categories: "toplevel,v8,v8.wasm,devtools.timeline", transferMode: "ReportEvents" });
  }
  await page.goto(url, { waitUntil: "commit" });
  await page.waitForFunction(ready, null, { timeout: 120_000 });
  await page.waitForTimeout(1500);
  const tasks = await page.evaluate(() => window.__tasks);
  let trace = [];
  if (TRACE) {
    const done = new Promise((r) => cdp.once("Tracing.tracingComplete", r));
    await cdp.send("Tracing.end");
    await done;
    trace = wasmEvents(events);
  }
  return { page, longest: Math.max(0, ...tasks.map((t) => t.duration)), trace };
}

async function run(path, ready, sw) {
  const profile = mkdtempSync(join(tmpdir(), "unroll-floor-"));
  const server = createDistServer(DIR, {});
  const extra = (req, res) => {
    const page = { "/floor.html": FLOOR_HTML, "/floor-worker.html": FLOOR_WORKER_HTML }[req.url.split("?")[0]];
    if (page) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" }).end(page);
      return true;
    }
    if (req.url.startsWith("/floor-worker.js")) {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" }).end(FLOOR_WORKER_JS);
      return true;
    }
    return false;
  };
  const handlers = server.listeners("request");
  server.removeAllListeners("request");
  server.on("request", (req, res) => extra(req, res) || handlers.forEach((h) => h.call(server, req, res)));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}${path}`;
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    serviceWorkers: sw ? "allow" : "block",
  });
  try {
    const first = await visit(context, url, ready);
    if (sw) await first.page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 120_000 });
    await first.page.waitForTimeout(HOT_S * 1000);
    await first.page.close();
    if (sw) await context.setOffline(true);
    const warm = [];
    for (let i = 0; i < VISITS; i++) {
      const v = await visit(context, url, ready);
      await v.page.close();
      warm.push(v);
    }
    return warm;
  } finally {
    await context.close();
    server.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`warm loads of ${DIR}/${WASM}, ${RUNS} profiles × ${VISITS} visits`);
const floorReady = () => window.__compiledAt !== undefined;
const appReady = () => !!document.querySelector('[data-testid="train-start"]');
for (const [key, label, path, ready, sw] of [
  ["floor", "floor page (compile only), HTTP cache:", "/floor.html", floorReady, false],
  ["worker", "floor page (compile in a worker), HTTP cache:", "/floor-worker.html", floorReady, false],
  ["app-http", "app (?v=1&lesson=names), HTTP cache:  ", "/?v=1&lesson=names", appReady, false],
  ["app-sw", "app (?v=1&lesson=names), service worker:", "/?v=1&lesson=names", appReady, true],
]) {
  if (!CASES.includes(key)) continue;
  const all = [];
  const traces = [];
  for (let i = 0; i < RUNS; i++) {
    const warm = await run(path, ready, sw);
    all.push(...warm.map((v) => v.longest));
    traces.push(...warm.map((v) => v.trace.join(", ")));
  }
  console.log(`${label} longest main-thread task median ${median(all).toFixed(0)} ms (visits: ${all.map((x) => x.toFixed(0)).join(", ")})`);
  if (TRACE) for (const t of traces) console.log(`    ${t || "no wasm event over 5 ms"}`);
}
