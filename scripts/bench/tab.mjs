// Benchmark of training in the browser tab, next to the native trainer and PyTorch. A command
// that reports; it asserts nothing about times. Run through ../bench-tab.sh (which builds what
// it needs), or directly once dist/ and the release binaries exist:
//
//   node scripts/bench/tab.mjs [--cells lstm,gru,rnn] [--backends cpu,gpu] [--gpu-steps 24]
//       [--gpu-epoch] [--window-sec 30] [--autostart] [--skip-native] [--skip-torch]
//       [--skip-gpu-counts] [--skip-floor] [--readme] [--wasm-simd auto|simd128]
//
// --wasm-simd simd128: the tab runs the module and CPU kernels without relaxed SIMD (as in a
// browser that lacks it; `localStorage["unroll-wasm-simd"]`, www/boot.js); `auto` (default):
// relaxed SIMD where Chromium has it. The CPU rows name the kernels the page ran.
//
// --readme: every cell on both backends with the native runs (and PyTorch where it is
// installed), without the floor and the GPU counts; at the end it prints the README's table
// (the machine by its CPU model, the load, the commit) and writes it into README.md between
// the lines `<!-- bench-tab:start -->` and `<!-- bench-tab:end -->`.
//
// The tab is driven only through the page's data-testid hooks (see the list at the top of
// src/names/mod.rs), so it measures whatever engine the page runs. For each cell and backend
// it opens `?v=1&lesson=names&cell=C&hidden_size=128&batch_size=64&epochs=100&seed=0&backend=B`
// (100 epochs, the most the form takes, so that the run outlasts the window and the controls'
// timings even where an RNN epoch takes under a second)
// in headless Chromium (WebGPU: --enable-unsafe-webgpu, SwiftShader), waits until the page is
// ready (data loaded, its split counted, Start enabled), clicks Start as a user would (with
// --autostart: adds `&autostart=1` instead, so the run starts while the page is still building
// its data panels) and reports:
// - ms/step: time between the first and the last `train-step` change of the epoch (from step
//   1 on; step 0 is shown from the page's load), per step;
// - s/epoch: the page's own `epoch-sec` (training time of epoch 1), and the wall time from
//   `train-status` = running to the first validation shown (`val-acc`), both one full epoch,
//   never extrapolated; and the median `epoch-sec` of the epochs that end in the window below
//   (epoch 1 also holds the 5 predictions and the engine's first compile; on a shared 2-core
//   machine one epoch's time also varies by ±15 % from run to run, so the ratios to the native
//   trainer below use the medians). On WebGPU, unless --gpu-epoch, only --gpu-steps steps are timed
//   (SwiftShader runs WGSL on the CPU and is slow at hidden 128) and no epoch figure is given;
// - the longest main-thread task (PerformanceObserver 'longtask') in the first --window-sec
//   seconds of training: the run goes on past its first epoch, so the window holds several
//   epoch ends (validation, charts, confusion matrix, checkpoint) where epochs are short;
//   (BENCH_LONGTASKS=1 lists every task over 50 ms in that window, with its start in seconds
//   after the run started, on stderr);
// - the prediction answer: from typing a name into `predict-input` (sent from outside the page)
//   to `predict-top` changing, while training runs; median and worst of 5 names. This includes
//   the round trips of the driver; "input to paint" is the page's own figure for the same
//   names: Event Timing's duration of the box's input events, from the event to the next
//   paint ("<16" below the API's 16 ms floor). After the window, while training goes on, the
//   same figure for the other controls the page must keep answering: the pin's checkbox (on),
//   its slider (three keys, PageUp, PageUp, PageDown, with it focused), then off, Pause then
//   Resume, and the language switch there and back, twice: the first switch to Chinese also
//   loads and rasterizes the CJK faces, the second is the switch again. Next to each, the
//   page's own part of it: from the event to the end of the main thread's next frame
//   (handlers, style, layout, paint), without raster, compositing and presentation. For the
//   pin, also when the inspector shows its effect: each move recomputes the traces, maps and
//   top 5 a frame after the control is drawn, and the figure runs from the event to the end of
//   the main thread's frame in which the pin's status text changed.
//   Beside them, the browser's own floor for the same figure (scripts/bench/floor.html; not
//   with --skip-floor): a static page without the app, one core kept busy by a worker, where a
//   click changes one number, repaints six canvases the size of the inspector's maps (as a move
//   of the pin does), or changes every text on the screen (as the language switch does); median
//   and worst of six clicks each.
// Natively, on the same batches (seed 0): `train-names --epochs 3`, the median s/epoch with the
// SIMD matrix products and with the portable ones (--no-simd), and the tab's median over the
// native SIMD median; PyTorch on one thread on the very
// same batches (scripts/bench/torch_names.py, skipped without torch); and the GPU host counts
// per training step from `bench --backend gpu` (the same host code the tab runs), at the mean
// padded length of those batches.
//
// Environment: UNROLL_BIN_DIR (folder of the release binaries; default target/release or
// $CARGO_TARGET_DIR/release), PYTHON (default python3).

import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, DIST, CHROMIUM, serveDist, launch, value } from "../e2e/lib.mjs";

