// End-to-end test of the delay page's verdict and of a sweep across a reload: builds the app
// with Trunk (release) unless UNROLL_E2E_SKIP_BUILD=1, serves dist/ and drives headless Chromium.
//
// - A budget below recipe R's (`steps` < 3000) adds the caveat to the verdict, with the run's
//   steps; recipe R's steps would not (the native tests cover the sentences).
// - With forget_bias=0 and the LSTM at chance (a learning rate too small for anything to
//   learn, so the LSTM stays at chance for sure), the verdict points to the forget-bias note;
//   with forget_bias=1 it does not.
// - The sweep summary keeps the runs of both settings side by side, each row labelled by the
//   setting that differs (forget_bias=1 / forget_bias=0), the form's settings first.
// - A reload during a sweep offers Resume: the finished seed's runs are kept, Resume trains the
//   rest, and the sweep finishes with every run in the summary.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/delay-verdict.test.mjs`.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { buildDist, serveDist, launch, openPage, value, num, until } from "./lib.mjs";

let server;
let browser;

before(async () => {
  buildDist();
  server = await serveDist();
  browser = await launch({ webgpu: false });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

async function open(query) {
  const { page, consoleErrors } = await openPage(browser.context, server.url, query);
  await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
  return { page, consoleErrors };
}

async function summaryRows(page) {
  return page.$$eval('[data-testid="delay-summary-row"]', (els) =>
    els.map((e) => ({ delay: Number(e.dataset.delay), settings: e.dataset.settings, current: e.dataset.current === "true" })),
  );
}

async function summaryCells(page) {
  return page.$$eval('[data-testid="delay-summary-cell"]', (els) =>
    els.map((e) => ({ delay: Number(e.dataset.delay), cell: e.dataset.cell, settings: e.dataset.settings, current: e.dataset.current === "true", mean: Number(e.dataset.value) })),
  );
}

test("the verdict warns of a budget below recipe R, points to the forget-bias note, and keeps both settings side by side", { timeout: 600_000 }, async () => {
  const STEPS = 30;
  const base = `?v=1&lesson=delay&hidden_size=8&lr=0.00001&steps=${STEPS}&seeds=2`;
  for (const [bias, lang] of [[1, "en"], [0, "zh"]]) {
    const { page, consoleErrors } = await open(`${base}&forget_bias=${bias}&lang=${lang}`);
    await page.click('[data-testid="delay-start"]');
    await until(async () => (await value(page, "delay-status")) === "finished", 300_000, `forget_bias=${bias} sweep`, 500);
    assert.equal(await num(page, "delay-budget-warning"), STEPS, "the verdict names the budget");
    const warning = await page.textContent('[data-testid="delay-budget-warning"]');
    assert.ok(warning.includes(String(STEPS)) && warning.includes("3,000"), warning);
    if (lang === "zh") assert.match(warning, /配方 R/);
    else assert.match(warning, /may change with more training/);
    const lstm = await page.$$eval('[data-testid="delay-seed-acc-lstm"]', (els) => els.map((e) => Number(e.dataset.value)));
    assert.equal(lstm.length, 2);
    // lr 1e-5 for 30 steps: the LSTM stays at chance (0.10 ± 0.018).
    for (const a of lstm) assert.ok(Math.abs(a - 0.1) < 0.018, `LSTM at chance: ${a}`);
    const pointer = await page.$('[data-testid="delay-forget-pointer"]');
    if (bias === 0) {
      assert.ok(pointer, "forget_bias=0 with the LSTM at chance points to the note");
      assert.equal(await num(page, "delay-forget-pointer"), 0);
      const note = (await page.textContent('[data-testid="delay-forget-bias-note"] h2')).trim();
      assert.ok((await pointer.textContent()).includes(`“${note}”`), "the pointer names the note's heading");
    } else {
      assert.equal(pointer, null, "forget_bias=1: no pointer");
    }
    // The summary: the form's settings first; the other settings' row once they exist.
    const rows = (await summaryRows(page)).filter((r) => r.delay === 8);
    if (bias === 1) {
      assert.deepEqual(rows, [{ delay: 8, settings: "", current: true }]);
    } else {
      assert.deepEqual(rows, [
        { delay: 8, settings: "forget_bias=0", current: true },
        { delay: 8, settings: "forget_bias=1", current: false },
      ]);
      const labels = await page.$$eval('[data-testid="delay-summary-settings"]', (els) => els.map((e) => e.textContent.trim()));
      assert.ok(labels.some((l) => l.startsWith("forget_bias=0")) && labels.includes("forget_bias=1"), labels.join(" | "));
      const cells = (await summaryCells(page)).filter((c) => c.delay === 8);
      assert.deepEqual(cells.map((c) => `${c.settings}:${c.cell}`).sort(), ["forget_bias=0:lstm", "forget_bias=0:rnn", "forget_bias=1:lstm", "forget_bias=1:rnn"]);
      // Each row's mean is its own runs' (the LSTM's seeds of this sweep for forget_bias=0).
      const mine = cells.find((c) => c.current && c.cell === "lstm");
      assert.ok(Math.abs(mine.mean - (lstm[0] + lstm[1]) / 2) < 1e-9);
      const outcomes = await page.$$eval('[data-testid="delay-summary-outcome"][data-delay="8"]', (els) => els.map((e) => e.dataset.settings));
      assert.deepEqual(outcomes, ["forget_bias=0", "forget_bias=1"]);
    }
    assert.deepEqual(consoleErrors, []);
    await page.close();
  }
});

test("a reload during a sweep offers Resume, which trains the rest", { timeout: 600_000 }, async () => {
  const STEPS = 400;
  const query = `?v=1&lesson=delay&hidden_size=8&steps=${STEPS}&seeds=3&seed=11`;
  const { page, consoleErrors } = await open(query);
  await page.click('[data-testid="delay-start"]');
  // The first seed's two runs finish; the second seed is training.
  await until(async () => (await num(page, "delay-summary")) >= 2, 300_000, "the first seed", 100);
  await page.waitForTimeout(300); // the record's write
  const firstSeed = await page.$$eval('[data-testid="delay-seed-acc-rnn"]', (els, steps) =>
    els.filter((e) => e.dataset.seed === "11" && Number(e.dataset.step) === steps).map((e) => Number(e.dataset.value)), STEPS);
  assert.equal(firstSeed.length, 1);
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
  await page.waitForSelector('[data-testid="delay-resume-offer"]', { timeout: 20_000 });
  const kept = await num(page, "delay-resume-offer");
  assert.ok(kept >= 2 && kept < 6 && kept % 2 === 0, `runs kept: ${kept}`);
  assert.equal(await value(page, "delay-status"), "paused");
  assert.equal(await num(page, "delay-runs-done"), kept);
  assert.ok(!(await page.isDisabled('[data-testid="delay-resume"]')), "Resume is offered");
  // The kept seed is shown as it finished.
  const shown = await page.$$eval('[data-testid="delay-seed-acc-rnn"]', (els) =>
    els.filter((e) => e.dataset.seed === "11").map((e) => Number(e.dataset.value)));
  // The kept value went through the record store (its last digit may differ in print).
  assert.equal(shown.length, firstSeed.length);
  shown.forEach((v, i) => assert.ok(Math.abs(v - firstSeed[i]) < 1e-9, `kept ${v}, shown before ${firstSeed[i]}`));
  await page.click('[data-testid="delay-resume"]');
  assert.equal(await value(page, "delay-status"), "running");
  assert.equal(await page.$('[data-testid="delay-resume-offer"]'), null);
  await until(async () => (await value(page, "delay-status")) === "finished", 400_000, "the rest of the sweep", 500);
  assert.equal(await num(page, "delay-runs-done"), 6);
  assert.equal(await num(page, "delay-progress"), 1);
  for (const cell of ["rnn", "lstm"]) {
    const seeds = await page.$$eval(`[data-testid="delay-seed-acc-${cell}"]`, (els) => els.map((e) => [Number(e.dataset.seed), Number(e.dataset.step)]));
    assert.deepEqual(seeds.sort(), [[11, STEPS], [12, STEPS], [13, STEPS]], `${cell}: every seed finished`);
  }
  assert.equal(await num(page, "delay-summary"), 6, "the summary holds all six runs");
  assert.notEqual(await value(page, "delay-outcome"), "not-enough-runs");
  // A second reload: finished, nothing to resume.
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
  await until(async () => (await value(page, "delay-status")) === "finished", 20_000, "the kept runs");
  assert.equal(await page.$('[data-testid="delay-resume-offer"]'), null);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});
