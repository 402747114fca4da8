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
// - A reload while a seed trains (a one-seed sweep, held in the engine at a step) offers Resume
//   from that seed's last checkpoint (its step on the page, in the offer, in the cards and the progress); Resume goes
//   on from there, not from step 0, and the final held-out figures equal those of the same sweep
//   run without a reload in a fresh browser (within 1e-9: they go through the record store).
//
// Run: `node --test --test-concurrency=1 scripts/e2e/delay-verdict.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { value, num, until } from "./lib.mjs";

// The checkpoint test's sweep: one seed, held in the engine at step CKPT_HOLD
// (`window.unrollDebug.holdAt`; the page still shows it running) and reloaded there.
const CKPT_STEPS = 400;
const CKPT_HOLD = 100;
const CKPT_QUERY = `?v=1&lesson=delay&hidden_size=32&steps=${CKPT_STEPS}&seeds=1&seed=21`;

// The delay task needs no names data; one browser for the file.
const app = e2e();

async function open(query, opts) {
  const { page, errors: consoleErrors } = await app.open(query, { wait: "delay-page", ...opts });
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

/** Each seed's final held-out accuracy and loss per cell: { "rnn:21": [acc, loss], … }. */
async function finalFigures(page) {
  const out = {};
  for (const cell of ["rnn", "lstm"]) {
    const accs = await page.$$eval(`[data-testid="delay-seed-acc-${cell}"]`, (els) =>
      els.map((e) => [e.dataset.seed, Number(e.dataset.step), Number(e.dataset.value)]));
    for (const [seed, step, acc] of accs) out[`${cell}:${seed}`] = { step, acc };
    out[`${cell}:loss`] = { step: CKPT_STEPS, acc: await num(page, `delay-heldout-loss-${cell}`) };
  }
  return out;
}

test("a reload mid-seed resumes that seed from its checkpoint with the numbers of an uninterrupted sweep", { timeout: 900_000 }, async () => {
  // The reference: the same sweep without a reload, in a browser of its own (its own store).
  const fresh = await app.launch();
  let reference;
  try {
    const { page, consoleErrors } = await open(CKPT_QUERY, { browser: fresh });
    await page.click('[data-testid="delay-start"]');
    await until(async () => (await value(page, "delay-status")) === "finished", 600_000, "the reference sweep", 500);
    reference = await finalFigures(page);
    console.log(`reference sweep: ${await num(page, "delay-elapsed")} s`, reference);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await fresh.close();
  }
  assert.equal(Object.keys(reference).length, 4);

  const { page, consoleErrors } = await open(CKPT_QUERY);
  assert.equal(await page.evaluate((s) => window.unrollDebug.holdAt(s), CKPT_HOLD), true, "the hold hook took the step");
  await page.click('[data-testid="delay-start"]');
  // The checkpoint of the first seed at the hold is kept while the page shows it training.
  await until(async () => (await num(page, "delay-checkpoint")) >= CKPT_HOLD, 120_000, "the checkpoint at the hold", 100);
  const saved = await num(page, "delay-checkpoint");
  assert.equal(await value(page, "delay-status"), "running");
  assert.equal(await page.getAttribute('[data-testid="delay-checkpoint"]', "data-seed"), "1");
  const stepBefore = await num(page, "delay-step-rnn");
  assert.ok(saved < CKPT_STEPS && stepBefore >= saved && stepBefore < CKPT_STEPS, `checkpoint ${saved}, step ${stepBefore}`);
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
  await page.waitForSelector('[data-testid="delay-resume-offer"]', { timeout: 20_000 });
  // The checkpoint came early in the first seed, so what follows is still that seed.
  assert.ok(saved < CKPT_STEPS / 2, `checkpoint at ${saved} of ${CKPT_STEPS}`);
  // The offer names the seed and the step it resumes from.
  const from = Number(await page.getAttribute('[data-testid="delay-resume-offer"]', "data-step"));
  assert.equal(await page.getAttribute('[data-testid="delay-resume-offer"]', "data-seed"), "1");
  assert.equal(await num(page, "delay-resume-offer"), 0, "no run finished yet");
  assert.ok(from >= saved && from < CKPT_STEPS, `resumes from ${from}, saved ${saved}`);
  const offer = await page.textContent('[data-testid="delay-resume-offer"]');
  assert.ok(offer.includes(`seed 1 of 1 from step ${from.toLocaleString("en-US")}`), offer);
  assert.equal(await value(page, "delay-status"), "paused");
  // The seed is shown as far as its checkpoint: steps, training-batch curve, progress.
  for (const cell of ["rnn", "lstm"]) {
    const step = await num(page, `delay-step-${cell}`);
    assert.ok(step === from || step === from + 1, `${cell} shown at ${step}, checkpoint ${from}`);
    assert.ok(Number.isFinite(await num(page, `delay-loss-first-${cell}`)), `${cell}: the batch curve from step 1`);
  }
  const progress = await num(page, "delay-progress");
  // Two runs (RNN and LSTM) of one seed, each shown as far as the checkpoint.
  assert.ok(progress >= (2 * from) / (2 * CKPT_STEPS) - 1e-12 && progress < 1, `progress ${progress}`);
  await page.click('[data-testid="delay-resume"]');
  assert.equal(await value(page, "delay-status"), "running");
  // It goes on from the checkpoint: never below it, and on past it (the first seed is still
  // training: the checkpoint was early in it).
  const seen = [];
  await until(async () => {
    const s = await num(page, "delay-step-rnn");
    seen.push(s);
    return s > from;
  }, 120_000, "steps after the checkpoint", 50);
  assert.ok(seen.every((s) => s >= from), `steps after Resume: ${seen.join(",")}`);
  await until(async () => (await value(page, "delay-status")) === "finished", 600_000, "the resumed sweep", 500);
  const resumed = await finalFigures(page);
  assert.deepEqual(Object.keys(resumed).sort(), Object.keys(reference).sort());
  for (const [k, r] of Object.entries(reference)) {
    assert.equal(resumed[k].step, CKPT_STEPS, k);
    assert.ok(Math.abs(resumed[k].acc - r.acc) < 1e-9, `${k}: resumed ${resumed[k].acc}, uninterrupted ${r.acc}`);
  }
  // The kept summary holds the resumed runs' figures.
  const cells = (await summaryCells(page)).filter((c) => c.current && c.delay === 8);
  for (const cell of ["rnn", "lstm"]) {
    const mean = reference[`${cell}:21`].acc;
    const c = cells.find((x) => x.cell === cell);
    assert.ok(c && Math.abs(c.mean - mean) < 1e-9, `${cell} summary ${c?.mean}, uninterrupted ${mean}`);
  }
  // Finished: no checkpoint, and a reload offers nothing.
  assert.equal(await page.$('[data-testid="delay-checkpoint"]'), null);
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
  await until(async () => (await value(page, "delay-status")) === "finished", 20_000, "the kept runs");
  assert.equal(await page.$('[data-testid="delay-resume-offer"]'), null);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});
