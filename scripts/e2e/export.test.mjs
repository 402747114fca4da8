// End-to-end checks of the names page's CSV downloads (`data-testid="export-csv"`) in headless
// Chromium: after one short epoch, the loss curve (one row per step taken), the validation curve
// (one row per epoch) and the confusion matrix (one row per language, each row's counts summing
// to that language's validation names) download with a header row and the right row count.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/export.test.mjs` (UNROLL_E2E_SKIP_BUILD=1
// reuses dist/).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { buildDist, serveDist, launch, openPage, num, value, until } from "./lib.mjs";

const TINY = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=256&epochs=1&seed=3&backend=cpu";

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

/** Clicks the CSV button for `file` and returns the downloaded text and its name. */
async function download(page, file) {
  const button = page.locator(`[data-testid="export-csv"][data-file="${file}"]`);
  const [dl] = await Promise.all([page.waitForEvent("download"), button.click()]);
  const path = await dl.path();
  return { name: dl.suggestedFilename(), text: readFileSync(path, "utf8"), rows: Number(await button.getAttribute("data-rows")) };
}

const lines = (text) => text.split("\n").filter((l) => l !== "");

test("names page: the curves and the confusion matrix download as CSV", async () => {
  const { page, consoleErrors } = await openPage(browser.context, server.url, TINY);
  try {
    await until(async () => (await num(page, "data-classes")) > 0, 120_000, "the data set");
    const classes = await num(page, "data-classes");
    // Nothing to export before a run.
    assert.ok(await page.isDisabled('[data-testid="export-csv"][data-file="unroll-names-loss.csv"]'));
    await page.click('[data-testid="train-start"]');
    await until(async () => (await value(page, "train-status")) === "finished", 600_000, "one epoch", 500);
    const steps = await num(page, "train-step");
    assert.ok(steps > 0);

    const loss = await download(page, "unroll-names-loss.csv");
    assert.equal(loss.name, "unroll-names-loss.csv");
    const lossLines = lines(loss.text);
    assert.equal(lossLines[0], "step,loss,mean_loss_20");
    assert.equal(lossLines.length - 1, steps);
    assert.equal(loss.rows, steps);
    const [first, last] = [lossLines[1].split(","), lossLines.at(-1).split(",")];
    assert.equal(first[0], "1");
    assert.equal(Number(last[0]), steps);
    // A chance-level start: ln(classes) nats, within a wide margin.
    assert.ok(Math.abs(Number(first[1]) - Math.log(classes)) < 0.5, `first loss ${first[1]}`);

    const val = await download(page, "unroll-names-val.csv");
    const valLines = lines(val.text);
    assert.equal(valLines[0], "epoch,train_loss,val_loss,val_acc");
    assert.equal(valLines.length, 2);
    const acc = Number(valLines[1].split(",")[3]);
    const shown = await num(page, "metrics-val-acc");
    assert.ok(Math.abs(acc - shown) < 1e-3, `val_acc ${acc} vs the page's ${shown}`);

    const confusion = await download(page, "unroll-names-confusion-e1.csv");
    const rows = lines(confusion.text).map((l) => l.split(","));
    assert.equal(rows[0][0], "true \\ predicted");
    assert.equal(rows[0].length, classes + 1);
    assert.equal(rows.length, classes + 1);
    // Each row's counts are that language's validation names; the total is the matrix's.
    const total = rows.slice(1).reduce((s, r) => s + r.slice(1).reduce((a, n) => a + Number(n), 0), 0);
    assert.equal(total, Number(await page.getAttribute('[data-testid="confusion"]', "data-total")));
    const perClass = await page.$$eval('[data-testid="per-class-acc"]', (trs) =>
      trs.map((tr) => [tr.getAttribute("data-label"), Number(tr.querySelector('[data-testid="class-val"]').getAttribute("data-value"))]),
    );
    for (const [label, count] of perClass) {
      const row = rows.find((r) => r[0] === label);
      assert.ok(row, `row of ${label}`);
      assert.equal(row.slice(1).reduce((a, n) => a + Number(n), 0), count, label);
    }
    assert.deepEqual(consoleErrors, []);
  } finally {
    await page.close();
  }
});