const HIDDEN = 128;
const BATCH = 64;
const SEED = 0;
const NAMES = ["Nguyen", "Schmidt", "Rossi", "Tanaka", "Kowalski"];

function parseArgs(argv) {
  const o = {
    cells: ["lstm", "gru", "rnn"], backends: ["cpu", "gpu"], gpuSteps: 24, gpuEpoch: false,
    windowSec: 30, native: true, torch: true, gpuCounts: true, autostart: false, floor: true,
    readme: false, wasmSimd: "auto",
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`);
      return argv[++i];
    };
    if (a === "--cells") o.cells = next().split(",");
    else if (a === "--backends") o.backends = next().split(",");
    else if (a === "--gpu-steps") o.gpuSteps = Number(next());
    else if (a === "--gpu-epoch") o.gpuEpoch = true;
    else if (a === "--window-sec") o.windowSec = Number(next());
    else if (a === "--autostart") o.autostart = true;
    else if (a === "--skip-native") o.native = false;
    else if (a === "--skip-torch") o.torch = false;
    else if (a === "--skip-gpu-counts") o.gpuCounts = false;
    else if (a === "--skip-floor") o.floor = false;
    else if (a === "--readme") o.readme = true;
    else if (a === "--wasm-simd") o.wasmSimd = next();
    else if (a === "-h" || a === "--help") {
      console.log(readFileSync(new URL(import.meta.url), "utf8").split("\n").filter((l) => l.startsWith("//")).map((l) => l.slice(3)).join("\n"));
      process.exit(0);
    } else throw new Error(`unknown option ${a} (see --help)`);
  }
  for (const c of o.cells) if (!["lstm", "gru", "rnn"].includes(c)) throw new Error(`--cells: ${c} is not lstm, gru or rnn`);
  for (const b of o.backends) if (!["cpu", "gpu"].includes(b)) throw new Error(`--backends: ${b} is not cpu or gpu`);
  if (!["auto", "simd128"].includes(o.wasmSimd)) throw new Error(`--wasm-simd: ${o.wasmSimd} is not auto or simd128`);
  if (!(o.gpuSteps >= 9)) throw new Error("--gpu-steps must be at least 9 (the page reports GPU steps 8 at a time)");
  if (o.readme) {
    if (o.cells.length !== 3 || o.backends.length !== 2 || !o.native)
      throw new Error("--readme writes the README's whole table: every cell, both backends and the native runs");
    o.floor = false;
    o.gpuCounts = false;
  }
  return o;
}

const binDir = process.env.UNROLL_BIN_DIR || join(process.env.CARGO_TARGET_DIR || join(ROOT, "target"), "release");
const bin = (name) => join(binDir, name);

/** Runs a command, returns stdout; stderr is passed through only on failure. */
function run(cmd, args, { allowFail = false } = {}) {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 });
  if (r.status !== 0 && !allowFail) throw new Error(`${cmd} ${args.join(" ")} failed (${r.status ?? r.signal}):\n${r.stderr}`);
  return r.status === 0 ? r.stdout : null;
}

/** `train-names --epochs 3` on the recipe: median s/epoch (training only, as the page's epoch-sec). */
function nativeEpoch(cell, simd) {
  const args = ["--epochs", "3", "--backend", "cpu", "--seed", String(SEED), "--cell", cell, "--hidden-size", String(HIDDEN), "--batch-size", String(BATCH)];
  if (!simd) args.push("--no-simd");
  const out = run(bin("train-names"), args);
  return median(out.trim().split("\n").map((l) => JSON.parse(l).sec));
}

/** Runs before any page script: timestamps of the hooks this bench reads, and long tasks. */
function probe() {
  const rec = { steps: [], longtasks: [], running: null, valShown: null, epochSec: null, epochSecs: [], backend: null };
  window.__bench = rec;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) rec.longtasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: "longtask", buffered: true });
  } catch {}
  // Event Timing: events on the page's controls (by their data-testid) that took 16 ms or
  // more from the event to the next paint (shorter ones are not reported).
  rec.inputs = [];
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        const id = e.target?.closest?.("[data-testid]")?.getAttribute("data-testid");
        if (id) rec.inputs.push({ id, name: e.name, start: e.startTime, duration: e.duration, delay: e.processingStart - e.startTime });
      }
    }).observe({ type: "event", durationThreshold: 16, buffered: true });
  } catch {}
  // The page's own part of an input on a control: from the event to the end of the main
  // thread's next frame (its animation-frame callbacks, style, layout, paint and commit; a
  // message posted from the first callback of that frame runs once the frame is done). What
  // is left of Event Timing's duration is raster, compositing and presentation.
  rec.frames = [];
  const frameAfter = (e) => {
    const id = e.target?.closest?.("[data-testid]")?.getAttribute("data-testid");
    if (!id) return;
    const start = e.timeStamp;
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => rec.frames.push({ id, name: e.type, start, ready: performance.now() - start });
      channel.port2.postMessage(0);
    });
  };
  for (const type of ["click", "input"]) window.addEventListener(type, frameAfter, true);
  // When the inspector shows a move of the pin: the end of the main thread's frame after the
  // pin's status text changes (the maps, the top 5 and the status change in one update, a frame
  // after the control itself).
  rec.pinShown = [];
  const pinStatus = new MutationObserver(() =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => rec.pinShown.push(performance.now());
      channel.port2.postMessage(0);
    }),
  );
  const watchStatus = () => {
    const el = document.querySelector('[data-testid="pin-status"]');
    if (el && !el.__benchWatched) {
      el.__benchWatched = true;
      pinStatus.observe(el, { subtree: true, childList: true, characterData: true });
    }
  };
  setInterval(watchStatus, 250);
  const seen = (el) => {
    const id = el.getAttribute("data-testid");
    const v = el.getAttribute("data-value");
    const now = performance.now();
    if (id === "train-step" && v) rec.steps.push({ step: Number(v), t: now });
    if (id === "train-status" && v === "running" && rec.running === null) rec.running = now;
    if (id === "val-acc" && v && rec.valShown === null) rec.valShown = now;
    if (id === "epoch-sec" && v && rec.epochSec === null) rec.epochSec = Number(v);
    if (id === "epoch-sec" && v) rec.epochSecs.push({ sec: Number(v), t: now });
  };
  const start = () =>
    new MutationObserver((muts) => {
      for (const m of muts) {
        if (m.type === "attributes" && m.target instanceof Element && m.target.hasAttribute("data-testid")) seen(m.target);
        if (m.type === "childList")
          for (const n of m.addedNodes) if (n instanceof Element) {
            if (n.hasAttribute("data-testid")) seen(n);
            n.querySelectorAll?.("[data-testid][data-value]").forEach(seen);
          }
      }
    }).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-value"] });
  if (document.documentElement) start();
  else document.addEventListener("DOMContentLoaded", start);
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitFor(fn, timeoutMs, what, every = 200) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(every);
  }
}

/** predict-top (labels and values) or the message, as one string. */
const predictState = (page) =>
  page.evaluate(() => {
    const top = document.querySelector('[data-testid="predict-top"]');
    if (top) return [...top.querySelectorAll("li")].map((li) => `${li.getAttribute("data-label")}=${li.getAttribute("data-value")}`).join(",");
    return document.querySelector('[data-testid="predict-message"]')?.textContent ?? "";
  });

/**
 * The answer to typing `name` into predict-input: `outside`, ms from sending it (from outside
 * the page) until predict-top changes; `inPage`, the longest input event on the box from the
 * event to the next paint (Event Timing; 16 when none reached the API's 16 ms floor);
 * `frame`, the longest from an input event to the end of the main thread's next frame.
 */
async function predictLatency(page, name) {
  await scrollTo(page, "predict-input");
  const before = await predictState(page);
  const p0 = await page.evaluate(() => performance.now());
  const t0 = performance.now();
  await page.fill('[data-testid="predict-input"]', name);
  await page.waitForFunction(
    (prev) => {
      const top = document.querySelector('[data-testid="predict-top"]');
      if (!top) return false;
      const now = [...top.querySelectorAll("li")].map((li) => `${li.getAttribute("data-label")}=${li.getAttribute("data-value")}`).join(",");
      return now !== prev && now !== "";
    },
    before,
    { polling: "raf", timeout: 60_000 },
  );
  const outside = performance.now() - t0;
  // Event Timing entries arrive after the paint they end at.
  await sleep(100);
  const inPage = await inputToPaint(page, p0, ["predict-input"]);
  const frame = await frameReady(page, p0, ["predict-input"]);
  return { outside, inPage, frame };
}

/** Scrolls the control `id` to the middle of the window, if it is not in view, and waits as a
 * reader would before using it: a control's timing starts with the page at rest around it,
 * not with the layout of the panels a jump across the page uncovers. */
async function scrollTo(page, id) {
  const moved = await page.$eval(`[data-testid="${id}"]`, (el) => {
    const r = el.getBoundingClientRect();
    if (r.top >= 0 && r.bottom <= window.innerHeight) return false;
    el.scrollIntoView({ block: "center" });
    return true;
  });
  if (moved) await sleep(500);
}

/** The longest Event Timing duration of events on the controls `ids` since `p0` (page time);
 * 16 when none reached the API's 16 ms floor. */
async function inputToPaint(page, p0, ids) {
  const events = await page.evaluate(([p0, ids]) => window.__bench.inputs.filter((e) => e.start >= p0 && ids.includes(e.id)), [p0, ids]);
  if (process.env.BENCH_LONGTASKS) console.log(`  input to paint, ${ids.join(" / ")}: ${events.map((e) => `${e.name} ${Math.round(e.duration)}`).join(", ") || "none over 16 ms"}`);
  return events.reduce((m, e) => Math.max(m, e.duration), 16);
}

/** The longest time from a click or input on the controls `ids` since `p0` (page time) to the
 * end of the main thread's frame that shows its effect in the inspector (see `pinShown` in the
 * probe); NaN when none. */
async function pinShownAfter(page, p0, ids) {
  const times = await page.evaluate(([p0, ids]) => {
    const rec = window.__bench;
    const starts = rec.frames.filter((e) => e.start >= p0 && ids.includes(e.id) && e.name === (ids[0] === "pin-value" ? "input" : "click")).map((e) => e.start);
    return starts.map((s) => {
      const shown = rec.pinShown.find((t) => t > s);
      return shown === undefined ? NaN : shown - s;
    });
  }, [p0, ids]);
  if (process.env.BENCH_LONGTASKS) console.log(`  inspector shows it, ${ids.join(" / ")}: ${times.map((t) => Math.round(t)).join(", ") || "none"}`);
  return times.length ? Math.max(...times) : NaN;
}

/** The longest time from a click or input on the controls `ids` since `p0` (page time) to the
 * end of the main thread's next frame (see `frameAfter` in the probe); NaN when none. */
async function frameReady(page, p0, ids) {
  const frames = await page.evaluate(([p0, ids]) => window.__bench.frames.filter((e) => e.start >= p0 && ids.includes(e.id)), [p0, ids]);
  if (process.env.BENCH_LONGTASKS) console.log(`  frame ready, ${ids.join(" / ")}: ${frames.map((e) => `${e.name} ${Math.round(e.ready)}`).join(", ") || "none"}`);
  return frames.length ? Math.max(...frames.map((e) => e.ready)) : NaN;
}

/**
 * Input to paint (Event Timing, worst of each) of the other controls the page must keep
 * answering while training: a gate-pin slider moved three times, Pause and Resume, and the
 * language switch there and back, twice (the first time, and again).
 */
async function controlsToPaint(page) {
  const out = { frames: {} };
  const at = () => page.evaluate(() => performance.now());
  // An RNN has no gate to pin.
  if (await page.isEnabled('[data-testid="pin-enable"]')) {
    await scrollTo(page, "pin-enable");
    const p0 = await at();
    await page.click('[data-testid="pin-enable"]');
    await sleep(300);
    out.pinOn = await inputToPaint(page, p0, ["pin-enable"]);
    out.frames.pinOn = await frameReady(page, p0, ["pin-enable"]);
    out.shown = { pinOn: await pinShownAfter(page, p0, ["pin-enable"]) };
    // The slider is moved from the keyboard, as a reader does with it focused: the browser's
    // own input events are trusted, so Event Timing reports them (a script's are not).
    await page.focus('[data-testid="pin-value"]');
    await sleep(300);
    const p1 = await at();
    for (const key of ["PageUp", "PageUp", "PageDown"]) {
      await page.keyboard.press(key);
      await sleep(200);
    }
    await sleep(100);
    out.pin = await inputToPaint(page, p1, ["pin-value"]);
    out.frames.pin = await frameReady(page, p1, ["pin-value"]);
    out.shown.pin = await pinShownAfter(page, p1, ["pin-value"]);
    await page.click('[data-testid="pin-enable"]');
  }
  /** Clicks `there`, then `back`; the worst input to paint of the two (and, in `out.frames`,
   * the worst frame ready under `key`). */
  const roundTrip = async (key, there, back) => {
    await scrollTo(page, there);
    const start = await at();
    await page.click(`[data-testid="${there}"]`);
    await sleep(500);
    await page.click(`[data-testid="${back}"]`);
    await sleep(300);
    out.frames[key] = await frameReady(page, start, [there, back]);
    return inputToPaint(page, start, [there, back]);
  };
  out.pause = await roundTrip("pause", "train-pause", "train-resume");
  // The first switch to Chinese also loads and rasterizes the CJK faces the page had not drawn
  // yet; the second round trip is the switch as a reader who goes back and forth sees it.
  out.lang = await roundTrip("lang", "lang-zh", "lang-en");
  out.langAgain = await roundTrip("langAgain", "lang-zh", "lang-en");
  return out;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
};

/**
 * The browser's own floor for input to paint (scripts/bench/floor.html, no app): in the same
 * headless Chromium, with one core kept busy by a worker as training keeps it, the worst Event
 * Timing duration of six clicks that change one number, and of six that change every text on
 * the screen (the language switch's kind of change).
 */
async function browserFloor() {
  const html = readFileSync(new URL("./floor.html", import.meta.url));
  const server = createServer((_, res) => {
    res.setHeader("content-type", "text/html; charset=utf-8");
    res.end(html);
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const browser = await launch({ webgpu: false });
  try {
    const page = await browser.context.newPage();
    await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: "load" });
    await sleep(1500);
    const out = {};
    for (const id of ["small", "maps", "all"]) {
      // One click first, untimed, as the app's controls are used after the pointer has moved
      // over the page; then six, each the worst of its events (16: under the API's floor).
      await page.click(`#${id}`);
      await sleep(400);
      await page.evaluate(() => (window.__events.length = 0));
      const clicks = [];
      for (let i = 0; i < 6; i++) {
        await page.click(`#${id}`);
        await sleep(400);
        clicks.push(await page.evaluate(() => window.__events.splice(0).reduce((m, e) => Math.max(m, e.duration), 16)));
      }
      out[id] = { median: median(clicks), worst: Math.max(...clicks) };
    }
    return out;
  } finally {
    await browser.close();
    server.close();
  }
}

