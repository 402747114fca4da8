// End-to-end test: a Chinese page shows no English. With `lang=zh`, a URL notice with clamped
// ranges (the training page, and a lesson whose range is negative or set by another key), the
// error of a run whose loss became non-finite (`window.unrollDebug.diverge()`: the running
// session's learning rate becomes far too large) and the notice of a lost WebGPU device
// (`window.unrollDebug.loseDevice()`) contain no run of three or more ASCII letters outside an
// allowlist: the URL keys and values of docs/url.md, RNN/LSTM/GRU, WebGPU/GPU/CPU, NaN. The same
// texts in English are caught by the check (it can fail).
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/zh-text.test.mjs`
// (without UNROLL_E2E_SKIP_BUILD it builds dist/ first). Real data: www/data/names.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, buildDist, serveDist, launch, openPage, value, num, until } from "./lib.mjs";

const TIMEOUT = Number(process.env.UNROLL_E2E_TRAIN_TIMEOUT_MS || 600_000);

/**
 * Words a Chinese page may show in Latin letters: every URL key and choice value of
 * docs/url.md (the key column, the backticked defaults, and value columns that are a list of
 * lowercase words), the cells' and the platform's names, and NaN.
 */
function allowlist() {
  const words = new Set(["RNN", "LSTM", "GRU", "WebGPU", "GPU", "CPU", "NaN"]);
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
const ALLOWED = allowlist();

/** The words of `text` with a run of ≥ 3 ASCII letters that the allowlist does not hold. */
function english(text) {
  const words = text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  return words.filter((w) => /[A-Za-z]{3}/.test(w) && !ALLOWED.has(w));
}

let server;

before(async () => {
  buildDist();
  server = await serveDist();
});

after(async () => {
  await server?.close();
});

test("the allowlist holds the URL keys and values, and the check finds English", () => {
  for (const w of ["hidden_size", "max_norm", "forget_bias", "lstm", "padded", "delay", "length"]) assert.ok(ALLOWED.has(w), w);
  assert.deepEqual(english("hidden_size：“99999”超出范围 8–256，已改用 256"), []);
  assert.deepEqual(english("hidden_size: “99999” is outside 8–256; using 256"), ["outside", "using"]);
});

test("URL notices with clamped ranges are Chinese in lang=zh", { timeout: 180_000 }, async () => {
  const b = await launch({ webgpu: false });
  try {
    const pages = [
      // The training page: integer, float and negative ranges.
      ["?v=1&lesson=names&hidden_size=99999&lr=5&forget_bias=-9", ["8–256", "0.00001–1", "-5 至 5"]],
      // A lesson: a negative range, and `t` clamped to the number of inputs (a range another key sets).
      ["?v=1&lesson=unroll&w_hh=9&x=1,2&t=12", ["-3 至 3", "1–2"]],
    ];
    for (const [query, ranges] of pages) {
      const texts = {};
      for (const lang of ["zh", "en"]) {
        const { page, consoleErrors } = await openPage(b.context, server.url, `${query}&lang=${lang}`);
        await page.waitForSelector('[data-testid="url-notice"]', { timeout: 60_000 });
        texts[lang] = await page.textContent('[data-testid="url-notice"]');
        assert.deepEqual(consoleErrors, []);
        await page.close();
      }
      const zh = texts.zh;
      assert.deepEqual(english(zh), [], `${query}: ${zh}`);
      assert.match(zh, /超出范围/, zh);
      for (const r of ranges) assert.ok(zh.includes(r), `${query}: “${r}” in ${zh}`);
      assert.ok(english(texts.en).includes("outside"), texts.en);
    }
  } finally {
    await b.close();
  }
});

test("the error of a run whose loss became non-finite is Chinese in lang=zh", { timeout: TIMEOUT }, async () => {
  const b = await launch({ webgpu: false });
  try {
    // Enough epochs that the run is still going when the request lands, however slow the machine.
    const query = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=64&epochs=40&seed=3&backend=cpu&autostart=1&lang=zh";
    const { page, consoleErrors } = await openPage(b.context, server.url, query);
    await until(async () => (await num(page, "train-step")) >= 3, TIMEOUT, "3 steps", 100);
    assert.equal(await page.evaluate(() => window.unrollDebug.diverge()), true, "a running session took the request");
    await until(async () => {
      const status = await value(page, "train-status");
      assert.notEqual(status, "finished", "the run ended before the request reached it");
      return status === "error";
    }, TIMEOUT, "the error", 100);
    const text = await page.textContent('[data-testid="train-error"]');
    assert.deepEqual(english(text), [], text);
    // The failing step is the one after the last step reported.
    const bad = (await num(page, "train-step")) + 1;
    assert.ok(text.includes(`第 ${bad} 步`), `step ${bad} in ${text}`);
    assert.match(text, /损失/);
    assert.match(text, /max_norm/, "clipping was off, so it is suggested");
    // The same error in English (the page's language switch re-renders it).
    await page.click('[data-testid="lang-en"]');
    await until(async () => /loss became/.test(await page.textContent('[data-testid="train-error"]')), 5000, "the English error");
    const en = await page.textContent('[data-testid="train-error"]');
    assert.ok(en.includes(`step ${bad}`), en);
    assert.ok(english(en).length > 0, en);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("the device-loss notice is Chinese in lang=zh", { timeout: TIMEOUT }, async () => {
  const b = await launch({ webgpu: true });
  try {
    const query = "?v=1&lesson=names&cell=gru&hidden_size=16&batch_size=64&epochs=40&seed=5&backend=gpu&autostart=1&lang=zh";
    const { page, consoleErrors } = await openPage(b.context, server.url, query);
    await until(async () => (await value(page, "backend")) || (await value(page, "train-status")) === "error", 120_000, "the backend");
    assert.equal(await value(page, "backend"), "webgpu", `no WebGPU: ${await page.textContent("body")}`);
    await until(async () => (await num(page, "train-step")) >= 5, TIMEOUT, "5 steps on the GPU", 250);
    assert.equal(await page.evaluate(() => window.unrollDebug.loseDevice()), true);
    await page.waitForSelector('[data-testid="device-lost-notice"]', { timeout: 60_000 });
    await until(async () => (await value(page, "backend")) === "cpu", 30_000, "the CPU backend", 100);
    const text = await page.textContent('[data-testid="device-lost-notice"]');
    assert.deepEqual(english(text), [], text);
    assert.match(text, /GPU 设备/);
    // The GPU's own words stay available as the detail's tooltip.
    assert.ok((await page.getAttribute('[data-testid="device-lost-notice"] .keep-detail', "title")).length > 0);
    await page.click('[data-testid="lang-en"]');
    await until(async () => /was lost/.test(await page.textContent('[data-testid="device-lost-notice"]')), 5000, "the English notice");
    assert.ok(english(await page.textContent('[data-testid="device-lost-notice"]')).length > 0);
    await page.click('[data-testid="train-pause"]');
    assert.deepEqual(consoleErrors.filter((e) => !/device|lost|destroy/i.test(e)), []);
  } finally {
    await b.close();
  }
});
