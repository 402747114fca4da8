// Shared helpers of the end-to-end browser tests: the project's static server for dist/, a headless
// Chromium (the system one, driven by playwright-core; nothing is downloaded), page probes
// that record the training hooks as they change, and screenshots.

import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { mkdtempSync, rmSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { serveDist as serveDir } from "../serve-dist.mjs";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
// UNROLL_E2E_DIST serves another build (e.g. a copy kept while dist/ is rebuilt).
export const DIST = process.env.UNROLL_E2E_DIST || join(ROOT, "dist");
export const OUT = join(ROOT, "scripts", "e2e", "out");

/**
 * Whether the tests write their screenshots (for people to look at; nothing asserts on the
 * PNGs): `UNROLL_E2E_SHOTS=1` or `0` says so, and by default they are written except under
 * `CI=true`. The assertions around a screenshot run either way.
 */
export const SHOTS = process.env.UNROLL_E2E_SHOTS ? process.env.UNROLL_E2E_SHOTS !== "0" : process.env.CI !== "true";

/** `target.screenshot(opts)` (a page or a locator) when [`SHOTS`], else nothing. */
export async function shot(target, opts) {
  if (!SHOTS) return;
  if (opts.path) mkdirSync(dirname(opts.path), { recursive: true });
  await target.screenshot(opts);
}
export const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/**
 * Builds dist/ with `trunk build --release` (offline), unless UNROLL_E2E_SKIP_BUILD=1.
 * node_modules/.bin goes first on PATH so Trunk uses binaryen 132's wasm-opt.
 */
export function buildDist() {
  if (process.env.UNROLL_E2E_SKIP_BUILD === "1") {
    if (!existsSync(join(DIST, "index.html"))) {
      throw new Error("UNROLL_E2E_SKIP_BUILD=1 but dist/index.html is missing: run `trunk build --release` first");
    }
    return;
  }
  const env = { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH}` };
  const r = spawnSync("trunk", ["build", "--release", "--skip-version-check"], { cwd: ROOT, env, stdio: "inherit" });
  if (r.status !== 0) throw new Error(`trunk build --release failed (exit ${r.status ?? r.signal})`);
}

/**
 * Serves `dir` on 127.0.0.1 at a random port with the production headers of
 * scripts/serve-dist.mjs (pre-compressed copies, immutable hashed names, no-cache for the rest).
 * `block` is a list of path prefixes answered with 404 (to test the loading error);
 * `onRequest(req)` sees every request that reaches the server; `port` (default: any free one).
 * Returns { url, port, close }.
 */
export async function serveDist(dir = DIST, opts = {}) {
  return serveDir(dir, opts);
}

/**
 * Launches headless Chromium with a fresh profile. `webgpu: true` adds --enable-unsafe-webgpu
 * (SwiftShader's WebGPU adapter); without it Chromium offers no adapter and the app falls back
 * to its CPU path. `serviceWorkers: "block"` keeps the app's offline copy out (a test that answers
 * other paths of the app's origin itself). `blockThirdParty: true` sets the profile to block
 * third-party cookies, as a browser that gives a frame of another site no storage.
 * Returns { context, close }.
 */
export async function launch({ webgpu, viewport = { width: 1440, height: 1000 }, serviceWorkers = "allow", blockThirdParty = false } = {}) {
  const userDataDir = mkdtempSync(join(tmpdir(), "unroll-e2e-"));
  if (blockThirdParty) {
    mkdirSync(join(userDataDir, "Default"), { recursive: true });
    const prefs = { profile: { cookie_controls_mode: 1, block_third_party_cookies: true } };
    writeFileSync(join(userDataDir, "Default", "Preferences"), JSON.stringify(prefs));
  }
  const args = [
    "--no-sandbox",
    "--disable-gpu-sandbox",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
  ];
  if (webgpu) args.push("--enable-unsafe-webgpu");
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args,
    viewport,
    serviceWorkers,
    deviceScaleFactor: 1,
    locale: "en-US",
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs before any page script: records every change of the training hooks' `data-value`
 * (with performance.now()), every majority baseline the names lab shows (its value and
 * `data-source`) and every long task (PerformanceObserver 'longtask', tasks over 50 ms) into
 * window.__unroll, so a test sees each reported value even when it polls slowly.
 */
function probe() {
  const rec = { losses: [], steps: [], baselines: [], longtasks: [], trainingSince: null, errors: [] };
  window.__unroll = rec;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) rec.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch (e) {
    rec.errors.push(String(e));
  }
  const stepNow = () => Number(document.querySelector('[data-testid="train-step"]')?.getAttribute("data-value") || 0);
  const onChange = (el, attribute = "data-value") => {
    const id = el.getAttribute("data-testid");
    const v = el.getAttribute("data-value");
    if (id === "majority-baseline") {
      const last = rec.baselines.at(-1);
      const now = { value: Number(v), source: el.getAttribute("data-source") };
      if (v && (!last || last.value !== now.value || last.source !== now.source)) rec.baselines.push(now);
      return;
    }
    if (attribute !== "data-value") return;
    if (id === "train-loss" && v !== "" && v !== null) rec.losses.push({ step: stepNow(), loss: Number(v), t: performance.now() });
    if (id === "train-step" && v) rec.steps.push({ step: Number(v), t: performance.now() });
    if (id === "train-status" && v === "running" && rec.trainingSince === null) rec.trainingSince = performance.now();
  };
  const start = () =>
    new MutationObserver((muts) => {
      for (const m of muts) {
        if (m.type === "attributes" && m.target instanceof Element && m.target.hasAttribute("data-testid")) onChange(m.target, m.attributeName);
        if (m.type === "childList")
          for (const n of m.addedNodes)
            if (n instanceof Element) {
              if (n.matches('[data-testid="majority-baseline"]')) onChange(n);
              n.querySelectorAll?.("[data-testid][data-value]").forEach((el) => onChange(el));
            }
      }
    }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-value", "data-source"] });
  if (document.documentElement) start();
  else document.addEventListener("DOMContentLoaded", start);
}

/**
 * Opens `url + query` in a new page of `context` with the probe installed; collects console
 * errors and uncaught exceptions. `setup(page)` runs before the navigation (listeners, a
 * viewport, media emulation, routes).
 */
export async function openPage(context, url, query, { setup } = {}) {
  const page = await context.newPage();
  const consoleErrors = [];
  page.on("console", (m) => {
    if (m.type() === "error") consoleErrors.push(m.text());
  });
  page.on("pageerror", (e) => consoleErrors.push(String(e)));
  await page.addInitScript(probe);
  await setup?.(page);
  await page.goto(url + query, { waitUntil: "load" });
  return { page, consoleErrors };
}

/** The `data-value` of the element with `data-testid=id` (null when absent). */
export async function value(page, id) {
  return page.getAttribute(`[data-testid="${id}"]`, "data-value", { timeout: 1000 }).catch(() => null);
}

/** Number(data-value), NaN when absent or empty. */
export async function num(page, id) {
  const v = await value(page, id);
  return v === null || v === "" ? NaN : Number(v);
}

/** Polls `fn` every `every` ms until it returns a truthy value or `timeoutMs` passes. */
export async function until(fn, timeoutMs, what, every = 250) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}

/**
 * Waits until the number in `id` has stayed the same for `quietMs` and returns it. Pause takes
 * effect at the engine's next step boundary, so the steps it finished before (and up to one report
 * batch) still arrive after the button is pressed; this waits them out instead of sleeping a fixed
 * time, which a loaded machine can outlast.
 */
export async function settled(page, id, quietMs = 1000, timeoutMs = 30_000) {
  const end = Date.now() + timeoutMs;
  let last = await num(page, id);
  let since = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 100));
    const now = await num(page, id);
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return now;
    }
    if (Date.now() > end) throw new Error(`${id} still changing after ${timeoutMs} ms`);
  }
}

/** The probe's records (see `probe`). */
export async function records(page) {
  return page.evaluate(() => window.__unroll);
}

/**
 * `x` with `digits` decimals as the app writes it (Rust's `{:.N}`): a value exactly halfway
 * between two neighbours rounds to the even one (8.25 → "8.2"), where JavaScript's `toFixed`
 * rounds it up ("8.3"); every other value comes out as `toFixed` writes it.
 */
export function rustFixed(x, digits) {
  const exact = Math.abs(x).toFixed(100); // the double's whole decimal expansion, for |x| ≥ 1e-40
  const [int, frac] = exact.split(".");
  if (!/^50*$/.test(frac.slice(digits))) return x.toFixed(digits);
  const kept = BigInt(int + frac.slice(0, digits));
  const even = (kept % 2n === 0n ? kept : kept + 1n).toString().padStart(digits + 1, "0");
  const text = digits > 0 ? `${even.slice(0, -digits)}.${even.slice(-digits)}` : even;
  return x < 0 ? `-${text}` : text;
}

/** Milliseconds per step over the recorded step changes (first to last), or NaN. */
export function msPerStep(rec) {
  const s = rec.steps;
  if (s.length < 2) return NaN;
  const a = s[0];
  const b = s[s.length - 1];
  return b.step > a.step ? (b.t - a.t) / (b.step - a.step) : NaN;
}

/** Longest long task since training started (ms; 0 when none was over 50 ms). */
export function maxLongTask(rec) {
  const since = rec.trainingSince ?? 0;
  return rec.longtasks.filter((t) => t.start >= since).reduce((m, t) => Math.max(m, t.duration), 0);
}

/**
 * Renders every panel for a full-page capture: the training pages skip the layout and paint
 * of panels out of view (`content-visibility: auto`), which a capture of the whole page would
 * show as empty boxes, and redraw a chart out of view only every 2 s (`OUT_OF_VIEW_REDRAW_MS`),
 * so the capture waits that long for the charts below the fold to be current.
 */
export async function renderAllPanels(page) {
  await page.addStyleTag({ content: ".training-page .panel { content-visibility: visible !important; }" });
  await new Promise((r) => setTimeout(r, 2200));
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Writes a PNG of the page to scripts/e2e/out/<name>.png and returns its path (`null`, writing nothing, unless [`SHOTS`]). */
export async function screenshot(page, name, opts = {}) {
  if (!SHOTS) return null;
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `${name}.png`);
  const fullPage = opts.fullPage ?? true;
  if (fullPage) await renderAllPanels(page);
  await page.screenshot({ path, fullPage, ...opts });
  return path;
}

/**
 * The words of three or more ASCII letters that Chinese page texts may contain: the URL keys and
 * their values (docs/url.md), proper names, file formats and the function names the course writes
 * in Latin letters.
 */
export function zhAllowlist() {
  const words = new Set(["RNN", "LSTM", "GRU", "WebGPU", "GPU", "CPU", "NaN"]);
  // File formats, as the panels name them (their extensions).
  for (const w of ["safetensors", "zip", "txt", "tsv", "UTF", "CSV", "SVG", "PNG"]) words.add(w);
  // Proper names kept in Latin letters in Chinese texts too.
  for (const w of ["Transformer", "WebAssembly", "Rust", "PyTorch"]) words.add(w);
  // The optimiser's name (Adam), as the Chinese texts on training write it.
  words.add("Adam");
  // Function names the course writes in Latin letters in its Chinese text (lesson 7's title).
  for (const w of ["softmax", "log", "NLL"]) words.add(w);
  const md = readFileSync(join(ROOT, "docs", "url.md"), "utf8");
  for (const line of md.split("\n")) {
    const cells = line.trim().split("|").map((c) => c.trim());
    if (cells.length < 5 || !cells[1].startsWith("`")) continue;
    const [, key, values, dflt] = cells;
    for (const w of `${key} ${dflt}`.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) words.add(w);
    if (/^[a-z0-9_]+(, [a-z0-9_]+)+$/.test(values)) values.split(", ").forEach((w) => words.add(w));
  }
  return words;
}

