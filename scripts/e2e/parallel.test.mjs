// End-to-end test of a sweep's runs in parallel Web Workers (`workers`): a small delay-copy
// sweep (2 seeds × RNN and LSTM, the CPU path) trained with `workers=1` and with `workers=2`
// ends with the same numbers, bit for bit (the page's raw `data-value`s, equal as strings); with
// 2 the page says so, two engine workers train it, neither compiles the module again, each
// one's wasm memory is reported, and Pause holds both workers' runs until Resume. A reload in the middle of the 2-worker sweep (after a checkpoint
// of its runs in flight was kept) goes on and ends with the numbers of the sweep never
// interrupted. A second worker that cannot start (its script refused) leaves the sweep to the
// first, which trains every run to the same numbers, and the page says one could not start.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/parallel.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { until } from "./lib.mjs";

const app = e2e();

// Long enough a run for a checkpoint (every few seconds) to be kept while it trains.
const QUERY = "?v=1&lesson=delay&hidden_size=16&steps=600&seeds=2&seed=21&backend=cpu";

/** The engine workers of `page` (Playwright's), with what each says of itself. */
async function engineWorkers(page) {
  const workers = page.page.workers().filter((w) => w.url().endsWith("engine-worker.js"));
  return Promise.all(
    workers.map(async (w) => ({
      compiles: await w.evaluate(() => self.unrollWasmCompiles),
      bytes: await w.evaluate(() => (self.unrollWasmBytes ? self.unrollWasmBytes() : 0)),
    })),
  );
}

let reference = null;

/** The finished results of the sweep on one worker (trained once for both tests). */
async function oneWorker() {
  if (reference) return reference;
  const one = await app.delay(`${QUERY}&workers=1`, { fresh: true });
  await one.start();
  await one.finished();
  reference = await one.results();
  assert.equal(await one.has("delay-workers"), false, "one worker asked, nothing to say");
  one.noErrors();
  await one.close();
  return reference;
}

test("workers=2 trains the runs side by side with the numbers of workers=1, bit for bit", { timeout: 900_000 }, async (t) => {
  const expected = await oneWorker();
  const two = await app.delay(`${QUERY}&workers=2`, { fresh: true });
  await two.start();
  await two.waitValue("delay-workers", "2", 60_000);
  assert.equal(await two.attr("delay-workers", "data-failed"), "0");
  assert.match(await two.text("delay-workers"), /2 workers side by side/);
  const workers = await until(async () => {
    const w = await engineWorkers(two);
    return w.length >= 2 && w.every((x) => x.bytes > 0) && w;
  }, 60_000, "two engine workers");
  assert.deepEqual(
    workers.map((w) => w.compiles),
    workers.map(() => 0),
    "every engine worker runs the page's compiled module",
  );
  t.diagnostic(`wasm memory per engine worker: ${workers.map((w) => `${(w.bytes / 2 ** 20).toFixed(1)} MiB`).join(", ")}`);
  // Pause stops both workers' runs; Resume moves them again; the numbers do not change.
  await two.click("delay-pause");
  assert.equal(await two.status(), "paused");
  const paused = [await two.settled("delay-step-rnn"), await two.settled("delay-step-lstm")];
  await two.page.waitForTimeout(800);
  assert.deepEqual([await two.num("delay-step-rnn"), await two.num("delay-step-lstm")], paused, "steps while paused");
  await two.click("delay-resume");
  await two.finished();
  assert.deepEqual(await two.results(), expected, "the numbers of one worker");
  two.noErrors();
  await two.close();
});

test("a reload mid-sweep with 2 workers goes on and ends with the numbers of a sweep never interrupted", { timeout: 900_000 }, async (t) => {
  const expected = await oneWorker();
  const page = await app.delay(`${QUERY}&workers=2`, { fresh: true });
  await page.start();
  await page.waitValue("delay-workers", "2", 60_000);
  const step = await page.keptCheckpoint();
  await page.reload();
  await page.goOn().catch(async (e) => {
    throw new Error(`${e.message} (status after the reload: ${await page.status()}; checkpoint at step ${step})`);
  });
  await page.waitValue("delay-workers", "2", 60_000).catch(() => {
    // One run was left after the reload: one worker trains it, and the page says nothing.
  });
  await page.finished();
  const resumed = await page.results();
  t.diagnostic(`reloaded after the checkpoint of step ${step}`);
  assert.deepEqual(resumed, expected, "the numbers of the sweep never interrupted");
  page.noErrors();
  await page.close();
});

test("a worker that cannot start hands its run to the other; the page says so and the numbers stay", { timeout: 900_000 }, async () => {
  const expected = await oneWorker();
  const page = await app.delay(`${QUERY}&workers=2`, { fresh: true });
  // The engine's first worker has loaded; the next load of its script (the second worker's) fails.
  await until(async () => (await engineWorkers(page)).length >= 1, 60_000, "the first engine worker");
  await page.page.context().route("**/engine-worker.js", (route) => route.abort());
  await page.start();
  await page.waitValue("delay-workers", "1", 120_000);
  assert.equal(await page.attr("delay-workers", "data-failed"), "1");
  assert.match(await page.text("delay-workers"), /1 worker: 1 more could not start/);
  await page.finished();
  assert.deepEqual(await page.results(), expected, "the numbers of one worker");
  await page.close();
});
