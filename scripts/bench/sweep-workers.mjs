// Benchmark of a sweep's runs in parallel Web Workers: a delay-copy sweep of 2 seeds × 2 cells
// (RNN and LSTM) at a small budget on the CPU path, with `workers=1`, `workers=2` and N
// (`workers=0`, automatic: the machine's cores less one), side by side in one run (alternating,
// each round in a fresh browser), in headless Chromium, next to PyTorch running the page's own
// "As PyTorch" script of the same sweep on 1 thread and on N threads (the machine's cores;
// scripts/bench/torch_delay.py, when torch imports and the native `delay-copy` is built). It
// prints one table: wall-clock seconds from Start to the finished sweep, the speed-up over
// one worker, the page's main-thread busy seconds during the sweep (the Chrome DevTools
// Protocol's TaskDuration), whether every run's numbers are the same (the page's raw
// `data-value`s), and the wasm memory of each engine worker at the end. It reports; it
// asserts nothing about times. Run once dist/ exists (or through ../bench-tab.sh,
// UNROLL_BENCH_WORKERS=only):
//
//   node scripts/bench/sweep-workers.mjs [--rounds 3] [--steps 300] [--hidden 64] [--workers 1,2,0]
//                                        [--skip-torch] [--torch-rounds 1]

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { execFileSync, execSync } from "node:child_process";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { DIST, serveDist, launch, value } from "../e2e/lib.mjs";
import { cpuModel, median } from "./machine.mjs";

function parseArgs(argv) {
  const o = { rounds: 3, steps: 300, hidden: 64, workers: [1, 2, 0], torch: true, torchRounds: 1 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === "--rounds") o.rounds = Number(next());
    else if (a === "--steps") o.steps = Number(next());
    else if (a === "--hidden") o.hidden = Number(next());
    else if (a === "--workers") o.workers = next().split(",").map(Number);
    else if (a === "--skip-torch") o.torch = false;
    else if (a === "--torch-rounds") o.torchRounds = Number(next());
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The page's main-thread busy seconds so far (DevTools Protocol `Performance.getMetrics`). */
async function busy(cdp) {
  const { metrics } = await cdp.send("Performance.getMetrics");
  return metrics.find((m) => m.name === "TaskDuration")?.value ?? NaN;
}

/** Trains the sweep with `workers` in a fresh browser: seconds, main-thread busy seconds, the runs' numbers, memory per worker. */
async function sweep(base, query, workers) {
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send("Performance.enable");
    await page.goto(`${base}${query}&workers=${workers}`, { waitUntil: "load" });
    await page.waitForSelector('[data-testid="delay-start"]:not([disabled])', { timeout: 120_000 });
    const busy0 = await busy(cdp);
    const t0 = Date.now();
    await page.click('[data-testid="delay-start"]');
    let bytes = [];
    for (;;) {
      const status = await value(page, "delay-status");
      if (status === "finished") break;
      if (Date.now() - t0 > 1_800_000) throw new Error("the sweep did not finish in 30 min");
      const engines = page.workers().filter((w) => w.url().endsWith("engine-worker.js"));
      bytes = await Promise.all(engines.map((w) => w.evaluate(() => (self.unrollWasmBytes ? self.unrollWasmBytes() : 0)).catch(() => 0)));
      await sleep(100);
    }
    const seconds = (Date.now() - t0) / 1000;
    const main = (await busy(cdp)) - busy0;
    const rows = await page.$$eval('[data-testid^="delay-seed-acc-"]', (rs) => rs.map((r) => [r.dataset.testid, r.dataset.seed, r.dataset.step, r.dataset.value].join(" ")));
    return { seconds, main, results: rows.sort().join("\n"), bytes };
  } finally {
    await browser.close();
  }
}