/** The lessons, in the course's order: each is `?v=1&lesson=<name>`. */
export const LESSONS = ["unroll", "shapes", "bptt", "lstm", "gru", "bidir", "softmax", "parallel"];

/**
 * A readout per lesson that gives its question's answer away: veiled while the question
 * waits (lesson 3's and 8's: a chart's curve, whose data group is `<chart>-data`).
 */
export const ANSWER_READOUTS = {
  unroll: "unroll-eq-h",
  shapes: "shapes-count-other-seq_len",
  bptt: "bptt-chart-data",
  lstm: "lstm-c-2",
  gru: "gru-h",
  bidir: "bidir-h_n-1",
  softmax: "softmax-prob-1",
  parallel: "parallel-depth-chart-data",
};

/**
 * Whether the readout `testid` sits under the veil: blurred (or, a chart's curve, hidden) and
 * out of the accessibility tree (aria-hidden, or inside an SVG image that names itself).
 */
export async function underVeil(page, testid) {
  return page.$eval(`[data-testid="${testid}"]`, (el) => {
    const v = el.closest(".lx-veiled");
    if (v === null) return false;
    const style = getComputedStyle(v);
    const unseen = style.filter.includes("blur") || style.opacity === "0";
    return unseen && (v.closest("[aria-hidden='true']") !== null || v.closest("svg[role='img']") !== null);
  });
}