/** One cell on one backend in a fresh browser. */
async function tabRun(url, cell, backend, o) {
  const browser = await launch({ webgpu: backend === "gpu" });
  try {
    const page = await browser.context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(String(e)));
    await page.addInitScript(probe);
    if (o.wasmSimd === "simd128") await page.addInitScript(() => localStorage.setItem("unroll-wasm-simd", "simd128"));
    const query = `?v=1&lesson=names&cell=${cell}&hidden_size=${HIDDEN}&batch_size=${BATCH}&epochs=100&seed=${SEED}&backend=${backend}${o.autostart ? "&autostart=1" : ""}`;
    await page.goto(url + query, { waitUntil: "load" });
    if (!o.autostart) {
      await page.waitForSelector('[data-testid="train-start"]:not([disabled])', { timeout: 180_000 });
      await waitFor(async () => !!(await value(page, "majority-baseline")), 60_000, "the split counts");
      await sleep(1000);
      await page.click('[data-testid="train-start"]');
    }
    const got = await waitFor(async () => {
      if ((await value(page, "train-status")) === "error") return "error";
      return value(page, "backend");
    }, 180_000, "the backend");
    if (got === "error") throw new Error(`training stopped: ${await page.textContent('[data-testid="train-error"]').catch(() => "?")}`);
    const want = backend === "gpu" ? "webgpu" : "cpu";
    if (got !== want) return { cell, backend, note: `the page trained on ${got}, not ${want}` };
    const rec = () => page.evaluate(() => window.__bench);
    const fullEpoch = backend === "cpu" || o.gpuEpoch;

    // Prediction answers while training runs (after a few steps, so the engine is busy).
    await waitFor(async () => (await rec()).steps.some((s) => s.step >= 8), 600_000, "8 training steps", 100);
    const latencies = [];
    const inPage = [];
    const predictFrames = [];
    for (const name of NAMES) {
      const l = await predictLatency(page, name);
      latencies.push(l.outside);
      inPage.push(l.inPage);
      if (!Number.isNaN(l.frame)) predictFrames.push(l.frame);
      await sleep(300);
    }

    // The epoch (CPU, or --gpu-epoch) or a fixed number of steps (WebGPU).
    const timeout = 60 * 60_000;
    if (fullEpoch) {
      await waitFor(async () => {
        if ((await value(page, "train-status")) === "error") throw new Error(await page.textContent('[data-testid="train-error"]'));
        return (await rec()).valShown !== null;
      }, timeout, "the first validation", 500);
    } else {
      await waitFor(async () => (await rec()).steps.some((s) => s.step >= o.gpuSteps), timeout, `${o.gpuSteps} steps`, 500);
    }
    // The long-task window: the first --window-sec seconds of training.
    const r0 = await rec();
    const windowMs = o.windowSec * 1000;
    const windowEnd = r0.running + windowMs;
    const nowMs = await page.evaluate(() => performance.now());
    if (nowMs < windowEnd) await sleep(windowEnd - nowMs);
    const r = await rec();
    const measuredTo = Math.min(windowEnd, await page.evaluate(() => performance.now()));
    // The other controls, after the window (a language switch re-lays out the whole page, a
    // long task the user asked for) and after the timed epoch (a pause would stretch it).
    if ((await value(page, "train-status")) !== "running")
      throw new Error(`the run was ${await value(page, "train-status")} before its controls were timed`);
    const controls = await controlsToPaint(page);
    const inWindow = r.longtasks.filter((t) => t.start >= r.running && t.start < measuredTo);
    const longest = inWindow.reduce((m, t) => Math.max(m, t.duration), 0);
    if (process.env.BENCH_LONGTASKS)
      console.error(`${cell} long tasks (s after running: ms): ${inWindow.map((t) => `${((t.start - r.running) / 1000).toFixed(1)}: ${Math.round(t.duration)}`).join(", ")}`);
    const end = fullEpoch ? r.valShown : Infinity;
    // The page shows step 0 as soon as it loads, long before Start: only the steps of the run.
    const steps = r.steps.filter((s) => s.step >= 1 && s.t >= r.running && s.t <= end);
    const first = steps[0];
    const last = steps[steps.length - 1];
    const msPerStep = last && last.step > first.step ? (last.t - first.t) / (last.step - first.step) : NaN;
    const kernel = await page.getAttribute("html", "data-cpu-kernel");
    return {
      cell, backend, kernel, msPerStep, steps: last?.step ?? 0, fullEpoch,
      epochSec: fullEpoch ? r.epochSec : null,
      epochMedian: fullEpoch ? median(r.epochSecs.filter((e) => e.t <= measuredTo).map((e) => e.sec)) : null,
      epochsInWindow: r.epochSecs.filter((e) => e.t <= measuredTo).length,
      wallSec: fullEpoch ? (r.valShown - r.running) / 1000 : null,
      longest, windowSec: (measuredTo - r.running) / 1000,
      predictMedian: median(latencies), predictMax: latencies.length ? Math.max(...latencies) : NaN, predictN: latencies.length,
      inputMedian: median(inPage), inputMax: inPage.length ? Math.max(...inPage) : NaN, controls,
      predictFrame: predictFrames.length ? Math.max(...predictFrames) : NaN,
      errors,
    };
  } finally {
    await browser.close();
  }
}

