// End-to-end test of the delay page's backend, in headless Chromium with SwiftShader's WebGPU
// adapter, at a small size (length 16, delay 3, hidden 32, batch 16, one seed):
// - `backend=gpu` and `backend=cpu` train the same sweep from the same seed: every cell's
//   step-1 loss agrees to 1e-4 (relative) and its held-out loss after 20 steps to 1e-3; each
//   cell's backend line and each finished run's row name the path;
// - `backend=auto` measures both paths for each cell, trains on the faster and its backend line
//   shows both figures (en; after the language switch, the same figures in Chinese),
//   screenshots at 1440 and 375 px in both languages;
// - a lost device (`window.unrollDebug.loseDevice()`) hands the runs to the CPU from the step
//   they reached, says so, and the sweep finishes.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/delay-backend.test.mjs`
// (UNROLL_E2E_SKIP_BUILD=1 reuses dist/).

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { openPage, value, num, until, screenshot, rustFixed } from "./lib.mjs";

const TIMEOUT = 600_000;
const SMALL = "?v=1&lesson=delay&cell=both&length=16&delay=3&hidden_size=32&batch_size=16&seeds=1&seed=4";
const CELLS = ["rnn", "lstm"];

// The build's own data set, as the page is shipped (the delay page reads no names).
const app = e2e({ data: "real" });

/** Opens `query` on a browser with WebGPU, starts the sweep and waits for both backend lines. */
async function start(browser, query) {
  const { page, consoleErrors } = await openPage(browser.context, app.url, query);
  await page.waitForSelector('[data-testid="delay-start"]:not([disabled])', { timeout: 120_000 });
  await page.click('[data-testid="delay-start"]');
  for (const cell of CELLS) {
    await page.waitForSelector(`[data-testid="delay-backend-${cell}"]`, { timeout: 120_000 });
  }
  return { page, consoleErrors };
}

/** Waits for the sweep's end; every cell's path, first loss and held-out loss. */
async function finished(page) {
  await until(async () => (await value(page, "delay-status")) === "finished", TIMEOUT, "the sweep's end", 250);
  const out = {};
  for (const cell of CELLS) {
    out[cell] = {
      backend: await value(page, `delay-backend-${cell}`),
      first: await num(page, `delay-loss-first-${cell}`),
      heldout: await num(page, `delay-heldout-loss-${cell}`),
      run: await page.getAttribute(`[data-testid="delay-seed-acc-${cell}"] [data-testid="delay-run-backend"]`, "data-value"),
    };
  }
  return out;
}

test("WebGPU and the CPU give the same delay losses from the same seed; the page names the path", { timeout: TIMEOUT }, async (t) => {
  const runs = {};
  for (const backend of ["gpu", "cpu"]) {
    const b = await app.launch({ webgpu: true });
    try {
      const { page, consoleErrors } = await start(b, `${SMALL}&steps=20&backend=${backend}`);
      runs[backend] = await finished(page);
      const text = await page.textContent('[data-testid="delay-backend-lstm"]');
      assert.match(text, backend === "gpu" ? /^Backend: WebGPU$/ : /^Backend: CPU$/);
      assert.deepEqual(consoleErrors, []);
    } finally {
      await b.close();
    }
  }
  const rel = (a, b) => Math.abs(a - b) / Math.abs(b);
  for (const cell of CELLS) {
    const [g, c] = [runs.gpu[cell], runs.cpu[cell]];
    t.diagnostic(`${cell}: step 1 WebGPU ${g.first} CPU ${c.first} (relative ${rel(g.first, c.first).toExponential(2)}); held-out after 20 steps WebGPU ${g.heldout} CPU ${c.heldout} (relative ${rel(g.heldout, c.heldout).toExponential(2)})`);
    assert.deepEqual([g.backend, g.run], ["webgpu", "webgpu"]);
    assert.deepEqual([c.backend, c.run], ["cpu", "cpu"]);
    assert.ok(g.first > 2 && g.first < 2.6, `a loss near ln 10 at step 1: ${g.first}`);
    assert.ok(rel(g.first, c.first) < 1e-4, `${cell}: step 1 agrees to 1e-4`);
    assert.ok(rel(g.heldout, c.heldout) < 1e-3, `${cell}: held-out loss after 20 steps is close`);
  }
});