/**
 * PyTorch for the tests that run a page's lines or a downloaded script under it: one python3
 * (scripts/e2e/torch-runner.py) that imports torch once and forks a fresh process for each run,
 * instead of a new Python importing torch again for each (seconds of CPU every time).
 * Resolves to null where torch is not importable (or python3 is missing), else to
 * { run(request, timeoutMs), close() }: `run({ code })` runs lines as `python3 -c CODE` would,
 * `run({ file, args })` a script as `python3 FILE ARGS` would; each resolves to
 * { status, stdout, stderr }. Runs are one at a time, in the order asked.
 */
export async function startTorch() {
  const child = spawn("python3", [join(ROOT, "scripts", "e2e", "torch-runner.py")], { cwd: ROOT, stdio: ["pipe", "pipe", "inherit"] });
  const failed = new Promise((done) => {
    child.on("error", () => done(null));
    child.on("exit", () => done(null));
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = () => Promise.race([lines.next().then((l) => (l.done ? null : JSON.parse(l.value))), failed]);
  const hello = await next();
  if (!hello?.torch) {
    child.kill();
    return null;
  }
  let queue = Promise.resolve();
  return {
    run(request, timeoutMs = 120_000) {
      const result = queue.then(async () => {
        child.stdin.write(`${JSON.stringify(request)}\n`);
        let timer;
        const late = new Promise((_, fail) => {
          timer = setTimeout(() => fail(new Error(`PyTorch run past ${timeoutMs} ms`)), timeoutMs);
        });
        try {
          const reply = await Promise.race([next(), late]);
          if (!reply) throw new Error("the PyTorch runner ended");
          return reply;
        } finally {
          clearTimeout(timer);
        }
      });
      queue = result.catch(() => {});
      return result;
    },
    close() {
      child.stdin.end();
      child.kill();
    },
  };
}
