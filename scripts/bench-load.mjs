#!/usr/bin/env node
// Load-time benchmark (reports, asserts nothing): serves a built dist/ with the project's static
// server (scripts/serve-dist.mjs) and opens a lesson in headless Chromium over an emulated
// 10 Mbit/s link with 40 ms latency (CDP Network.emulateNetworkConditions), then reports
//
//   first visit     ms from navigation start until the lesson's heading is in the page, and the
//                   bytes that crossed the network (as encoded on the wire);
//   second visit    the same, offline (browser offline, server stopped): the service worker
//                   answers from its cache;
//
// and, with --compare, the first visit from the same server without the pre-compressed copies
// (what a host that neither compresses nor has the .br/.gz files sends).
// Each figure is the median of --runs fresh browser profiles (default 3).
//
// Usage: node scripts/bench-load.mjs [--dir dist] [--runs 3] [--compare] [--query '?v=1&lesson=lstm']
// Needs a release build in dist/ (`trunk build --release`) and the system Chromium.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { chromium } from "playwright-core";
import { serveDist } from "./serve-dist.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const DIR = resolve(opt("--dir", "dist"));
const RUNS = Number(opt("--runs", "3"));
const QUERY = opt("--query", "?v=1&lesson=lstm");
const COMPARE = args.includes("--compare");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const HEADING = ".lx-root h1";
const LINK = { offline: false, latency: 40, downloadThroughput: 10e6 / 8, uploadThroughput: 10e6 / 8 };

/** Records performance.now() when the lesson heading first exists (runs before page scripts). */
function headingProbe(selector) {
  const check = () => {
    if (window.__headingAt === undefined && document.querySelector(selector)) window.__headingAt = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true });
}

/** Opens the lesson in `context` over the emulated link; returns { ms, bytes }. */
async function visit(context, url) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", LINK);
  let bytes = 0;
  cdp.on("Network.loadingFinished", (e) => (bytes += e.encodedDataLength));
  await page.addInitScript(headingProbe, HEADING);
  await page.goto(url + QUERY, { waitUntil: "commit" });
  await page.waitForSelector(HEADING, { timeout: 180_000 });
  const ms = await page.evaluate(() => window.__headingAt);
  return { ms, bytes, page };
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
    const offline = await visit(context, server.url);
    return { first, offline };
  } finally {
    await context.close();
    await server.close().catch(() => {});
    rmSync(profile, { recursive: true, force: true });
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => `${median(xs).toFixed(0)} ms (runs: ${xs.map((x) => x.toFixed(0)).join(", ")})`;
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;

console.log(`load benchmark: ${DIR}${QUERY}, 10 Mbit/s, 40 ms, ${RUNS} runs each`);
const firsts = [];
const offlines = [];
let wire = 0;
for (let i = 0; i < RUNS; i++) {
  const r = await run({ precompressed: true, second: true });
  firsts.push(r.first.ms);
  offlines.push(r.offline.ms);
  wire = r.first.bytes;
}
console.log(`first visit (pre-compressed): heading after ${fmt(firsts)}, ${kib(wire)} on the wire`);
console.log(`second visit, offline:        heading after ${fmt(offlines)}`);
if (COMPARE) {
  const plain = [];
  for (let i = 0; i < RUNS; i++) {
    const r = await run({ precompressed: false, second: false });
    plain.push(r.first.ms);
    wire = r.first.bytes;
  }
  console.log(`first visit (uncompressed):   heading after ${fmt(plain)}, ${kib(wire)} on the wire`);
}