test("backend=auto measures both paths for each cell and trains on the faster (en, zh)", { timeout: TIMEOUT }, async (t) => {
  const b = await app.launch({ webgpu: true });
  try {
    const { page, consoleErrors } = await start(b, `${SMALL}&steps=2000`);
    const lines = {};
    for (const cell of CELLS) {
      const sel = `[data-testid="delay-backend-${cell}"]`;
      assert.equal(await page.getAttribute(sel, "data-notice"), "measured");
      const gpuMs = Number(await page.getAttribute(sel, "data-gpu-ms"));
      const cpuMs = Number(await page.getAttribute(sel, "data-cpu-ms"));
      const path = await value(page, `delay-backend-${cell}`);
      t.diagnostic(`${cell}: WebGPU ${rustFixed(gpuMs, 1)} ms/step, CPU ${rustFixed(cpuMs, 1)} ms/step → ${path}`);
      assert.ok(gpuMs > 0 && cpuMs > 0);
      assert.equal(path, gpuMs < cpuMs ? "webgpu" : "cpu");
      assert.match(await page.textContent(sel), new RegExp(`^Backend: ${path === "webgpu" ? "WebGPU" : "CPU"} — WebGPU ${rustFixed(gpuMs, 1)} ms/step, CPU ${rustFixed(cpuMs, 1)} ms/step: using ${path === "webgpu" ? "WebGPU" : "the CPU"}$`));
      lines[cell] = { sel, gpuMs, cpuMs, path };
    }
    await until(async () => (await num(page, "delay-step-lstm")) >= 3, TIMEOUT, "3 steps", 250);
    await page.click('[data-testid="delay-pause"]');
    // The same measured lines in each language (the switch keeps the paused sweep), at 1440 and 375 px.
    for (const lang of ["en", "zh"]) {
      if (lang === "zh") {
        await page.click('[data-testid="lang-zh"]');
        await until(async () => (await page.evaluate(() => document.documentElement.lang)).startsWith("zh"), 5000, "the zh page");
        assert.equal(await value(page, "delay-status"), "paused", "the sweep kept across the switch");
        for (const { sel, gpuMs, cpuMs, path } of Object.values(lines)) {
          assert.match(await page.textContent(sel), new RegExp(`^后端：${path === "webgpu" ? "WebGPU" : "CPU"} — WebGPU 每步 ${rustFixed(gpuMs, 1)} 毫秒，CPU 每步 ${rustFixed(cpuMs, 1)} 毫秒`));
        }
      }
      await page.setViewportSize({ width: 1440, height: 1000 });
      await page.evaluate(() => document.querySelector('[data-testid="delay-backend-rnn"]').scrollIntoView({ block: "center" }));
      await screenshot(page, `delay-backend-${lang}-1440`, { fullPage: false });
      await page.setViewportSize({ width: 375, height: 800 });
      await page.evaluate(() => document.querySelector('[data-testid="delay-backend-rnn"]').scrollIntoView({ block: "center" }));
      await screenshot(page, `delay-backend-${lang}-375`, { fullPage: false });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${lang}: no sideways scrolling at 375 px (${overflow} px)`);
    }
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("a lost device hands the runs to the CPU from the step they reached; the sweep finishes", { timeout: TIMEOUT }, async () => {
  const b = await app.launch({ webgpu: true });
  try {
    const { page, consoleErrors } = await start(b, `${SMALL}&steps=40&backend=gpu`);
    await until(async () => (await num(page, "delay-step-lstm")) >= 5, TIMEOUT, "5 steps", 100);
    assert.equal(await page.evaluate(() => window.unrollDebug.loseDevice()), true);
    for (const cell of CELLS) {
      const sel = `[data-testid="delay-backend-${cell}"][data-notice="lost"]`;
      await page.waitForSelector(sel, { timeout: 120_000 });
      assert.equal(await page.getAttribute(sel, "data-value"), "cpu");
      assert.match(await page.textContent(sel), /^Backend: CPU — The GPU device was lost \(.*\); training continues on the CPU from step \d+\.$/);
    }
    const got = await finished(page);
    for (const cell of CELLS) {
      assert.ok(Number.isFinite(got[cell].heldout), `${cell}: a held-out loss after the fallback`);
      const row = await page.textContent(`[data-testid="delay-seed-acc-${cell}"] [data-testid="delay-run-backend"]`);
      assert.match(row, /WebGPU, then the CPU from step \d+/);
    }
    // The browser reports the destroyed device on the console; nothing else fails.
    assert.deepEqual(consoleErrors.filter((e) => !/destroy|lost|Device/i.test(e)), []);
  } finally {
    await b.close();
  }
});

test("backend=cpu forces the CPU with no measurement", { timeout: TIMEOUT }, async () => {
  const b = await app.launch({ webgpu: true });
  try {
    const { page, consoleErrors } = await start(b, `${SMALL}&steps=2000&backend=cpu`);
    for (const cell of CELLS) {
      const sel = `[data-testid="delay-backend-${cell}"]`;
      assert.equal(await value(page, `delay-backend-${cell}`), "cpu");
      assert.equal(await page.getAttribute(sel, "data-notice"), null, "no figures and no notice");
    }
    await until(async () => (await num(page, "delay-step-lstm")) >= 3, TIMEOUT, "3 steps", 250);
    await page.click('[data-testid="delay-pause"]');
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});