/** An Event Timing duration: "<16" at the API's floor. */
const inputMs = (x) => (x === undefined || Number.isNaN(x) ? "–" : x <= 16 ? "<16" : x.toFixed(0));
const inputCell = (x) => (x === undefined ? "– (no gate)" : `${inputMs(x)} ms`);
/** The table's path column for a tab run. */
const pathOf = (r) => (r.backend === "gpu" ? "tab, WebGPU" : `tab, CPU${r.kernel ? ` (${r.kernel})` : ""}`);
const f = (x, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? "–" : x.toFixed(d));

const README = join(ROOT, "README.md");
const README_START = "<!-- bench-tab:start -->";
const README_END = "<!-- bench-tab:end -->";

/** The README's benchmark table of this run, with the machine, the load and the build. */
function readmeTable({ results, native, torch, machine }) {
  const cells = ["lstm", "gru", "rnn"];
  const names = cells.map((c) => c.toUpperCase()).join(" / ");
  // More runnable work than half the CPUs: the machine was shared.
  const loaded = Math.max(Number(machine.loadStart), Number(machine.loadEnd)) > machine.cpus / 2;
  const lines = [
    `One run of the \`--readme\` benchmark below on ${machine.date}, commit ${machine.commit}: the names`,
    `recipe (hidden 128, batch 64, seed 0) on ${machine.cpu} (lscpu's model name), ${machine.cpus} CPUs,`,
    `load average ${machine.loadStart} at the start and ${machine.loadEnd} at the end${loaded ? " (other work was running: every figure is an upper bound)" : ""};`,
    `${machine.chromium} headless, its WebGPU on SwiftShader (a CPU implementation of a GPU)${Object.keys(torch).length ? "" : "; PyTorch was not installed"}.`,
    "",
    "| cell | path | ms/step | s/epoch (page: epoch 1 / median) | longest main-thread task (30 s) | prediction answer, median / worst |",
    "|------|------|--------:|---------------------------------:|--------------------------------:|----------------------------------:|",
  ];
  for (const r of results) {
    if (r.note) {
      lines.push(`| ${r.cell.toUpperCase()} | ${pathOf(r)} | failed: ${r.note.replaceAll("|", "/")} | | | |`);
      continue;
    }
    const epoch = r.fullEpoch ? `${f(r.epochSec, 2)} / ${f(r.epochMedian, 2)} (${r.epochsInWindow} epochs)` : `– (${r.steps} steps)`;
    const longest = r.longest > 0 ? `${f(r.longest, 0)} ms` : "none ≥ 50 ms";
    lines.push(`| ${r.cell.toUpperCase()} | ${pathOf(r)} | ${f(r.msPerStep)} | ${epoch} | ${longest} | ${f(r.predictMedian, 0)} / ${f(r.predictMax, 0)} ms |`);
  }
  const per = (get) => cells.map((c) => f(get(c), 2)).join(" / ");
  lines.push(`| ${names} | native, SIMD (median of 3) | | ${per((c) => native[c]?.simd)} | | |`);
  lines.push(`| ${names} | native, portable (median of 3) | | ${per((c) => native[c]?.portable)} | | |`);
  const torchVersion = Object.values(torch)[0]?.torch;
  if (torchVersion) lines.push(`| ${names} | PyTorch ${torchVersion}, 1 thread | | ${per((c) => torch[c]?.sec)} | | |`);
  const ratio = (den) =>
    cells
      .map((c) => {
        const r = results.find((x) => x.cell === c && x.backend === "cpu" && x.epochMedian);
        return r && den(c) ? `${c.toUpperCase()} ${f(r.epochMedian / den(c), 2)}×` : null;
      })
      .filter(Boolean)
      .join(", ");
  const simd = ratio((c) => native[c]?.simd);
  const pt = ratio((c) => torch[c]?.sec);
  lines.push("");
  if (simd) lines.push(`The tab's median epoch on the CPU path against the native SIMD one: ${simd}${pt ? `; against PyTorch: ${pt}` : ""}.`);
  return lines.join("\n");
}

