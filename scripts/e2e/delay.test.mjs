// End-to-end test of the delay-copy page (`?v=1&lesson=delay`): builds the app
// with Trunk (release) unless UNROLL_E2E_SKIP_BUILD=1, serves dist/ and drives headless Chromium.
//
// - The presets set the delay (and the length only when too short) and keep the other
//   settings (hidden_size, seed). Parameter counts match PyTorch's formula computed here.
// - Small runs (hidden 16, 100 steps, 3 seeds): every cell has three held-out curves whose
//   final accuracies differ; the cell's figure is their mean; the sweep summary gets the
//   delay's row (3 seeds per cell, the same means), keeps it across a reload and while another
//   delay runs, and adds that delay's row when it finishes. Values come from `data-value`.
// - Pause stops the step counters and Resume moves them; an estimate of the time left shows;
//   Reset clears the run.
// - `delay-forget-bias-lstm` moves by exactly `forget_bias`; the control is off without LSTM.
// - The URL restores every key into its form control; a control writes its key back.
// - At 375 px the example strip wraps: no sideways scrolling, every position on screen.
// - An invalid delay (URL or form) shows the rule, a URL notice, and disables Start; fixing it
//   in the form enables Start again.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/delay.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { value, num, until, settled, records } from "./lib.mjs";

// The delay-copy task needs no names data; one browser for the file.
const app = e2e();

async function open(query) {
  const { page, errors: consoleErrors } = await app.open(query, { wait: "delay-page" });
  return { page, consoleErrors };
}

/** nn.RNN/LSTM/GRU(V, H) + Linear(H, V) parameters, as PyTorch counts them (two biases). */
function params(gates, v, h) {
  return gates * h * (v + h + 2) + v * h + v;
}

