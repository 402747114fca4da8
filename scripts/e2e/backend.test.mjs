// End-to-end test of the backend choice on the training page, in headless Chromium with
// SwiftShader's WebGPU adapter: `backend=auto` times a few steps of each path at the run's
// shapes and trains on the faster, its notice showing both figures (en; after the language
// switch, the same figures in Chinese); `backend=gpu` and
// `backend=cpu` train on their path with no measurement.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/backend.test.mjs` (UNROLL_E2E_SKIP_BUILD=1
// reuses dist/). Screenshots of the notice (1440 and 375 px, en and zh) go to scripts/e2e/out/.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { openPage, value, num, until, screenshot, rustFixed } from "./lib.mjs";

const TIMEOUT = 600_000;
// The names recipe's batch (64) and a seed; each test adds its cell and hidden size.
const RECIPE = "?v=1&lesson=names&batch_size=64&seed=3&autostart=1";

// The real data set: `auto` times the names recipe's own steps.
const app = e2e({ data: "real" });

/** Opens `query` and waits for the session's backend. */
async function open(browser, query) {
  const { page, consoleErrors } = await openPage(browser.context, app.url, query);
  await until(async () => (await value(page, "backend")) || (await value(page, "train-status")) === "error", 180_000, "the backend");
  assert.equal(await value(page, "train-status"), "running", `training did not start: ${await page.textContent("body")}`);
  return { page, consoleErrors };
}

/** Pauses the run if it still trains: a GRU of hidden 32 on the CPU can finish all its epochs
 * before the test gets here, and Pause is then disabled. Checked and clicked in one task of the
 * page, so the run cannot end between the two. */
async function pauseIfRunning(page) {
  await page.evaluate(() => {
    const pause = document.querySelector('[data-testid="train-pause"]');
    if (pause && !pause.disabled) pause.click();
  });
}

/** The measured notice's figures and the path it names. */
async function measured(page) {
  const sel = '[data-testid="backend-notice"][data-value="measured"]';
  await page.waitForSelector(sel, { timeout: 10_000 });
  return {
    gpuMs: Number(await page.getAttribute(sel, "data-gpu-ms")),
    cpuMs: Number(await page.getAttribute(sel, "data-cpu-ms")),
    backend: await page.getAttribute(sel, "data-backend"),
    text: await page.textContent(sel),
  };
}

for (const cell of ["lstm", "rnn"]) {
  test(`auto measures both paths (${cell}, hidden 128, batch 64) and trains on the faster`, { timeout: TIMEOUT }, async (t) => {
    const b = await app.launch({ webgpu: true });
    try {
      const { page, consoleErrors } = await open(b, `${RECIPE}&cell=${cell}&hidden_size=128`);
      const m = await measured(page);
      t.diagnostic(`${cell}: WebGPU ${rustFixed(m.gpuMs, 1)} ms/step, CPU ${rustFixed(m.cpuMs, 1)} ms/step → ${m.backend}`);
      assert.ok(m.gpuMs > 0 && m.cpuMs > 0, JSON.stringify(m));
      const faster = m.gpuMs < m.cpuMs ? "webgpu" : "cpu";
      assert.equal(m.backend, faster);
      assert.equal(await value(page, "backend"), faster, "the page trains on the path the figures say is faster");
      assert.match(m.text, new RegExp(`WebGPU ${rustFixed(m.gpuMs, 1)} ms/step, CPU ${rustFixed(m.cpuMs, 1)} ms/step: using ${faster === "webgpu" ? "WebGPU" : "the CPU"}`));
      await until(async () => (await num(page, "train-step")) >= 3, TIMEOUT, "3 steps", 250);
      assert.equal(await value(page, "backend"), faster);
      await pauseIfRunning(page);
      if (cell === "lstm") {
        // The same notice in Chinese after the language switch: both figures, no English.
        for (const lang of ["en", "zh"]) {
          if (lang === "zh") {
            await page.click('[data-testid="lang-zh"]');
            await until(async () => (await page.evaluate(() => document.documentElement.lang)).startsWith("zh"), 5000, "the zh page");
            const zh = await measured(page);
            assert.deepEqual([zh.gpuMs, zh.cpuMs, zh.backend], [m.gpuMs, m.cpuMs, m.backend], "the same measurement");
            const english = (zh.text.match(/[A-Za-z]{3,}/g) || []).filter((w) => w !== "WebGPU" && w !== "CPU");
            assert.deepEqual(english, [], zh.text);
            assert.match(zh.text, new RegExp(`WebGPU 每步 ${rustFixed(m.gpuMs, 1)} 毫秒，CPU 每步 ${rustFixed(m.cpuMs, 1)} 毫秒`));
            assert.equal(await value(page, "backend"), faster);
          }
          for (const width of [1440, 375]) {
            await page.setViewportSize({ width, height: width === 375 ? 800 : 1000 });
            await page.evaluate(() => document.querySelector('[data-testid="backend-notice"]').scrollIntoView({ block: "center" }));
            await screenshot(page, `backend-measured-${lang}-${width}`, { fullPage: false });
          }
        }
      }
      assert.deepEqual(consoleErrors, []);
    } finally {
      await b.close();
    }
  });
}