/** Replaces the README's table (between its markers) by `table`. */
function writeReadme(table) {
  const text = readFileSync(README, "utf8");
  const start = text.indexOf(README_START);
  const end = text.indexOf(README_END);
  if (start < 0 || end < start) throw new Error(`README.md has no ${README_START} … ${README_END} lines to write the table between`);
  writeFileSync(README, `${text.slice(0, start + README_START.length)}\n${table}\n${text.slice(end)}`);
}

/** The build's commit (short), marked when the product's files (not the scripts or docs)
 * have changes. */
function commitOf() {
  const head = run("git", ["rev-parse", "--short", "HEAD"], { allowFail: true })?.trim() ?? "?";
  const product = ["src", "core", "shaders", "www", "index.html", "Trunk.toml", "Cargo.toml", "Cargo.lock"];
  const dirty = run("git", ["status", "--porcelain", "--untracked-files=no", "--", ...product], { allowFail: true })?.trim();
  return dirty ? `${head} with local changes` : head;
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  if (!existsSync(join(DIST, "index.html"))) throw new Error("dist/index.html is missing: run scripts/bench-tab.sh (or trunk build --release)");
  const cpuInfo = readFileSync("/proc/cpuinfo", "utf8").match(/model name\s*:\s*(.*)/)?.[1] ?? "?";
  const loadavg = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3);
  const load = loadavg().join(" ");
  const machine = {
    cpu: cpuInfo,
    cpus: (await import("node:os")).cpus().length,
    loadStart: loadavg()[0],
    chromium: run(CHROMIUM, ["--version"], { allowFail: true })?.trim().replace(/^Chromium\s+([\d.]+).*$/, "Chromium $1") ?? "Chromium",
    commit: commitOf(),
    date: new Date().toISOString().slice(0, 10),
  };
  console.log(`Unroll training benchmark: hidden ${HIDDEN}, batch ${BATCH}, seed ${SEED}, the names recipe (epoch 1 timed; the main thread watched for the first ${o.windowSec} s of training).`);
  console.log(`Machine: ${cpuInfo}, ${(await import("node:os")).cpus().length} CPUs; load average at start ${load}.`);

  const native = {};
  if (o.native) {
    for (const cell of o.cells) {
      native[cell] = { simd: nativeEpoch(cell, true), portable: nativeEpoch(cell, false) };
      console.log(`native ${cell}: ${f(native[cell].simd, 2)} s/epoch (SIMD), ${f(native[cell].portable, 2)} s/epoch (portable)`);
    }
  }
  const tmp = mkdtempSync(join(tmpdir(), "unroll-bench-"));
  const torch = {};
  let countsTable = null;
  try {
    const dump = join(tmp, "batches.jsonl");
    if (o.torch || o.gpuCounts) {
      run(bin("train-names"), ["--seed", String(SEED), "--batch-size", String(BATCH), "--dump-batches", dump]);
    }
    if (o.torch) {
      const out = run(process.env.PYTHON || "python3", [join(ROOT, "scripts", "bench", "torch_names.py"), "--batches", dump, "--cells", o.cells.join(","), "--hidden-size", String(HIDDEN)], { allowFail: true });
      for (const line of (out || "").trim().split("\n").filter(Boolean)) {
        const j = JSON.parse(line);
        if (j.skipped) console.log(`PyTorch: skipped (${j.skipped})`);
        else {
          torch[j.cell] = j;
          console.log(`PyTorch ${j.torch} ${j.cell}: ${f(j.sec, 2)} s/epoch (${j.threads} thread)`);
        }
      }
      if (out === null) console.log("PyTorch: the script failed (see above)");
    }
    if (o.gpuCounts) {
      const lens = readFileSync(dump, "utf8").trim().split("\n").map((l) => JSON.parse(l).seq_len);
      const meanLen = Math.round(lens.reduce((a, b) => a + b, 0) / lens.length);
      const out = run(bin("bench"), ["--backend", "gpu", "--cells", o.cells.join(","), "--iters", "2", "--warmup", "1", "--seq-len", String(meanLen), "--hidden-size", String(HIDDEN), "--batch-size", String(BATCH)], { allowFail: true });
      const lines = (out || "").split("\n");
      const at = lines.findIndex((l) => l.startsWith("GPU host work"));
      countsTable = at >= 0 ? lines.slice(at).filter((l) => l.trim()).join("\n") : "GPU host counts: unavailable (no Vulkan adapter?)";
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }

  const server = await serveDist();
  const results = [];
  try {
    for (const backend of o.backends) {
      for (const cell of o.cells) {
        try {
          const r = await tabRun(server.url, cell, backend, o);
          results.push(r);
          console.log(`tab ${backend} ${cell}: ${JSON.stringify(r)}`);
        } catch (e) {
          results.push({ cell, backend, note: String(e.message || e).split("\n")[0] });
          console.log(`tab ${backend} ${cell}: failed: ${e.message || e}`);
        }
      }
    }
  } finally {
    await server.close();
  }
  const floor = o.floor ? await browserFloor().catch((e) => ({ error: String(e.message || e).split("\n")[0] })) : null;
  if (floor) console.log(`floor: ${JSON.stringify(floor)}`);

  console.log("");
  console.log("| cell | path | ms/step | s/epoch (page: epoch 1 / median of the window's epochs) | s/epoch (wall, start → validation) | longest main-thread task | prediction answer (median / worst) | input to paint (median / worst) |");
  console.log("|------|------|--------:|--------------------------------------------------------:|-----------------------------------:|-------------------------:|-----------------------------------:|--------------------------------:|");
  for (const r of results) {
    const path = pathOf(r);
    if (r.note) {
      console.log(`| ${r.cell.toUpperCase()} | ${path} | ${r.note} | | | | | |`);
      continue;
    }
    const epoch = r.fullEpoch ? `${f(r.epochSec, 2)} / ${f(r.epochMedian, 2)} (${r.epochsInWindow})` : `– (${r.steps} steps timed)`;
    const wall = r.fullEpoch ? f(r.wallSec, 2) : "–";
    console.log(`| ${r.cell.toUpperCase()} | ${path} | ${f(r.msPerStep)} | ${epoch} | ${wall} | ${r.longest > 0 ? `${f(r.longest, 0)} ms` : "none ≥ 50 ms"} (first ${f(r.windowSec, 0)} s) | ${f(r.predictMedian, 0)} / ${f(r.predictMax, 0)} ms (${r.predictN}) | ${inputMs(r.inputMedian)} / ${inputMs(r.inputMax)} ms |`);
  }
  for (const cell of o.cells) {
    if (native[cell]) {
      console.log(`| ${cell.toUpperCase()} | native, SIMD (median of 3) | | ${f(native[cell].simd, 2)} | | | | |`);
      console.log(`| ${cell.toUpperCase()} | native, portable (median of 3) | | ${f(native[cell].portable, 2)} | | | | |`);
    }
    if (torch[cell]) console.log(`| ${cell.toUpperCase()} | PyTorch, 1 thread | ${f((torch[cell].sec * 1000) / torch[cell].steps)} | ${f(torch[cell].sec, 2)} | | | | |`);
  }
  const ratios = results
    .filter((r) => r.backend === "cpu" && r.epochMedian)
    .map((r) => {
      const parts = [];
      if (native[r.cell]) parts.push(`${f(r.epochMedian / native[r.cell].simd, 2)}× native SIMD`);
      if (torch[r.cell]) parts.push(`${f(r.epochMedian / torch[r.cell].sec, 2)}× PyTorch`);
      return parts.length ? `${r.cell.toUpperCase()} ${parts.join(", ")}` : null;
    })
    .filter(Boolean);
  if (ratios.length) {
    console.log("");
    console.log(`The tab's median s/epoch (CPU) against: ${ratios.join("; ")}.`);
  }
  const withControls = results.filter((r) => r.controls);
  if (withControls.length) {
    console.log("");
    console.log("Input to paint while training (Event Timing, worst; <16: under the API's floor):");
    console.log("");
    console.log("| cell | path | predictor box | gate-pin slider | pin on (checkbox) | Pause / Resume | language switch, first / again |");
    console.log("|------|------|--------------:|----------------:|------------------:|---------------:|-------------------------------:|");
    for (const { cell, inputMax, controls: c, ...r } of withControls)
      console.log(`| ${cell.toUpperCase()} | ${pathOf(r)} | ${inputMs(inputMax)} ms | ${inputCell(c.pin)} | ${inputCell(c.pinOn)} | ${inputMs(c.pause)} ms | ${inputMs(c.lang)} / ${inputMs(c.langAgain)} ms |`);
    if (floor && !floor.error) {
      console.log("");
      console.log(`The browser's own floor, on a static page without the app in the same browser, one core kept busy by a`);
      console.log(`worker (scripts/bench/floor.html), median / worst of six clicks: a click that changes one number`);
      console.log(`${inputMs(floor.small.median)} / ${inputMs(floor.small.worst)} ms; one that repaints six canvases the size of the inspector's maps, as a move`);
      console.log(`of the pin does, ${inputMs(floor.maps.median)} / ${inputMs(floor.maps.worst)} ms; one that changes every text on the screen, as the`);
      console.log(`language switch does, ${inputMs(floor.all.median)} / ${inputMs(floor.all.worst)} ms.`);
    } else if (floor) console.log(`\nThe browser's own floor: not measured (${floor.error}).`);
    console.log("");
    console.log("The page's own part of the same inputs (worst): from the event to the end of the main thread's next frame");
    console.log("(handlers, style, layout, paint; a frame is 16.7 ms at 60 Hz, so an input that arrives just after a frame");
    console.log("began waits up to that long for the next one). The rest of the figures above is raster, compositing and");
    console.log("presentation:");
    console.log("");
    console.log("| cell | path | predictor box | gate-pin slider | pin on (checkbox) | Pause / Resume | language switch, first / again |");
    console.log("|------|------|--------------:|----------------:|------------------:|---------------:|-------------------------------:|");
    const ms = (x) => (x === undefined ? "– (no gate)" : `${f(x, 0)} ms`);
    for (const { cell, predictFrame, controls, ...r } of withControls) {
      const c = controls.frames;
      console.log(`| ${cell.toUpperCase()} | ${pathOf(r)} | ${ms(predictFrame)} | ${ms(c.pin)} | ${ms(c.pinOn)} | ${ms(c.pause)} | ${f(c.lang, 0)} / ${f(c.langAgain, 0)} ms |`);
    }
  }
  const pinned = results.filter((r) => r.controls?.shown);
  if (pinned.length) {
    console.log("");
    console.log("The inspector follows the pin a frame after the control: from the event to the end of the main thread's");
    console.log("frame that shows the new maps, top 5 and status (worst):");
    console.log("");
    console.log("| cell | path | gate-pin slider | pin on (checkbox) |");
    console.log("|------|------|----------------:|------------------:|");
    for (const r of pinned) console.log(`| ${r.cell.toUpperCase()} | ${pathOf(r)} | ${f(r.controls.shown.pin, 0)} ms | ${f(r.controls.shown.pinOn, 0)} ms |`);
  }
  if (countsTable) {
    console.log("");
    console.log(countsTable);
  }
  if (o.readme) {
    machine.loadEnd = loadavg()[0];
    const table = readmeTable({ results, native, torch, machine });
    writeReadme(table);
    console.log("");
    console.log("Written into README.md:");
    console.log("");
    console.log(table);
  }
}

main().catch((e) => {
  console.error(`bench-tab: ${e.stack || e}`);
  process.exit(1);
});
