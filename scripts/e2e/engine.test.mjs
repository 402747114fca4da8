// End-to-end tests of the training engine in its Web Worker: the page has one engine worker;
// a run keeps training while the learner reads lessons and comes back through the header link
// with its configuration; a reload mid-epoch offers Resume, which continues the same curve from
// the saved step and ends with the validation accuracy of an uninterrupted run; the main thread
// stays free while training (a loose guard, not a benchmark); the module is compiled once, by the
// page's compile worker, and the engine's worker runs it without a second compile.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/engine.test.mjs`.
// Runs alone: the main thread's longest task while training is bounded (1 s), and a paused run
// must save its checkpoint within seconds; a second browser on the same cores would stretch both.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { num, value, until, settled, records, maxLongTask } from "./lib.mjs";

const TIMEOUT = Number(process.env.UNROLL_E2E_TRAIN_TIMEOUT_MS || 600_000);
// The real data: a run that must outlast the test needs its epochs (the small data set's 50
// epochs of one name a step end within seconds), and resume equality is a check of learning.
// A small GRU on the CPU path: a long run (it never ends during a test) and three epochs of the
// real data one name per step (3 × 16,195 steps, about 11 s on a quiet 2-core machine: one epoch
// took 3.6 s, too short to see a checkpoint saved before the run ended).
const app = e2e({ data: "real" });
const LONG = "?v=1&lesson=names&cell=gru&hidden_size=32&batch_size=16&epochs=50&seed=5&backend=cpu";
const RUN = "?v=1&lesson=names&cell=gru&hidden_size=32&batch_size=1&epochs=3&seed=5&backend=cpu";

async function startRun(page) {
  await page.waitForSelector('[data-testid="train-start"]:not([disabled])', { timeout: 120_000 });
  await page.click('[data-testid="train-start"]');
  await until(async () => (await num(page, "train-step")) > 0, 120_000, "the first step");
}

/** Trains RUN to its end and returns the final validation accuracy and the points drawn. */
async function finish(page) {
  await until(async () => (await value(page, "train-status")) === "finished", TIMEOUT, "the end of the run", 500);
  return { acc: await value(page, "val-acc"), points: await num(page, "chart-train-loss"), steps: await num(page, "train-step") };
}

test("training runs in the engine's Web Worker and the page stays free", { timeout: TIMEOUT }, async () => {
  const lab = await app.open(LONG, { fresh: true });
  const close = () => lab.close();
  try {
    const { page, errors: consoleErrors } = lab;
    await startRun(page);
    const workers = page.workers().map((w) => w.url());
    assert.equal(workers.filter((u) => u.endsWith("/engine-worker.js")).length, 1, `one engine worker: ${workers}`);
    // The module is compiled once, off the main thread: by the page's compile worker (gone once
    // it has posted the module), and the engine's worker runs that module without compiling.
    assert.equal(await page.getAttribute("html", "data-wasm-compiled"), "worker", "the page ran the module its compile worker compiled");
    assert.ok(!workers.some((u) => u.endsWith("/compile-worker.js")), `the compile worker has ended: ${workers}`);
    const engine = page.workers().find((w) => w.url().endsWith("/engine-worker.js"));
    assert.equal(await engine.evaluate(() => self.unrollWasmCompiles), 0, "the engine's worker compiled nothing");
    const before = await num(page, "train-step");
    await page.waitForTimeout(3000);
    assert.ok((await num(page, "train-step")) > before, "steps go on");
    // Predictions answer from the latest weights while training.
    await page.fill('[data-testid="predict-input"]', "Nguyen");
    await page.waitForSelector('[data-testid="predict-top"] li', { timeout: 10_000 });
    // A regression guard only (the target, < 50 ms, is the benchmark's to report): it catches a
    // freeze of a second or more, not a loaded machine's stretched frames.
    const longest = maxLongTask(await records(page));
    assert.ok(longest < 1000, `longest main-thread task while training: ${longest} ms`);
    await page.click('[data-testid="train-pause"]');
    await until(async () => (await value(page, "train-status")) === "paused", 10_000, "paused");
    // Steps finished before the pause took effect may still arrive; then the page saves a
    // checkpoint of exactly the step it stopped on, and no step follows.
    const paused = await settled(page, "train-step");
    await until(async () => (await num(page, "checkpoint-saved")) === paused, 30_000, `a checkpoint of step ${paused}`);
    await page.waitForTimeout(1500);
    assert.equal(await num(page, "train-step"), paused, "no step while paused");
    await page.click('[data-testid="train-resume"]');
    await until(async () => (await num(page, "train-step")) > paused, 30_000, "steps after resume");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await close();
  }
});