/** PyTorch's seconds for the same sweep on 1 and on `threads` threads, by the page's script; null when it cannot run. */
function torchTimes(o, threads) {
  const bin = join(process.env.UNROLL_BIN_DIR ?? join(process.env.CARGO_TARGET_DIR ?? "target", "release"), "delay-copy");
  if (!existsSync(bin)) {
    console.error(`PyTorch left out: no ${bin} (cargo build --release --bin delay-copy)`);
    return null;
  }
  const dir = mkdtempSync(join(tmpdir(), "unroll-torch-delay-"));
  try {
    const script = join(dir, "delay_copy.py");
    execFileSync(bin, ["--cell", "both", "--hidden-size", String(o.hidden), "--steps", String(o.steps), "--seeds", "2", "--seed", "0", "--as-pytorch", script], { stdio: ["ignore", "ignore", "inherit"] });
    const out = execFileSync("python3", ["scripts/bench/torch_delay.py", "--script", script, "--threads", [...new Set([1, threads])].join(","), "--rounds", String(o.torchRounds)]).toString();
    const rows = out.trim().split("\n").map((l) => JSON.parse(l));
    if (rows[0]?.skipped) {
      console.error(`PyTorch left out: ${rows[0].skipped}`);
      return null;
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const o = parseArgs(process.argv.slice(2));
const query = `?v=1&lesson=delay&cell=both&hidden_size=${o.hidden}&steps=${o.steps}&seeds=2&seed=0&backend=cpu`;
const n = Math.min(8, Math.max(1, cpus().length - 1));
// `workers=0` is automatic; where it is one of the others, it is not timed twice.
const workers = [...new Set(o.workers.map((w) => (w === 0 && o.workers.includes(n) ? n : w)))];
const label = (w) => (w === 0 ? `N = ${n} (automatic)` : w === n && o.workers.includes(0) ? `${w} (N, automatic)` : String(w));
const server = await serveDist(DIST);
const base = server.url;
const times = Object.fromEntries(workers.map((w) => [w, []]));
const mains = Object.fromEntries(workers.map((w) => [w, []]));
const memory = {};
let results = null;
let same = true;
const load = loadavg()[0];
try {
  for (let r = 0; r < o.rounds; r++) {
    // Alternating order, so a change of load weighs on both.
    const order = r % 2 === 0 ? workers : [...workers].reverse();
    for (const w of order) {
      const s = await sweep(base, query, w);
      times[w].push(s.seconds);
      mains[w].push(s.main);
      memory[w] = s.bytes;
      if (results === null) results = s.results;
      same &&= s.results === results;
      console.error(`round ${r + 1}, workers=${w}: ${s.seconds.toFixed(1)} s, main thread busy ${s.main.toFixed(1)} s`);
    }
  }
} finally {
  await server.close();
}
const torch = o.torch ? torchTimes(o, cpus().length) : null;
const loadEnd = loadavg()[0];
const commit = execSync("git rev-parse --short HEAD").toString().trim();
const base1 = median(times[workers[0]]);
console.log(`Delay-copy sweep, 2 seeds × RNN + LSTM, hidden ${o.hidden}, length 96, batch 32, ${o.steps} steps, CPU path; headless Chromium`);
console.log(`${cpuModel()}, ${cpus().length} logical CPUs, load ${load.toFixed(2)} at the start and ${loadEnd.toFixed(2)} at the end; commit ${commit}; ${o.rounds} rounds alternating, median (PyTorch: ${o.torchRounds} round${o.torchRounds === 1 ? "" : "s"} after them)`);
console.log("");
console.log("| run | seconds (median) | each round | speed against 1 worker | page main thread busy (s) | wasm memory per engine worker | same numbers |");
console.log("|---|---|---|---|---|---|---|");
for (const w of workers) {
  const m = median(times[w]);
  const mib = (memory[w] ?? []).map((b) => `${(b / 2 ** 20).toFixed(1)} MiB`).join(", ");
  console.log(`| tab, workers = ${label(w)} | ${m.toFixed(1)} | ${times[w].map((t) => t.toFixed(1)).join(", ")} | ${(base1 / m).toFixed(2)}× | ${median(mains[w]).toFixed(1)} | ${mib} | ${same ? "yes" : "NO"} |`);
}
for (const t of torch ?? []) {
  console.log(`| PyTorch, ${t.threads} thread${t.threads === 1 ? "" : "s"} (the page's script) | ${t.sec.toFixed(1)} | ${t.secs.map((x) => x.toFixed(1)).join(", ")} | ${(base1 / t.sec).toFixed(2)}× | – | – | – |`);
}
