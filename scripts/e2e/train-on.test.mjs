// End-to-end test of "Train on from these weights": a model trained on the page and downloaded
// as .safetensors is loaded in a fresh profile and trained further; the new run starts at the
// loaded model's loss (not at chance, ln 18) and ends at least as well. The button says why it is
// unavailable when the form no longer matches the weights.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/train-on.test.mjs`

import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { e2e } from "./fixture.mjs";

const TIMEOUT = Number(process.env.UNROLL_E2E_TRAIN_TIMEOUT_MS || 600_000);
// Learning (one epoch leaves chance; the loaded model's loss carries over): the real data. CPU,
// a small GRU, one epoch of 254 steps at a rate that learns within it.
const app = e2e({ data: "real" });
const PAGE = "?v=1&lesson=names&cell=gru&hidden_size=32&lr=0.005&epochs=1&seed=3&backend=cpu";
const CHANCE = Math.log(18);

test("a downloaded model trains on in a fresh profile from its own level", { timeout: 2 * TIMEOUT }, async () => {
  let file;
  let trainedLoss;
  let trainedAcc;
  const first = await app.names(PAGE, { fresh: true });
  try {
    const { page, errors: consoleErrors } = first;
    await first.dataReady();
    assert.equal(await page.$('[data-testid="train-on"]'), null, "no weights yet: no Train on");
    await first.trainToEnd(TIMEOUT);
    trainedLoss = await first.num("train-loss");
    trainedAcc = await first.num("val-acc");
    assert.ok(trainedLoss < CHANCE - 0.5, `one epoch learns: ${trainedLoss} vs chance ${CHANCE}`);
    assert.equal(await page.getAttribute('[data-testid="train-on"]', "data-state"), "ready", "a finished run can train on");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="weights-download"]')]);
    file = join(app.tmp("unroll-train-on-"), download.suggestedFilename());
    await download.saveAs(file);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await first.close();
  }

  const second = await app.names(PAGE, { fresh: true });
  try {
    const { page, errors: consoleErrors } = second;
    await second.dataReady();
    await page.setInputFiles('[data-testid="weights-upload"]', file);
    await second.until(async () => (await second.value("weights-message")) !== null, 30_000, "the weights message");
    assert.equal(await second.value("weights-message"), "ok", await page.textContent('[data-testid="weights-message"]'));
    const on = '[data-testid="train-on"]';
    assert.equal(await page.getAttribute(on, "data-state"), "ready");

    // The form no longer matches the weights: unavailable, and the page says why.
    await second.setField("hidden_size", "16");
    await second.until(async () => (await page.getAttribute(on, "data-state")) === "mismatch", 5_000, "mismatch");
    assert.ok(await page.isDisabled(on));
    assert.match(await page.textContent('[data-testid="train-on-help"]'), /no longer matches these weights/);
    await second.setField("hidden_size", "32");
    await second.until(async () => (await page.getAttribute(on, "data-state")) === "ready", 5_000, "ready again");
    assert.match(await page.textContent('[data-testid="train-on-help"]'), /Adam starts again from zero moments/);

    // Train on: step 1's loss (from the loss curve's CSV, one row per step) is the loaded
    // model's, far below chance, where a run from scratch starts at about ln 18.
    await page.click(on);
    await second.finished(TIMEOUT);
    // The file's name carries the configuration (cell, hidden size).
    const { lines: rows } = await second.csv("unroll-names-loss-gru-h32.csv");
    assert.equal(rows[0], "step,loss,mean_loss_20");
    const [step, first] = rows[1].split(",").map(Number);
    assert.equal(step, 1);
    assert.ok(first < CHANCE - 0.5, `step 1 starts from the loaded model: ${first} vs chance ${CHANCE}`);
    assert.ok(Math.abs(first - trainedLoss) < 0.4, `near the loaded model's loss: ${first} vs ${trainedLoss}`);
    const acc = await second.num("val-acc");
    assert.ok(acc >= trainedAcc - 0.02, `a second epoch keeps its accuracy or better: ${acc} vs ${trainedAcc}`);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await second.close();
  }
});
