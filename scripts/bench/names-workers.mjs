// Benchmark of one names run split across Web Workers: the names recipe (LSTM, hidden 128,
// batch 64, seed 0) on the CPU path in headless Chromium with `workers=1`, `2` and N, side by
// side in one run (alternating, each in a fresh browser), next to PyTorch on the very same
// batches on one thread and on N threads (scripts/bench/torch_names.py, skipped without
// torch) and the native trainer split the same way (`train-names --workers W`). It prints one
// table: seconds per epoch (the page's own `epoch-sec`, median of the epochs trained), the
// ratio to PyTorch on one thread, the workers line the page showed, and whether the runs gave
// the same epoch figures as their first round. It reports; it asserts nothing about times.
// Run once dist/ and the release `train-names` exist (or through ../bench-tab.sh,
// UNROLL_BENCH_SPLIT=only):
//
//   node scripts/bench/names-workers.mjs [--rounds 2] [--epochs 2] [--workers 1,2,4] [--cell lstm]
//
// N defaults to the machine's logical CPUs (at least 2). A machine with fewer cores than
// workers still runs them (the figures then say what splitting costs there, not what it
// saves).

import { execSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, DIST, serveDist, launch } from "../e2e/lib.mjs";
import { cpuModel, median } from "./machine.mjs";

function parseArgs(argv) {
  const n = Math.max(2, cpus().length);
  const o = { rounds: 2, epochs: 2, workers: [...new Set([1, 2, n])], cell: "lstm" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === "--rounds") o.rounds = Number(next());
    else if (a === "--epochs") o.epochs = Number(next());
    else if (a === "--workers") o.workers = next().split(",").map(Number);
    else if (a === "--cell") o.cell = next();
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));


/** Trains `epochs` epochs with `workers` in a fresh browser: each epoch's seconds, the workers line, the figures. */
async function tab(base, query, workers, epochs) {
  const browser = await launch();
  try {
    const page = await browser.context.newPage();
    await page.goto(`${base}${query}&workers=${workers}`, { waitUntil: "load" });
    await page.waitForSelector('[data-testid="train-start"]:not([disabled])', { timeout: 120_000 });
    await page.click('[data-testid="train-start"]');
    const secs = [];
    const figures = [];
    const t0 = Date.now();
    let last = null;
    // Each epoch's end shows its seconds and its held-out figures (raw `data-value`s).
    while (secs.length < epochs) {
      if (Date.now() - t0 > 1_200_000) throw new Error("the epochs did not end in 20 min");
      // One read of the three, so an epoch's end is never seen half drawn.
      const now = await page.evaluate(() => ["epoch-sec", "val-acc", "val-loss"].map((id) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute("data-value") ?? null));
      const key = now.join(" ");
      if (now[0] && now[1] && key !== last) {
        last = key;
        secs.push(Number(now[0]));
        figures.push(`${now[1]} ${now[2]}`);
      }
      await sleep(100);
    }
    const line = await page.$eval('[data-testid="workers"]', (e) => `${e.textContent.trim()}`).catch(() => "(no line: one worker)");
    return { secs, line, figures: figures.join("; ") };
  } finally {
    await browser.close();
  }
}

function run(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: "utf8", cwd: ROOT, maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

const o = parseArgs(process.argv.slice(2));
const n = Math.max(...o.workers);
const query = `?v=1&lesson=names&cell=${o.cell}&hidden_size=128&batch_size=64&epochs=100&seed=0&backend=cpu`;
const load = loadavg()[0];
const bins = process.env.UNROLL_BIN_DIR || join(process.env.CARGO_TARGET_DIR || join(ROOT, "target"), "release");

// PyTorch on the same batches, one thread and N threads.
const torch = {};
const dir = mkdtempSync(join(tmpdir(), "unroll-split-"));
try {
  const dump = join(dir, "batches.jsonl");
  run(join(bins, "train-names"), ["--seed", "0", "--batch-size", "64", "--dump-batches", dump]);
  for (const threads of [1, n]) {
    const out = spawnSync(process.env.PYTHON || "python3", [join(ROOT, "scripts", "bench", "torch_names.py"), "--batches", dump, "--cells", o.cell, "--threads", String(threads), "--epochs", "3"], { encoding: "utf8" });
    const line = (out.stdout || "").trim().split("\n").pop() || "{}";
    const j = JSON.parse(line);
    torch[threads] = j.sec ?? null;
    console.error(`PyTorch, ${threads} thread(s): ${j.sec ?? j.skipped}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// The native trainer split the same way (threads instead of workers).
const native = {};
for (const w of o.workers) {
  const out = run(join(bins, "train-names"), ["--epochs", String(o.epochs), "--workers", String(w), "--cell", o.cell]);
  native[w] = median(out.trim().split("\n").map((l) => JSON.parse(l).sec));
  console.error(`native, ${w} worker(s): ${native[w].toFixed(2)} s/epoch`);
}

const server = await serveDist(DIST);
const times = Object.fromEntries(o.workers.map((w) => [w, []]));
const lines = {};
const figures = {};
try {
  for (let r = 0; r < o.rounds; r++) {
    const order = r % 2 === 0 ? o.workers : [...o.workers].reverse();
    for (const w of order) {
      const t = await tab(server.url, query, w, o.epochs);
      times[w].push(...t.secs);
      lines[w] = t.line;
      figures[w] ??= [];
      figures[w].push(t.figures);
      console.error(`round ${r + 1}, workers=${w}: ${t.secs.map((s) => s.toFixed(2)).join(", ")} s/epoch`);
    }
  }
} finally {
  await server.close();
}
const commit = execSync("git rev-parse --short HEAD", { cwd: ROOT }).toString().trim();
const t1 = torch[1];
console.log(`Names recipe (${o.cell.toUpperCase()}, hidden 128, batch 64, seed 0), CPU path, one run split across workers; headless Chromium`);
console.log(`${cpuModel()}, ${cpus().length} logical CPUs, load ${load.toFixed(2)} at the start; commit ${commit}; ${o.rounds} rounds alternating × ${o.epochs} epochs, median`);
console.log("");
console.log("| workers | tab s/epoch (median) | each epoch | × PyTorch 1 thread | native s/epoch (threads) | same figures each round | the page's line |");
console.log("|---|---|---|---|---|---|---|");
for (const w of o.workers) {
  const m = median(times[w]);
  const same = new Set(figures[w]).size === 1 ? "yes" : "NO";
  const ratio = t1 ? `${(m / t1).toFixed(2)}×` : "–";
  console.log(`| ${w} | ${m.toFixed(2)} | ${times[w].map((t) => t.toFixed(2)).join(", ")} | ${ratio} | ${native[w].toFixed(2)} | ${same} | ${lines[w]} |`);
}
console.log("");
console.log(`PyTorch ${o.cell.toUpperCase()} on the same batches: ${torch[1] ?? "–"} s/epoch on 1 thread, ${torch[n] ?? "–"} s/epoch on ${n} threads.`);
