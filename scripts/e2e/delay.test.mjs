// End-to-end test of the delay-copy page (`?v=1&lesson=delay`, issue 5 scope 5): builds the app
// with Trunk (release) unless UNROLL_E2E_SKIP_BUILD=1, serves dist/ and drives headless Chromium.
//
// - The presets set the delay (and the length only when too short) and keep the other
//   settings (hidden_size, seed); the delay-8 preset trains RNN and LSTM side by side and the loss
//   of both cells decreases (mean of the last 20 steps below step 1's loss by a margin, and
//   below chance ln V): read from `data-value`, never from text.
// - Parameter counts match PyTorch's formula computed here; the example strip has T positions
//   and a prediction row per cell.
// - Pause stops the step counters; Reset clears them.
// - An invalid delay (URL or form) shows the rule, a URL notice, and disables Start; fixing it
//   in the form enables Start again.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/delay.test.mjs`.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { buildDist, serveDist, launch, openPage, value, num, until, records } from "./lib.mjs";

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

/** nn.RNN/LSTM/GRU(V, H) + Linear(H, V) parameters, as PyTorch counts them (two biases). */
function params(gates, v, h) {
  return gates * h * (v + h + 2) + v * h + v;
}

test("the delay-8 preset trains RNN and LSTM and both losses decrease", { timeout: 300_000 }, async () => {
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

  const t0 = await page.evaluate(() => performance.now());
  await page.click('[data-testid="delay-start"]');
  assert.equal(await value(page, "delay-status"), "running");
  assert.ok(await page.isDisabled('[data-testid="cfg-delay"]'), "the form is locked while training");
  const STEPS = 120;
  await until(
    async () => (await num(page, "delay-step-rnn")) >= STEPS && (await num(page, "delay-step-lstm")) >= STEPS,
    240_000,
    `${STEPS} steps of each cell`,
    500,
  );
  const ln10 = Math.log(10);
  for (const cell of ["rnn", "lstm"]) {
    const first = await num(page, `delay-loss-first-${cell}`);
    const last = await num(page, `delay-loss-${cell}`);
    const acc = await num(page, `delay-acc-${cell}`);
    console.log(`${cell}: step ${await num(page, `delay-step-${cell}`)}, loss ${first.toFixed(3)} → ${last.toFixed(3)}, token accuracy ${acc.toFixed(3)}`);
    assert.ok(Math.abs(first - ln10) < 0.2, `${cell}: step 1 loss ${first} should be near ln 10`);
    assert.ok(last < first - 0.3, `${cell}: loss ${first} → ${last} did not decrease`);
    assert.ok(last < ln10 - 0.2, `${cell}: loss ${last} is not below chance`);
    assert.ok(acc > 0.15 && acc <= 1, `${cell}: accuracy ${acc}`);
  }
  assert.ok((await num(page, "chart-delay-acc")) >= 2 * STEPS, "the accuracy chart has both cells' points");
  assert.ok((await num(page, "chart-delay-loss")) >= 2 * STEPS, "the loss chart has both cells' points");
  for (const cell of ["rnn", "lstm"]) {
    const a = await num(page, `delay-example-pred-${cell}`);
    assert.ok(a >= 0 && a <= 1, `${cell}: example accuracy ${a}`);
  }
  // Responsiveness: the longest main-thread task since Start (reported, see the closing note).
  const rec = await records(page);
  const longest = rec.longtasks.filter((t) => t.start >= t0).reduce((m, t) => Math.max(m, t.duration), 0);
  console.log(`longest main-thread task while training: ${longest.toFixed(0)} ms`);

  // Pause: the counters stop; Resume: they move again.
  await page.click('[data-testid="delay-pause"]');
  assert.equal(await value(page, "delay-status"), "paused");
  await page.waitForTimeout(300);
  const paused = await num(page, "delay-step-rnn");
  await page.waitForTimeout(800);
  assert.equal(await num(page, "delay-step-rnn"), paused, "steps while paused");
  await page.click('[data-testid="delay-resume"]');
  await until(async () => (await num(page, "delay-step-rnn")) > paused, 30_000, "steps after resume");
  // Reset clears the run and unlocks the form.
  await page.click('[data-testid="delay-reset"]');
  assert.equal(await value(page, "delay-status"), "idle");
  assert.equal(await num(page, "delay-step-rnn"), 0);
  assert.ok(!(await page.isDisabled('[data-testid="cfg-delay"]')));
  assert.deepEqual(consoleErrors, []);
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
  assert.equal(await page.evaluate(() => location.search), "?v=1&lesson=delay&delay=12");
  await page.fill('[data-testid="cfg-length"]', "12");
  await page.dispatchEvent('[data-testid="cfg-length"]', "change");
  await page.waitForSelector('[data-testid="delay-invalid"]', { timeout: 5000 });
  assert.ok(await page.isDisabled('[data-testid="delay-start"]'));
  await page.close();
});

test("the lessons index links to the delay page", { timeout: 60_000 }, async () => {
  const { page } = await openPage(browser.context, server.url, "?v=1");
  await page.waitForSelector('[data-testid="nav-delay"]', { timeout: 60_000 });
  await page.click('[data-testid="nav-delay"]');
  await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
  assert.equal(await page.evaluate(() => location.search), "?v=1&lesson=delay");
  await page.close();
});
