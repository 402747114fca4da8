#!/usr/bin/env node
// Load-time benchmark (reports, asserts nothing): serves a built dist/ with the project's static
// server (scripts/serve-dist.mjs) and opens a page in headless Chromium over an emulated
// 10 Mbit/s link with 40 ms latency (CDP Network.emulateNetworkConditions; --no-throttle: the
// plain loopback), then reports
//
//   first visit     ms from navigation start until the page's heading is in the page (first
//                   the first frame's, drawn by www/frame.js from the HTML alone, then the
//                   mounted app's), and the bytes that crossed the network (as encoded on the wire);
//   second visit    the same, offline (browser offline, server stopped): the service worker
//                   answers from its cache (a warm load);
//
// and, with --compare, the first visit from the same server without the pre-compressed copies
// (what a host that neither compresses nor has the .br/.gz files sends).
// For the training page (`--query '?v=1&lesson=names'`) each visit also reports when the Start
// button is first on the page (saying "Preparing the data…" until the data set is ready) and
// when it is enabled (the data set is loaded and split). Every visit reports the longest main-thread task
// (PerformanceObserver 'longtask', tasks over 50 ms) from navigation start until 1.5 s after the
// page is ready; --tasks lists every such task with its start, and --trace also what each of
// them spent its time in (a Chrome trace of the visit: the events of over 5 ms inside the task,
// with the function or timer that ran). --warm N makes N offline visits after the first
// (default 1).
// --cpu N slows the page's CPU N times (CDP Emulation.setCPUThrottlingRate; 4 is the usual
// stand-in for a mid-range phone) and each visit then also reports when the page is
// interactive: the later of its ready element (the heading, or the enabled Start button) and
// the end of its last main-thread task over 50 ms.
// Each figure is the median of --runs fresh browser profiles (default 3).
//
// Usage: node scripts/bench-load.mjs [--dir dist] [--runs 3] [--compare] [--query '?v=1&lesson=lstm']
//        [--no-throttle] [--cpu 4] [--warm 1] [--tasks] [--trace]
// Needs a release build in dist/ (`trunk build --release`) and the system Chromium.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { serveDist } from "./serve-dist.mjs";
import { flag, opt } from "./bench/cli.mjs";

const DIR = resolve(opt("--dir", "dist"));
const RUNS = Number(opt("--runs", "3"));
const QUERY = opt("--query", "?v=1&lesson=lstm");
const COMPARE = flag("--compare");
const THROTTLE = !flag("--no-throttle");
const WARM = Number(opt("--warm", "1"));
/** The CPU slow-down factor (1: none). */
const CPU = Number(opt("--cpu", "1"));
const TRACE = flag("--trace");
const TASKS = flag("--tasks") || TRACE;
const TRAINING = new URLSearchParams(QUERY).get("lesson") === "names";
/** The training page's Start button, once enabled. */
const START = '[data-testid="train-start"]:not([disabled])';
/** The training page's Start button, in any state (preparing or enabled). */
const START_SHOWN = '[data-testid="train-start"]';
/** How long after the page is ready its long tasks still count. */
const SETTLE_MS = 1500;
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const HEADING = TRAINING ? ".training-page h1" : ".lx-root h1";
/** The first frame's heading (www/frame.js), before the app's module runs. */
const FRAME = "#boot h1";
const LINK = { offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 };

/**
 * Runs before any page script: performance.now() when the first frame's heading and the app's
 * heading first exist and when Start is first enabled (the training page), and every
 * main-thread task over 50 ms.
 */
function loadProbe([heading, start, shown, frame]) {
  window.__tasks = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
  const check = () => {
    if (window.__frameAt === undefined && document.querySelector(frame)) window.__frameAt = performance.now();
    if (window.__headingAt === undefined && document.querySelector(heading)) window.__headingAt = performance.now();
    if (window.__startAt === undefined && document.querySelector(start)) window.__startAt = performance.now();
    if (window.__shownAt === undefined && document.querySelector(shown)) window.__shownAt = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["disabled"] });
}

/**
 * Opens the page in `context` (over the emulated link unless --no-throttle); returns
 * { ms, startMs, longest, tasks, bytes, page }.
 */
