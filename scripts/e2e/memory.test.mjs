// End-to-end test of the long-memory tasks on the lab page (`?v=1&lesson=delay&task=…`): builds
// the app with Trunk (release) unless UNROLL_E2E_SKIP_BUILD=1, serves dist/ and drives headless
// Chromium with small sizes (short T, few steps, hidden 8) given as URL keys.
//
// - Each task (adding, copy, order) states its baseline (`task-baseline`, the formula's value),
//   trains RNN, LSTM and GRU to the end, draws its held-out curves, fills its summary (one row
//   per run with a finite final loss and a verdict), and shows again after a reload without
//   console errors.
// - A reload during a run says so (`memory-interrupted`) and offers Start again.
// - The task switcher moves between delay-copy and the tasks; in lang=zh the page is in Chinese.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/memory.test.mjs`.

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
  await page.waitForSelector('[data-testid="memory-page"]', { timeout: 60_000 });
  return { page, consoleErrors };
}

const TASKS = [
  { task: "adding", query: "length=5&steps=20", baseline: 1 / 6, title: "Adding problem" },
  { task: "copy", query: "length=3&steps=20", baseline: Math.log(8), title: "Copy memory" },
  { task: "order", query: "length=62&steps=10", baseline: Math.log(4), title: "Temporal order" },
];

for (const t of TASKS) {
  test(`${t.task}: baseline, a run to the end, the summary, a reload`, { timeout: 240_000 }, async () => {
    const { page, consoleErrors } = await open(`?v=1&lesson=delay&task=${t.task}&hidden_size=8&${t.query}`);
    assert.equal(await value(page, "memory-page"), t.task);
    assert.equal(await page.isVisible('[data-testid="delay-page"]'), false);
    assert.match(await page.textContent("h1"), new RegExp(t.title));
    const baseline = await num(page, "task-baseline");
    assert.ok(Math.abs(baseline - t.baseline) < 1e-3, `baseline ${baseline} vs ${t.baseline}`);
    for (const cell of ["rnn", "lstm", "gru"]) assert.ok((await num(page, `memory-params-${cell}`)) > 0, cell);
    await page.click('[data-testid="memory-start"]');
    await until(async () => (await value(page, "memory-status")) === "finished", 180_000, `${t.task} finished`);
    assert.equal(await num(page, "memory-progress"), 1);
    assert.ok((await num(page, "chart-memory-loss")) > 0, "chart points");
    assert.equal(await num(page, "memory-summary"), 3);
    const rows = await page.$$eval('[data-testid="memory-summary-row"]', (rs) =>
      rs.map((r) => ({ cell: r.dataset.cell, loss: Number(r.dataset.value), done: r.dataset.done, text: r.textContent })),
    );
    assert.deepEqual(rows.map((r) => r.cell), ["rnn", "lstm", "gru"]);
    for (const r of rows) {
      assert.ok(Number.isFinite(r.loss) && r.loss > 0, `${r.cell} loss ${r.loss}`);
      assert.equal(r.done, "true");
      assert.match(r.text, /solved after|not solved within the budget/);
    }
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector('[data-testid="memory-page"]', { timeout: 60_000 });
    assert.equal(await value(page, "memory-status"), "idle");
    assert.equal(await page.isVisible('[data-testid="memory-interrupted"]'), false);
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });
}

test("a reload during a run says it stopped the run; Start trains again", { timeout: 240_000 }, async () => {
  const { page, consoleErrors } = await open("?v=1&lesson=delay&task=order&hidden_size=8&length=62&steps=2000");
  await page.click('[data-testid="memory-start"]');
  await until(async () => (await num(page, "memory-progress")) > 0, 60_000, "progress");
  await until(async () => (await num(page, "memory-time-left")) > 0, 30_000, "time left");
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector('[data-testid="memory-interrupted"]', { timeout: 60_000 });
  assert.equal(await value(page, "memory-status"), "idle");
  assert.equal(await page.isEnabled('[data-testid="memory-start"]'), true);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

test("the switcher moves between delay-copy and the tasks; lang=zh", { timeout: 120_000 }, async () => {
  const { page, consoleErrors } = await open("?v=1&lesson=delay&task=copy&length=3&lang=zh");
  assert.match(await page.textContent("h1"), /复制记忆/);
  assert.match(await page.textContent('[data-testid="task-baseline"]'), /ln 8 ≈ 2\.079/);
  assert.match(await page.textContent('[data-testid="memory-criterion"]'), /0\.208/);
  await page.click('[data-testid="task-switch-delay"]');
  await page.waitForSelector('[data-testid="delay-page"]', { state: "visible" });
  await until(async () => !(await page.evaluate(() => location.search)).includes("task="), 5000, "task key gone");
  assert.equal(await page.$('[data-testid="memory-page"]'), null);
  await page.click('[data-testid="task-switch-adding"]');
  await page.waitForSelector('[data-testid="memory-page"]');
  assert.match(await page.evaluate(() => location.search), /task=adding/);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});