for (const [backend, path] of [["gpu", "webgpu"], ["cpu", "cpu"]]) {
  test(`backend=${backend} trains on its path with no measurement`, { timeout: TIMEOUT }, async () => {
    const b = await app.launch({ webgpu: true });
    try {
      const { page, consoleErrors } = await open(b, `${RECIPE}&cell=gru&hidden_size=32&backend=${backend}`);
      await until(async () => (await num(page, "train-step")) >= 3, TIMEOUT, "3 steps", 250);
      assert.equal(await value(page, "backend"), path);
      assert.equal(await page.$('[data-testid="backend-notice"]'), null, "no notice and no figures");
      await pauseIfRunning(page);
      assert.deepEqual(consoleErrors, []);
    } finally {
      await b.close();
    }
  });
}

/** The saved record's `meta` (the page saves it on Pause), once it holds `minStep` steps. */
async function savedMeta(page, minStep) {
  let meta = null;
  await until(async () => {
    meta = await page.evaluate(() => new Promise((resolve) => {
      const open = indexedDB.open("unroll");
      open.onerror = () => resolve(null);
      open.onsuccess = () => {
        try {
          const get = open.result.transaction("saved").objectStore("saved").get("names-model");
          get.onsuccess = () => resolve(get.result ? JSON.parse(get.result.meta) : null);
          get.onerror = () => resolve(null);
        } catch {
          resolve(null);
        }
      };
    }));
    return meta && meta.step >= minStep;
  }, 60_000, `a saved record of ${minStep} steps`, 500);
  return meta;
}

/** Trains `backend` from seed 7 past 20 steps, pauses, and returns the saved record. */
async function lossesOn(backend) {
  const b = await app.launch({ webgpu: true });
  try {
    const { page, consoleErrors } = await open(b, `?v=1&lesson=names&cell=gru&hidden_size=32&batch_size=64&seed=7&backend=${backend}&autostart=1`);
    await until(async () => (await num(page, "train-step")) >= 22, TIMEOUT, "22 steps", 100);
    // The run may have ended its epochs between two looks (Pause is then disabled); its record
    // is saved either way.
    await pauseIfRunning(page);
    const meta = await savedMeta(page, 20);
    assert.deepEqual(consoleErrors, []);
    return meta;
  } finally {
    await b.close();
  }
}

test("WebGPU and the CPU give the same losses from the same seed, and the record keeps the path", { timeout: TIMEOUT }, async (t) => {
  const gpu = await lossesOn("gpu");
  const cpu = await lossesOn("cpu");
  assert.equal(gpu.backend, "webgpu");
  assert.equal(cpu.backend, "cpu");
  const at = (m, step) => m.step_loss.find((p) => p[0] === step)[1];
  const rel = (a, b) => Math.abs(a - b) / Math.abs(b);
  t.diagnostic(`step 1: WebGPU ${at(gpu, 1)}, CPU ${at(cpu, 1)} (relative ${rel(at(gpu, 1), at(cpu, 1)).toExponential(2)}); step 20: WebGPU ${at(gpu, 20)}, CPU ${at(cpu, 20)} (relative ${rel(at(gpu, 20), at(cpu, 20)).toExponential(2)})`);
  assert.ok(rel(at(gpu, 1), at(cpu, 1)) < 1e-4, "step 1 agrees to 1e-4");
  assert.ok(rel(at(gpu, 20), at(cpu, 20)) < 1e-3, "step 20 is close");
});