async function visit(context, url) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  if (THROTTLE) await cdp.send("Network.emulateNetworkConditions", LINK);
  if (CPU !== 1) await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU });
  // Playwright reports the requests of the page's workers too (the wasm module is fetched by
  // the app's compile worker, which the page's own CDP session does not see).
  let bytes = 0;
  const counted = [];
  const count = (request) =>
    counted.push(request.sizes().then((s) => (bytes += s.responseHeadersSize + s.responseBodySize), () => {}));
  page.on("requestfinished", count);
  await page.addInitScript(loadProbe, [HEADING, START, START_SHOWN, FRAME]);
  const events = [];
  if (TRACE) {
    cdp.on("Tracing.dataCollected", (e) => events.push(...e.value));
    await cdp.send("Tracing.start", {
      categories: "devtools.timeline,disabled-by-default-devtools.timeline,v8,v8.wasm,toplevel,blink,loading",
      transferMode: "ReportEvents",
    });
  }
  await page.goto(url + QUERY, { waitUntil: "commit" });
  await page.waitForSelector(TRAINING ? START : HEADING, { timeout: 180_000 });
  await page.waitForTimeout(SETTLE_MS);
  const r = await page.evaluate(() => ({
    ms: window.__headingAt,
    frameMs: window.__frameAt ?? NaN,
    startMs: window.__startAt ?? NaN,
    shownMs: window.__shownAt ?? NaN,
    tasks: window.__tasks,
  }));
  await Promise.all(counted);
  const longest = Math.max(0, ...r.tasks.map((t) => t.duration));
  const readyMs = TRAINING ? r.startMs : r.ms;
  const interactiveMs = Math.max(readyMs, ...r.tasks.map((t) => t.start + t.duration));
  let breakdown = [];
  if (TRACE) {
    const done = new Promise((resolve) => cdp.once("Tracing.tracingComplete", resolve));
    await cdp.send("Tracing.end");
    await done;
    breakdown = longTaskBreakdown(events);
  }
  return { ...r, longest, interactiveMs, bytes, page, breakdown };
}

/**
 * The renderer main thread's tasks over 50 ms in a Chrome trace, each with the complete events
 * of over 5 ms inside it (name, and the function, timer or URL that ran, when the trace says).
 */
function longTaskBreakdown(events) {
  const main = events.find((e) => e.name === "thread_name" && e.args?.name === "CrRendererMain");
  if (!main) return [];
  const own = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && e.dur);
  const tasks = own.filter((e) => e.name === "RunTask" && e.dur > 50_000);
  return tasks.map((t) => {
    const inside = own
      .filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && e.dur > 5_000)
      .sort((a, b) => a.ts - b.ts)
      .map((e) => {
        const d = e.args?.data ?? {};
        const what = d.functionName || d.url || d.type || d.timerId || "";
        return `${e.name}${what ? ` (${String(what).slice(-60)})` : ""} ${(e.dur / 1000).toFixed(0)}`;
      });
    return `${(t.dur / 1000).toFixed(0)} ms: ${inside.join(", ")}`;
  });
}

async function run({ precompressed, second }) {
  const profile = mkdtempSync(join(tmpdir(), "unroll-bench-"));
  const server = await serveDist(DIR, { precompressed });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic"],
    viewport: { width: 1440, height: 1000 },
  });
  try {
    const first = await visit(context, server.url);
    if (!second) return { first };
    await first.page.evaluate(() => navigator.serviceWorker.ready);
    await first.page.waitForFunction(() => !!navigator.serviceWorker.controller, null, { timeout: 120_000 });
    await first.page.close();
    await server.close();
    await context.setOffline(true);
    const warm = [];
    for (let i = 0; i < WARM; i++) {
      const v = await visit(context, server.url);
      await v.page.close();
      warm.push(v);
    }
    return { first, warm };
  } finally {
    await context.close();
    await server.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => `${median(xs).toFixed(0)} ms (runs: ${xs.map((x) => x.toFixed(0)).join(", ")})`;
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
/** One visit's line: the heading, Start (training page) and the longest main-thread task. */
function line(label, visits, extra = "") {
  let text = `${label} heading after ${fmt(visits.map((v) => v.frameMs))} (first frame), the app's after ${fmt(visits.map((v) => v.ms))}`;
  if (TRAINING) {
    text += `; Start shown after ${fmt(visits.map((v) => v.shownMs))}`;
    text += `; Start enabled after ${fmt(visits.map((v) => v.startMs))}`;
  }
  if (CPU !== 1) text += `; interactive after ${fmt(visits.map((v) => v.interactiveMs))}`;
  text += `; longest main-thread task ${fmt(visits.map((v) => v.longest))}${extra}`;
  console.log(text);
  if (TASKS)
    for (const v of visits) {
      console.log(`    tasks over 50 ms (start: ms): ${v.tasks.map((t) => `${t.start.toFixed(0)}: ${t.duration.toFixed(0)}`).join(", ") || "none"}`);
      for (const b of v.breakdown) console.log(`      ${b}`);
    }
}

const link = (THROTTLE ? "10 Mbit/s, 40 ms" : "no network throttling") + (CPU !== 1 ? `, CPU ${CPU}× slower` : "");
console.log(`load benchmark: ${DIR}${QUERY}, ${link}, ${RUNS} runs each`);
const firsts = [];
const warms = Array.from({ length: WARM }, () => []);
let wire = 0;
for (let i = 0; i < RUNS; i++) {
  const r = await run({ precompressed: true, second: true });
  firsts.push(r.first);
  r.warm.forEach((v, j) => warms[j].push(v));
  wire = r.first.bytes;
}
line("first visit (pre-compressed):", firsts, `, ${kib(wire)} on the wire`);
warms.forEach((w, j) => line(WARM > 1 ? `visit ${j + 2}, offline:` : "second visit, offline:       ", w));
if (COMPARE) {
  const plain = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await run({ precompressed: false, second: false });
    plain.push(r.first);
    wire = r.first.bytes;
  }
  line("first visit (uncompressed):  ", plain, `, ${kib(wire)} on the wire`);
}