test("the presets set the delay and keep the other settings; parameter counts", { timeout: 300_000 }, async () => {
  const { page, consoleErrors } = await open("?v=1&lesson=delay&delay=64");
  assert.equal(await num(page, "cfg-delay").catch(() => NaN), NaN); // inputs carry no data-value
  assert.equal(await page.inputValue('[data-testid="cfg-delay"]'), "64");
  // The preset button sets the configuration and the URL (canonical: delay 8 is the default).
  await page.click('[data-testid="delay-preset-8"]');
  await until(async () => (await page.evaluate(() => location.search)) === "?v=1&lesson=delay", 5000, "URL of the delay-8 preset");
  assert.equal(await page.inputValue('[data-testid="cfg-delay"]'), "8");
  await page.click('[data-testid="delay-preset-64"]');
  await until(async () => (await page.evaluate(() => location.search)) === "?v=1&lesson=delay&delay=64", 5000, "URL of the delay-64 preset");
  await page.click('[data-testid="delay-preset-8"]');

  // A preset sets the delay and keeps the user's other settings; a length too short for the
  // delay becomes the default (96).
  {
    const { page: p2 } = await open("?v=1&lesson=delay&hidden_size=32&length=40&seed=5");
    await p2.click('[data-testid="delay-preset-64"]');
    await until(
      async () => (await p2.evaluate(() => location.search)) === "?v=1&lesson=delay&delay=64&hidden_size=32&seed=5",
      5000,
      "URL of the delay-64 preset over hidden_size=32, seed=5",
    );
    assert.equal(await p2.inputValue('[data-testid="cfg-hidden_size"]'), "32");
    assert.equal(await p2.inputValue('[data-testid="cfg-length"]'), "96");
    assert.equal(await p2.getAttribute('[data-testid="delay-preset-64"]', "aria-pressed"), "true");
    await p2.click('[data-testid="delay-preset-8"]');
    await until(
      async () => (await p2.evaluate(() => location.search)) === "?v=1&lesson=delay&hidden_size=32&seed=5",
      5000,
      "URL of the delay-8 preset over hidden_size=32, seed=5",
    );
    assert.match(await p2.getAttribute('[data-testid="delay-preset-8"]', "title"), /delay = 8/);
    await p2.close();
  }

  // Parameter counts next to the curves, before any training.
  assert.equal(await num(page, "delay-params-rnn"), params(1, 10, 128));
  assert.equal(await num(page, "delay-params-lstm"), params(4, 10, 128));
  assert.equal(await value(page, "delay-params-gru"), null);
  assert.equal(await num(page, "delay-example"), 96);
  assert.equal(await value(page, "delay-status"), "idle");
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

/** `data-value` and `data-seed`/`data-step` of a cell's per-seed held-out figures. */
async function seedFigures(page, cell) {
  return page.$$eval(`[data-testid="delay-seed-acc-${cell}"]`, (els) =>
    els.map((e) => ({ seed: Number(e.dataset.seed), step: Number(e.dataset.step), acc: Number(e.dataset.value) })),
  );
}

/** The sweep summary's cells of the form's settings: delay, cell, seeds and mean accuracy. */
async function summaryCells(page) {
  return page.$$eval('[data-testid="delay-summary-cell"][data-current="true"]', (els) =>
    els.map((e) => ({ delay: Number(e.dataset.delay), cell: e.dataset.cell, seeds: Number(e.dataset.seeds), mean: Number(e.dataset.value) })),
  );
}

test("3 seeds per cell give held-out curves with their spread; the sweep summary fills in and survives a reload", { timeout: 600_000 }, async () => {
  const STEPS = 100;
  const query = `?v=1&lesson=delay&hidden_size=16&steps=${STEPS}`;
  const { page, consoleErrors } = await open(query);
  assert.equal(await page.inputValue('[data-testid="cfg-seeds"]'), "3");
  const t0 = await page.evaluate(() => performance.now());
  await page.click('[data-testid="delay-start"]');
  assert.equal(await value(page, "delay-status"), "running");
  assert.ok(await page.isDisabled('[data-testid="cfg-delay"]'), "the form is locked while training");
  await until(async () => (await value(page, "delay-status")) === "finished", 400_000, "the six runs to finish", 500);
  const rec = await records(page);
  const longest = rec.longtasks.filter((t) => t.start >= t0).reduce((m, t) => Math.max(m, t.duration), 0);
  console.log(`longest main-thread task while training: ${longest.toFixed(0)} ms; ${await num(page, "delay-elapsed")} s of training`);
  assert.equal(await num(page, "delay-progress"), 1);
  assert.equal(await num(page, "delay-runs-done"), 6);
  assert.equal(await num(page, "delay-budget"), STEPS);
  // Evaluations at step 0, every STEPS/10 steps and at the end, for 2 cells × 3 seeds.
  assert.equal(await num(page, "chart-delay-acc"), 6 * 11, "held-out accuracy points");
  assert.equal(await num(page, "chart-delay-loss"), 6 * 11, "held-out loss points");
  const ln10 = Math.log(10);
  const finals = {};
  for (const cell of ["rnn", "lstm"]) {
    assert.equal(await num(page, `delay-seeds-${cell}`), 3, `${cell}: seeds with a held-out curve`);
    const figs = await seedFigures(page, cell);
    assert.deepEqual(figs.map((f) => f.seed).sort(), [0, 1, 2], `${cell}: seeds`);
    for (const f of figs) {
      assert.equal(f.step, STEPS, `${cell} seed ${f.seed}: last evaluation at the budget`);
      assert.ok(f.acc >= 0 && f.acc <= 1, `${cell} seed ${f.seed}: accuracy ${f.acc}`);
    }
    const accs = figs.map((f) => f.acc);
    const spread = Math.max(...accs) - Math.min(...accs);
    console.log(`${cell}: held-out accuracy per seed ${accs.map((a) => a.toFixed(3)).join(", ")} (spread ${spread.toFixed(4)})`);
    assert.ok(spread > 0, `${cell}: the seeds differ`);
    const mean = accs.reduce((a, b) => a + b, 0) / accs.length;
    assert.ok(Math.abs((await num(page, `delay-heldout-acc-${cell}`)) - mean) < 1e-9, `${cell}: mean of the seeds`);
    finals[cell] = mean;
    const first = await num(page, `delay-loss-first-${cell}`);
    assert.ok(Math.abs(first - ln10) < 0.2, `${cell}: step 1 loss ${first} should be near ln 10`);
  }
  // The outcome is judged on the finished runs.
  assert.notEqual(await value(page, "delay-outcome"), "not-enough-runs");
  // The summary has the delay-8 row: 3 seeds per cell, the mean of the final accuracies.
  assert.equal(await num(page, "delay-summary"), 6);
  let cells = await summaryCells(page);
  for (const cell of ["rnn", "lstm"]) {
    const c = cells.find((x) => x.delay === 8 && x.cell === cell);
    assert.ok(c, `summary cell ${cell} at delay 8`);
    assert.equal(c.seeds, 3);
    assert.ok(Math.abs(c.mean - finals[cell]) < 1e-9, `${cell}: summary mean ${c.mean} vs ${finals[cell]}`);
  }
  assert.ok(await value(page, "delay-summary-outcome"), "the row's outcome");

  // A reload keeps the summary and the finished runs of these settings.
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
  await until(async () => (await num(page, "delay-summary")) === 6, 10_000, "the kept summary after a reload");
  cells = await summaryCells(page);
  assert.ok(Math.abs(cells.find((x) => x.delay === 8 && x.cell === "lstm").mean - finals.lstm) < 1e-9);
  await until(async () => (await value(page, "delay-status")) === "finished", 10_000, "the kept runs after a reload");
  assert.equal(await num(page, "delay-seeds-lstm"), 3);
  assert.ok(Math.abs((await num(page, "delay-heldout-acc-rnn")) - finals.rnn) < 1e-9);

  // Another delay: the delay-8 row stays while it runs, the delay-16 row appears when done.
  await page.click('[data-testid="delay-preset-16"]');
  await page.click('[data-testid="delay-start"]');
  cells = await summaryCells(page);
  assert.ok(cells.some((x) => x.delay === 8 && x.cell === "rnn"), "the delay-8 row while delay 16 runs");
  await until(async () => (await value(page, "delay-status")) === "finished", 400_000, "the delay-16 runs to finish", 500);
  assert.equal(await num(page, "delay-summary"), 12);
  cells = await summaryCells(page);
  assert.deepEqual([...new Set(cells.map((x) => x.delay))].sort((a, b) => a - b), [8, 16]);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

test("pause stops the step counters, resume moves them, reset clears them", { timeout: 300_000 }, async () => {
  const { page, consoleErrors } = await open("?v=1&lesson=delay&hidden_size=16&steps=5000&seeds=1");
  await page.click('[data-testid="delay-start"]');
  await until(async () => (await num(page, "delay-step-rnn")) >= 20, 120_000, "20 steps");
  await until(async () => (await num(page, "delay-time-left")) > 0, 30_000, "an estimate of the time left");
  await page.click('[data-testid="delay-pause"]');
  assert.equal(await value(page, "delay-status"), "paused");
  const paused = await settled(page, "delay-step-rnn"); // steps finished before the pause still arrive
  await page.waitForTimeout(800);
  assert.equal(await num(page, "delay-step-rnn"), paused, "steps while paused");
  await page.click('[data-testid="delay-resume"]');
  await until(async () => (await num(page, "delay-step-rnn")) > paused, 30_000, "steps after resume");
  await page.click('[data-testid="delay-reset"]');
  assert.equal(await value(page, "delay-status"), "idle");
  assert.equal(await num(page, "delay-step-rnn"), 0);
  assert.ok(!(await page.isDisabled('[data-testid="cfg-delay"]')));
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

test("the LSTM's initial forget block follows forget_bias; the control is off without an LSTM", { timeout: 120_000 }, async () => {
  const mean = async (q) => {
    const { page } = await open(`?v=1&lesson=delay&hidden_size=32${q}`);
    await page.waitForSelector('[data-testid="delay-forget-bias-lstm"]', { timeout: 10_000 });
    const v = await num(page, "delay-forget-bias-lstm");
    await page.close();
    return v;
  };
  const b0 = await mean("&forget_bias=0");
  const b1 = await mean("&forget_bias=1");
  console.log(`mean initial forget block: ${b0} (forget_bias 0), ${b1} (forget_bias 1)`);
  assert.ok(Math.abs(b1 - b0 - 1) < 1e-6, `forget_bias 1 adds 1 to the block: ${b0} → ${b1}`);
  assert.ok(Math.abs(b0) < 1 / Math.sqrt(32), `PyTorch's init stays within ±1/√H: ${b0}`);
  const { page } = await open("?v=1&lesson=delay&cell=rnn");
  assert.ok(await page.isDisabled('[data-testid="cfg-forget_bias"]'), "forget_bias is off for the RNN alone");
  assert.equal(await value(page, "delay-forget-bias-lstm"), null);
  await page.selectOption('[data-testid="cfg-cell"]', "both");
  await page.waitForSelector('[data-testid="delay-forget-bias-lstm"]', { timeout: 5000 });
  assert.ok(!(await page.isDisabled('[data-testid="cfg-forget_bias"]')));
  await page.close();
});

test("the URL restores the page state and every key has a form control", { timeout: 120_000 }, async () => {
  const query =
    "?v=1&lesson=delay&cell=all&delay=32&length=80&vocab=12&hidden_size=64&lr=0.001&batch_size=16&max_norm=0.5&forget_bias=0.5&steps=500&seed=7&seeds=2";
  const { page, consoleErrors } = await open(query);
  assert.equal(await page.evaluate(() => location.search), query);
  const expect = { delay: "32", length: "80", vocab: "12", hidden_size: "64", lr: "0.001", batch_size: "16", max_norm: "0.5", forget_bias: "0.5", steps: "500", seed: "7", seeds: "2" };
  for (const [key, v] of Object.entries(expect)) {
    assert.equal(await page.inputValue(`[data-testid="cfg-${key}"]`), v, key);
  }
  assert.equal(await page.inputValue('[data-testid="cfg-cell"]'), "all");
  assert.equal(await num(page, "delay-budget"), 500);
  assert.equal(await num(page, "delay-params-gru"), params(3, 12, 64));
  // A control writes its key back to the URL.
  await page.fill('[data-testid="cfg-steps"]', "700");
  await page.dispatchEvent('[data-testid="cfg-steps"]', "change");
  await until(async () => (await page.evaluate(() => location.search)).includes("steps=700"), 5000, "steps=700 in the URL");
  await page.fill('[data-testid="cfg-forget_bias"]', "0");
  await page.dispatchEvent('[data-testid="cfg-forget_bias"]', "change");
  await until(async () => (await page.evaluate(() => location.search)).includes("forget_bias=0&"), 5000, "forget_bias=0 in the URL");
  // Delay 64: the capacity figures come from the page state.
  const { page: p64 } = await open("?v=1&lesson=delay&delay=64");
  assert.ok(Math.abs((await num(p64, "delay-capacity")) - 64 * Math.log2(10)) < 1e-9);
  await p64.close();
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

test("at 375 px the example strip wraps to the width", { timeout: 60_000 }, async () => {
  const { page } = await open("?v=1&lesson=delay");
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  const m = await page.$eval('[data-testid="delay-strip"]', (el) => {
    const cols = [...el.querySelectorAll(".dl-col[data-t]")];
    const rights = cols.map((c) => c.getBoundingClientRect().right);
    return { scroll: el.scrollWidth, client: el.clientWidth, right: Math.max(...rights), cols: cols.length };
  });
  console.log("strip at 375 px:", m);
  assert.equal(m.cols, 96);
  assert.ok(m.scroll <= m.client + 1, `the strip does not scroll sideways (${m.scroll} > ${m.client})`);
  assert.ok(m.right <= 375, `every position is on screen (right edge ${m.right})`);
  await page.close();
});

test("an invalid delay shows the rule and a URL notice, and Start stays disabled", { timeout: 120_000 }, async () => {
  for (const [query, delay] of [
    ["?v=1&lesson=delay&delay=100", 100],
    ["?v=1&lesson=delay&delay=0&lang=zh", 0],
    ["?v=1&lesson=delay&delay=64&length=64", 64],
  ]) {
    const { page, consoleErrors } = await open(query);
    await page.waitForSelector('[data-testid="delay-invalid"]', { timeout: 10_000 });
    assert.equal(await num(page, "delay-invalid"), delay, query);
    const notice = await page.textContent('[data-testid="url-notice"]');
    assert.match(notice, /delay/, query);
    assert.ok(await page.isDisabled('[data-testid="delay-start"]'), `${query}: Start must be disabled`);
    const text = await page.textContent('[data-testid="delay-invalid"]');
    if (query.includes("lang=zh")) assert.match(text, /延迟/);
    else assert.match(text, /delay/i);
    // The URL keeps the values asked for.
    assert.match(await page.evaluate(() => location.search), new RegExp(`delay=${delay}`));
    assert.deepEqual(consoleErrors, [], query);
    await page.close();
  }
  // Fixing the delay in the form enables Start; breaking it again disables it.
  const { page } = await open("?v=1&lesson=delay&delay=100");
  await page.fill('[data-testid="cfg-delay"]', "12");
  await page.press('[data-testid="cfg-delay"]', "Enter");
  await page.dispatchEvent('[data-testid="cfg-delay"]', "change");
  await until(async () => (await value(page, "delay-invalid")) === null, 5000, "the rule to disappear");
  assert.ok(!(await page.isDisabled('[data-testid="delay-start"]')));
  await until(async () => (await page.evaluate(() => location.search)) === "?v=1&lesson=delay&delay=12", 3000, "the URL with delay=12");
  await page.fill('[data-testid="cfg-length"]', "12");
  await page.dispatchEvent('[data-testid="cfg-length"]', "change");
  await page.waitForSelector('[data-testid="delay-invalid"]', { timeout: 5000 });
  assert.ok(await page.isDisabled('[data-testid="delay-start"]'));
  await page.close();
});

test("the lessons index links to the delay page", { timeout: 60_000 }, async () => {
  const { page } = await app.open("?v=1");
  await page.waitForSelector('[data-testid="nav-delay"]', { timeout: 60_000 });
  await page.click('[data-testid="nav-delay"]');
  await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
  assert.equal(await page.evaluate(() => location.search), "?v=1&lesson=delay");
  await page.close();
});
