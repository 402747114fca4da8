// End-to-end test of "Train on from these weights": a model trained on the page and downloaded
// as .safetensors is loaded in a fresh profile and trained further; the new run starts at the
// loaded model's loss (not at chance, ln 18) and ends at least as well. The button says why it is
// unavailable when the form no longer matches the weights.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/train-on.test.mjs`

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildDist, serveDist, launch, openPage, value, num, until } from "./lib.mjs";

const TIMEOUT = Number(process.env.UNROLL_E2E_TRAIN_TIMEOUT_MS || 600_000);
// CPU, a small GRU, one epoch of 254 steps at a rate that learns within it.
const PAGE = "?v=1&lesson=names&cell=gru&hidden_size=32&lr=0.005&epochs=1&seed=3&backend=cpu";
const CHANCE = Math.log(18);

let server;
let tmp;

before(async () => {
  buildDist();
  server = await serveDist();
  tmp = mkdtempSync(join(tmpdir(), "unroll-train-on-"));
});

after(async () => {
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function dataReady(page) {
  await until(async () => (await num(page, "data-classes")) > 0, 120_000, "the data set");
}

async function finished(page) {
  await until(
    async () => {
      const s = await value(page, "train-status");
      if (s === "error") throw new Error(await page.textContent('[data-testid="train-error"]'));
      return s === "finished";
    },
    TIMEOUT,
    "the run to finish",
  );
}

async function setField(page, key, v) {
  await page.fill(`[data-testid="cfg-${key}"]`, v);
  await page.dispatchEvent(`[data-testid="cfg-${key}"]`, "change");
}

test("a downloaded model trains on in a fresh profile from its own level", { timeout: 2 * TIMEOUT }, async () => {
  let file;
  let trainedLoss;
  let trainedAcc;
  const b1 = await launch({});
  try {
    const { page, consoleErrors } = await openPage(b1.context, server.url, PAGE);
    await dataReady(page);
    assert.equal(await page.$('[data-testid="train-on"]'), null, "no weights yet: no Train on");
    await until(async () => !(await page.isDisabled('[data-testid="train-start"]')), 60_000, "Start");
    await page.click('[data-testid="train-start"]');
    await finished(page);
    trainedLoss = await num(page, "train-loss");
    trainedAcc = await num(page, "val-acc");
    assert.ok(trainedLoss < CHANCE - 0.5, `one epoch learns: ${trainedLoss} vs chance ${CHANCE}`);
    assert.equal(await page.getAttribute('[data-testid="train-on"]', "data-state"), "ready", "a finished run can train on");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="weights-download"]')]);
    file = join(tmp, download.suggestedFilename());
    await download.saveAs(file);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b1.close();
  }

  const b2 = await launch({});
  try {
    const { page, consoleErrors } = await openPage(b2.context, server.url, PAGE);
    await dataReady(page);
    await page.setInputFiles('[data-testid="weights-upload"]', file);
    await until(async () => (await value(page, "weights-message")) !== null, 30_000, "the weights message");
    assert.equal(await value(page, "weights-message"), "ok", await page.textContent('[data-testid="weights-message"]'));
    const on = '[data-testid="train-on"]';
    assert.equal(await page.getAttribute(on, "data-state"), "ready");

    // The form no longer matches the weights: unavailable, and the page says why.
    await setField(page, "hidden_size", "16");
    await until(async () => (await page.getAttribute(on, "data-state")) === "mismatch", 5_000, "mismatch");
    assert.ok(await page.isDisabled(on));
    assert.match(await page.textContent('[data-testid="train-on-help"]'), /no longer matches these weights/);
    await setField(page, "hidden_size", "32");
    await until(async () => (await page.getAttribute(on, "data-state")) === "ready", 5_000, "ready again");
    assert.match(await page.textContent('[data-testid="train-on-help"]'), /Adam starts again from zero moments/);

    // Train on: step 1's loss (from the loss curve's CSV, one row per step) is the loaded
    // model's, far below chance, where a run from scratch starts at about ln 18.
    await page.click(on);
    await finished(page);
    const csv = page.locator('[data-testid="export-csv"][data-file="unroll-names-loss.csv"]');
    const [dl] = await Promise.all([page.waitForEvent("download"), csv.click()]);
    const rows = readFileSync(await dl.path(), "utf8").split("\n").filter((l) => l !== "");
    assert.equal(rows[0], "step,loss,mean_loss_20");
    const [step, first] = rows[1].split(",").map(Number);
    assert.equal(step, 1);
    assert.ok(first < CHANCE - 0.5, `step 1 starts from the loaded model: ${first} vs chance ${CHANCE}`);
    assert.ok(Math.abs(first - trainedLoss) < 0.4, `near the loaded model's loss: ${first} vs ${trainedLoss}`);
    const acc = await num(page, "val-acc");
    assert.ok(acc >= trainedAcc - 0.02, `a second epoch keeps its accuracy or better: ${acc} vs ${trainedAcc}`);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b2.close();
  }
});