test("a run keeps training while the learner reads a lesson, and the header link returns to it", { timeout: TIMEOUT }, async () => {
  const lab = await app.open(LONG, { fresh: true });
  const close = () => lab.close();
  try {
    const { page, errors: consoleErrors } = lab;
    await startRun(page);
    await page.click('[data-testid="nav-lessons"]');
    await page.waitForSelector('[data-testid="lesson-index"]', { state: "visible" });
    assert.doesNotMatch(page.url(), /lesson=names/);
    await page.click('[data-testid="lesson-card-lstm"] a');
    await page.waitForSelector('[data-testid="lesson-lstm"]', { state: "visible" });
    const away = await num(page, "train-step");
    await page.waitForTimeout(2500);
    assert.ok((await num(page, "train-step")) > away, "the run trains while a lesson is shown");
    await page.click('[data-testid="nav-train"]');
    await page.waitForSelector('[data-testid="train-status"]', { state: "visible" });
    assert.equal(await value(page, "train-status"), "running");
    const url = new URL(page.url());
    assert.equal(url.searchParams.get("hidden_size"), "32", "the header link keeps the configuration");
    assert.equal(url.searchParams.get("cell"), "gru");
    assert.equal(await page.inputValue('[data-testid="cfg-hidden_size"]'), "32", "the form keeps the configuration");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await close();
  }
});

test("a reload mid-epoch resumes from the saved step with the uninterrupted run's result", { timeout: TIMEOUT }, async () => {
  // The uninterrupted run.
  let whole;
  {
    const run = await app.open(RUN, { fresh: true });
    const close = () => run.close();
    try {
      const { page } = run;
      await startRun(page);
      whole = await finish(page);
    } finally {
      await close();
    }
  }
  assert.ok(whole.steps > 0 && whole.points === whole.steps, `every step drawn: ${JSON.stringify(whole)}`);
  const run = await app.open(RUN, { fresh: true });
  const close = () => run.close();
  try {
    const { page, errors: consoleErrors } = run;
    await startRun(page);
    // Wait for a checkpoint saved in IndexedDB mid-epoch, then reload.
    const saved = await until(async () => {
      const s = await num(page, "checkpoint-saved");
      return s > 0 && s < whole.steps - 50 ? s : 0;
    }, 120_000, "a saved checkpoint", 50);
    const atReload = await num(page, "train-step");
    const rate = (await records(page)).steps;
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector('[data-testid="restored"]', { timeout: 120_000 });
    const restored = await num(page, "restored");
    assert.equal(await value(page, "restored"), String(restored));
    assert.equal(await page.getAttribute('[data-testid="restored"]', "data-resumable"), "true");
    assert.ok(restored >= saved && restored <= atReload, `restored ${restored}, saved ${saved}, at reload ${atReload}`);
    // Within about 5 s of work: the steps trained between the checkpoint and the reload.
    const first = rate[0];
    const last = rate[rate.length - 1];
    const stepsPerSec = (last.step - first.step) / Math.max(1e-3, (last.t - first.t) / 1000);
    assert.ok(atReload - restored <= Math.max(20, stepsPerSec * 6), `lost ${atReload - restored} steps at ${stepsPerSec.toFixed(0)} steps/s`);
    assert.ok(!(await page.isDisabled('[data-testid="train-resume"]')), "Resume is offered");
    await page.click('[data-testid="train-resume"]');
    const resumed = await finish(page);
    assert.equal(resumed.steps, whole.steps);
    assert.equal(resumed.points, whole.points, "the curve goes on without a gap or a repeat");
    assert.equal(resumed.acc, whole.acc, "same validation accuracy as the uninterrupted run");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await close();
  }
});
