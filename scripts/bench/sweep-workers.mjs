// Benchmark of a sweep's runs in parallel Web Workers: a delay-copy sweep of 2 seeds × 2 cells
// (RNN and LSTM) at a small budget on the CPU path, with `workers=1` and `workers=2`, side by
// side in one run (alternating, each round in a fresh browser), in headless Chromium. It prints
// one table: wall-clock seconds from Start to the finished sweep, the speed-up, whether every
// run's numbers are the same (the page's raw `data-value`s), and the wasm memory of each engine
// worker at the end. It reports; it asserts nothing about times. Run once dist/ exists (or
// through ../bench-tab.sh, UNROLL_BENCH_WORKERS=only):
//
//   node scripts/bench/sweep-workers.mjs [--rounds 3] [--steps 300] [--hidden 64] [--workers 1,2]

import { execSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { DIST, serveDist, launch, value } from "../e2e/lib.mjs";
import { cpuModel, median } from "./machine.mjs";

function parseArgs(argv) {
  const o = { rounds: 3, steps: 300, hidden: 64, workers: [1, 2] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === "--rounds") o.rounds = Number(next());
    else if (a === "--steps") o.steps = Number(next());
    else if (a === "--hidden") o.hidden = Number(next());
    else if (a === "--workers") o.workers = next().split(",").map(Number);
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


/** Trains the sweep with `workers` in a fresh browser: seconds, the runs' numbers, memory per worker. */
async function sweep(base, query, workers) {
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await page.goto(`${base}${query}&workers=${workers}`, { waitUntil: "load" });
    await page.waitForSelector('[data-testid="delay-start"]:not([disabled])', { timeout: 120_000 });
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
    const rows = await page.$$eval('[data-testid^="delay-seed-acc-"]', (rs) => rs.map((r) => [r.dataset.testid, r.dataset.seed, r.dataset.step, r.dataset.value].join(" ")));
    return { seconds, results: rows.sort().join("\n"), bytes };
  } finally {
    await browser.close();
  }
}

const o = parseArgs(process.argv.slice(2));
const query = `?v=1&lesson=delay&cell=both&hidden_size=${o.hidden}&steps=${o.steps}&seeds=2&seed=0&backend=cpu`;
const server = await serveDist(DIST);
const base = server.url;
const times = Object.fromEntries(o.workers.map((w) => [w, []]));
const memory = {};
let results = null;
let same = true;
const load = loadavg()[0];
try {
  for (let r = 0; r < o.rounds; r++) {
    // Alternating order, so a change of load weighs on both.
    const order = r % 2 === 0 ? o.workers : [...o.workers].reverse();
    for (const w of order) {
      const s = await sweep(base, query, w);
      times[w].push(s.seconds);
      memory[w] = s.bytes;
      if (results === null) results = s.results;
      same &&= s.results === results;
      console.error(`round ${r + 1}, workers=${w}: ${s.seconds.toFixed(1)} s`);
    }
  }
} finally {
  await server.close();
}
const commit = execSync("git rev-parse --short HEAD").toString().trim();
const base1 = median(times[o.workers[0]]);
console.log(`Delay-copy sweep, 2 seeds × RNN + LSTM, hidden ${o.hidden}, length 96, batch 32, ${o.steps} steps, CPU path; headless Chromium`);
console.log(`${cpuModel()}, ${cpus().length} logical CPUs, load ${load.toFixed(2)} at the start; commit ${commit}; ${o.rounds} rounds alternating, median`);
console.log("");
console.log("| workers | seconds (median) | each round | speed-up | wasm memory per engine worker | same numbers |");
console.log("|---|---|---|---|---|---|");
for (const w of o.workers) {
  const m = median(times[w]);
  const mib = (memory[w] ?? []).map((b) => `${(b / 2 ** 20).toFixed(1)} MiB`).join(", ");
  console.log(`| ${w} | ${m.toFixed(1)} | ${times[w].map((t) => t.toFixed(1)).join(", ")} | ${(base1 / m).toFixed(2)}× | ${mib} | ${same ? "yes" : "NO"} |`);
}
