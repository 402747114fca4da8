// Benchmark of the long-memory lab's training in the browser tab: the delay task at the size of
// recipe R (length 96, delay 8, hidden 128, batch 32, one seed) for each cell, on the CPU path
// and on WebGPU (SwiftShader in headless Chromium), and what `backend=auto` picks there with
// its two timings. A command that reports; it asserts nothing about times. Run through
// ../bench-tab.sh, or directly once dist/ exists:
//
//   node scripts/bench/delay-tab.mjs [--cells lstm,rnn] [--window-sec 40] [--max-steps 30]
//
// The tab is driven only through the delay page's data-testid hooks (src/delay/mod.rs):
// it opens `?v=1&lesson=delay&cell=C&length=96&delay=8&hidden_size=128&batch_size=32&seeds=1
// &steps=3000&backend=B`, clicks Start and reports ms/step as the time between two changes of
// `delay-step-<cell>` (from step 2 on, so the held-out evaluation at step 0 and the first step's
// compile are outside it) over the steps done in the window (at most --max-steps, at most
// --window-sec seconds), and for `backend=auto` the figures of `delay-backend-<cell>`.

import { ROOT, DIST, serveDist, launch, value } from "../e2e/lib.mjs";

const SHAPE = "length=96&delay=8&hidden_size=128&batch_size=32&seeds=1&seed=0&steps=3000";

function parseArgs(argv) {
  const o = { cells: ["lstm", "rnn"], windowSec: 40, maxSteps: 30 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === "--cells") o.cells = next().split(",");
    else if (a === "--window-sec") o.windowSec = Number(next());
    else if (a === "--max-steps") o.maxSteps = Number(next());
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Opens the delay page at the bench's shape for `cell` and `backend` and starts the sweep. */
async function start(browser, base, cell, backend) {
  const page = await browser.context.newPage();
  await page.goto(`${base}?v=1&lesson=delay&cell=${cell}&${SHAPE}&backend=${backend}`, { waitUntil: "load" });
  await page.waitForSelector('[data-testid="delay-start"]:not([disabled])', { timeout: 120_000 });
  await page.click('[data-testid="delay-start"]');
  await page.waitForSelector(`[data-testid="delay-backend-${cell}"]`, { timeout: 300_000 });
  return page;
}

/** ms/step of the sweep on `page`: steps from 2 on, within the window. */
async function msPerStep(page, cell, o) {
  const step = async () => Number((await value(page, `delay-step-${cell}`)) || 0);
  const deadline = Date.now() + 300_000;
  let s0 = await step();
  while (s0 < 2 && Date.now() < deadline) {
    await sleep(50);
    s0 = await step();
  }
  // The first change after step 2 starts the clock (reports arrive in batches).
  let first = s0;
  while (first === s0 && Date.now() < deadline) {
    await sleep(20);
    first = await step();
  }
  const t0 = Date.now();
  let last = first;
  let tLast = t0;
  while (Date.now() - t0 < o.windowSec * 1000 && last - first < o.maxSteps) {
    await sleep(20);
    const s = await step();
    if (s !== last) {
      last = s;
      tLast = Date.now();
    }
  }
  await page.click('[data-testid="delay-pause"]').catch(() => {});
  return last > first ? { ms: (tLast - t0) / (last - first), steps: last - first } : { ms: NaN, steps: 0 };
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const server = await serveDist(DIST);
  const rows = [];
  try {
    for (const cell of o.cells) {
      const row = { cell };
      for (const backend of ["cpu", "gpu"]) {
        const browser = await launch({ webgpu: backend === "gpu" });
        try {
          const page = await start(browser, server.url, cell, backend);
          const path = await value(page, `delay-backend-${cell}`);
          row[backend] = { ...(await msPerStep(page, cell, o)), path };
        } finally {
          await browser.close();
        }
      }
      const browser = await launch({ webgpu: true });
      try {
        const page = await start(browser, server.url, cell, "auto");
        const sel = `[data-testid="delay-backend-${cell}"]`;
        row.auto = {
          path: await value(page, `delay-backend-${cell}`),
          gpuMs: Number(await page.getAttribute(sel, "data-gpu-ms")),
          cpuMs: Number(await page.getAttribute(sel, "data-cpu-ms")),
        };
        await page.click('[data-testid="delay-pause"]').catch(() => {});
      } finally {
        await browser.close();
      }
      rows.push(row);
      console.error(JSON.stringify(row));
    }
  } finally {
    await server.close();
  }
  const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : "—");
  console.log(`\nDelay task in the tab (${SHAPE.replaceAll("&", ", ")}; root ${ROOT})`);
  console.log("| cell | tab CPU ms/step | tab WebGPU ms/step | WebGPU / CPU | auto: WebGPU, CPU ms/step (measured) | auto picks |");
  console.log("|---|---:|---:|---:|---|---|");
  for (const r of rows) {
    const ratio = r.gpu.ms / r.cpu.ms;
    console.log(`| ${r.cell.toUpperCase()} | ${f(r.cpu.ms)} (${r.cpu.steps} steps, ${r.cpu.path}) | ${f(r.gpu.ms)} (${r.gpu.steps} steps, ${r.gpu.path}) | ${f(ratio)}× | ${f(r.auto.gpuMs)}, ${f(r.auto.cpuMs)} | ${r.auto.path} |`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
