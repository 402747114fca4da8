// End-to-end test of "inside the trained model" and the gradient-flow chart:
// trains a small LSTM for four epochs on the real names data (CPU path), then reads the
// inspector's hooks: the h_t heatmap of "Nguyen", the gate maps, the top 5, a pinned forget
// gate, its reset, and the ‖∂L/∂h_t‖ curve. A second run checks the GRU / RNN / stacked
// bidirectional variants on the weights published at the start of training.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/inspect.test.mjs`
// (without UNROLL_E2E_SKIP_BUILD it builds dist/ with Trunk first).
// Environment: UNROLL_E2E_TRAIN_TIMEOUT_MS (default 600000) bounds the training wait.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { value, num, until } from "./lib.mjs";

const TRAIN_TIMEOUT = Number(process.env.UNROLL_E2E_TRAIN_TIMEOUT_MS || 600_000);
// The real data: the run must last long enough for the inspector to follow it from one set of
// weights to the next, which the small data set's epochs do not.
const app = e2e({ data: "real" });

/** A heatmap canvas's hooks: {rows, cols, values, paddedFrom} (null when absent). */
async function heatmap(page, id) {
  const el = await page.$(`[data-testid="${id}"]`);
  if (!el) return null;
  return el.evaluate((c) => ({
    rows: Number(c.getAttribute("data-rows")),
    cols: Number(c.getAttribute("data-cols")),
    values: JSON.parse(c.getAttribute("data-values") || "[]"),
    paddedFrom: c.getAttribute("data-padded-from"),
  }));
}

/** The inspector's top list: [{label, raw, p, base}] (raw = the data-value string). */
async function top(page) {
  return page.$$eval('[data-testid="inspect-top"] li', (lis) =>
    lis.map((li) => ({
      label: li.getAttribute("data-label"),
      raw: li.getAttribute("data-value"),
      p: Number(li.getAttribute("data-value")),
      base: li.hasAttribute("data-base") ? Number(li.getAttribute("data-base")) : null,
    })),
  );
}

/** Sets a range input's value and fires `input`, as a drag would. */
async function setRange(page, id, v) {
  await page.$eval(
    `[data-testid="${id}"]`,
    (el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    },
    v,
  );
}

function assertUnitInterval(values, what) {
  for (const v of values) assert.ok(Number.isFinite(v) && v >= 0 && v <= 1, `${what}: ${v} outside [0, 1]`);
}

function assertTanhRange(values, what) {
  for (const v of values) assert.ok(Number.isFinite(v) && v >= -1 && v <= 1, `${what}: ${v} outside [−1, 1]`);
}

test("LSTM: heatmaps of Nguyen, pin the forget gate, reset, gradient flow", async (t) => {
  const browser = await app.launch();
  try {
    // Four epochs: the run must still be going when the inspector, brought into view by typing,
    // first reads the weights (out of view it follows them only every 2 s); two ended first
    // once on a quiet machine.
    const query = "?v=1&lesson=names&cell=lstm&hidden_size=32&epochs=4&backend=cpu&seed=5&autostart=1";
    const { page, errors: consoleErrors } = await app.names(query, { browser });
    // Typed while training: the inspector follows the published weights.
    await page.fill('[data-testid="inspect-input"]', "Nguyen");
    await page.waitForSelector('[data-testid="inspect-top"] li', { timeout: 120_000 });
    const firstStep = await num(page, "inspect-weights-step");
    await until(
      async () => {
        const s = await value(page, "train-status");
        if (s === "error") throw new Error(await page.textContent('[data-testid="train-error"]'));
        return s === "finished";
      },
      TRAIN_TIMEOUT,
      "four epochs of training",
      500,
    );
    const step = await num(page, "train-step");
    t.diagnostic(`trained ${step} steps, val-acc ${await num(page, "val-acc")}`);

    // The inspector now uses the final weights.
    await until(async () => (await num(page, "inspect-weights-step")) === step, 10_000, "the inspector on the final weights");
    assert.ok(firstStep < step, `the inspector moved from the weights of step ${firstStep} to those of step ${step}`);

    // h_t: 32 units × 6 characters, values of o ⊙ tanh(c) in (−1, 1), not all equal.
    const h = await heatmap(page, "inspect-heatmap-h");
    assert.ok(h, "the h_t heatmap is shown");
    assert.equal(h.cols, 6, "one column per character of Nguyen");
    assert.equal(h.rows, 32, "one row per hidden unit");
    assert.equal(h.values.length, 32 * 6);
    assertTanhRange(h.values, "h_t");
    assert.ok(new Set(h.values.map((v) => v.toFixed(6))).size > 20, "h_t varies over units and steps");
    assert.equal(h.paddedFrom, "", "head=last reads no padding");

    // c_t and the four gates, with PyTorch's names; i f o are sigmoids, g is a tanh.
    const c = await heatmap(page, "inspect-heatmap-c");
    assert.ok(c && c.rows === 32 && c.cols === 6, "the c_t heatmap is 32 × 6");
    const gates = {};
    for (const g of ["i", "f", "g", "o"]) {
      gates[g] = await heatmap(page, `inspect-gate-${g}`);
      assert.ok(gates[g] && gates[g].rows === 32 && gates[g].cols === 6, `gate ${g} is 32 × 6`);
    }
    for (const g of ["i", "f", "o"]) assertUnitInterval(gates[g].values, `gate ${g}`);
    assertTanhRange(gates.g.values, "gate g");
    // h_t = o ⊙ tanh(c_t), cell by cell (the maps come from one trace).
    for (let k = 0; k < h.values.length; k++) {
      const expect = gates.o.values[k] * Math.tanh(c.values[k]);
      assert.ok(Math.abs(h.values[k] - expect) < 1e-5, `h[${k}] = ${h.values[k]} but o·tanh(c) = ${expect}`);
    }
    for (const g of ["r", "z", "n"]) assert.equal(await page.$(`[data-testid="inspect-gate-${g}"]`), null, `no GRU gate ${g} on an LSTM`);

    // Top 5: known languages, descending, a distribution's head; its first 3 are the predict box's.
    const before = await top(page);
    assert.equal(before.length, 5);
    for (const e of before) {
      assert.ok(app.data.classes.includes(e.label), `unknown language ${e.label}`);
      assert.ok(e.p >= 0 && e.p <= 1, `probability ${e.p}`);
      assert.equal(e.base, null, "no unpinned reference without a pin");
    }
    for (let i = 1; i < 5; i++) assert.ok(before[i - 1].p >= before[i].p, "sorted by probability");
    assert.ok(before.reduce((s, e) => s + e.p, 0) <= 1 + 1e-6);
    await page.fill('[data-testid="predict-input"]', "Nguyen");
    await page.waitForSelector('[data-testid="predict-top"] li');
    const predicted = await page.$$eval('[data-testid="predict-top"] li', (lis) =>
      lis.map((li) => [li.getAttribute("data-label"), li.getAttribute("data-value")]),
    );
    assert.deepEqual(predicted, before.slice(0, 3).map((e) => [e.label, e.raw]), "same weights, same code: same top 3");
    t.diagnostic(`Nguyen → ${before.map((e) => `${e.label} ${e.p.toFixed(3)}`).join(", ")}`);

    // Pin f = 0 at every step: the forget gate map is all zeros, h_t and the top 5 change.
    assert.equal(await value(page, "pin-status"), "off");
    assert.equal(await page.isDisabled('[data-testid="pin-enable"]'), false);
    await page.selectOption('[data-testid="pin-gate"]', "f");
    await page.selectOption('[data-testid="pin-step"]', "all");
    // Turning the pin on (moving the slider does) leaves its controls where they are (the list
    // keeps a line for the unpinned probability, the status room for its longest text): the
    // slider stays under the pointer.
    const sliderAt = () => page.$eval('[data-testid="pin-value"]', (el) => Math.round(el.getBoundingClientRect().top + window.scrollY));
    const sliderOff = await sliderAt();
    await setRange(page, "pin-value", 0);
    await page.check('[data-testid="pin-enable"]');
    await until(async () => (await value(page, "pin-status")) === "on", 5_000, "the pin indicator");
    assert.equal(await sliderAt(), sliderOff, "the slider does not move when the pin turns on");
    const fPinned = await heatmap(page, "inspect-gate-f");
    assert.ok(fPinned.values.every((v) => v === 0), "every forget-gate value is the pinned 0");
    const iPinned = await heatmap(page, "inspect-gate-i");
    // c_0 = f ⊙ 0 + i ⊙ g whatever f is, so h_0 and the input gate at t = 0 and t = 1 are as
    // before; from t = 2 on the input gate sees the changed h_1.
    const column = (m, s) => Array.from({ length: m.rows }, (_, j) => m.values[j * m.cols + s]);
    for (const s of [0, 1]) assert.deepEqual(column(iPinned, s), column(gates.i, s), `input gate at t = ${s} is unchanged`);
    assert.notDeepEqual(column(iPinned, 2), column(gates.i, 2), "input gate at t = 2 sees the pinned past");
    const after = await top(page);
    assert.equal(after.length, 5);
    const beforeBy = new Map(before.map((e) => [e.label, e.p]));
    for (const e of after) {
      assert.ok(e.base !== null, "while pinned, each row shows the unpinned probability");
      if (beforeBy.has(e.label)) assert.equal(e.base, beforeBy.get(e.label), `unpinned ${e.label} matches the earlier top 5`);
    }
    const changed = after.some((e) => !beforeBy.has(e.label) || Math.abs(beforeBy.get(e.label) - e.p) > 1e-6);
    assert.ok(changed, `pinning f = 0 changes the probabilities: ${JSON.stringify({ before, after })}`);
    const hPinned = await heatmap(page, "inspect-heatmap-h");
    assert.notDeepEqual(hPinned.values, h.values, "pinning changes h_t");
    t.diagnostic(`f = 0 pinned → ${after.map((e) => `${e.label} ${e.p.toFixed(3)} (was ${e.base.toFixed(3)})`).join(", ")}`);

    // A pin at one step only changes the steps from there on.
    await page.selectOption('[data-testid="pin-step"]', "3");
    await until(async () => (await heatmap(page, "inspect-gate-f")).values.some((v) => v !== 0), 5_000, "the one-step pin");
    const hStep = await heatmap(page, "inspect-heatmap-h");
    for (let j = 0; j < 32; j++) {
      for (let s = 0; s < 3; s++) assert.equal(hStep.values[j * 6 + s], h.values[j * 6 + s], `h[${j}, t=${s}] before the pinned step is unchanged`);
    }
    const fStep = await heatmap(page, "inspect-gate-f");
    for (let j = 0; j < 32; j++) assert.equal(fStep.values[j * 6 + 3], 0, `f[${j}, t=3] is pinned`);
    // A shorter name has no step 3, a longer one again: the step list is rebuilt each time and
    // keeps showing the pin's step (not its first option, "every step").
    await page.fill('[data-testid="inspect-input"]', "Li");
    await until(async () => (await heatmap(page, "inspect-heatmap-h")).cols === 2, 5_000, "the short name");
    assert.equal(await page.inputValue('[data-testid="pin-step"]'), "3", "the step select shows t = 3 for a name without it");
    await page.fill('[data-testid="inspect-input"]', "Nguyen");
    await until(async () => (await heatmap(page, "inspect-heatmap-h")).cols === 6, 5_000, "Nguyen again");
    assert.equal(await page.inputValue('[data-testid="pin-step"]'), "3", "the step select shows t = 3 again");

    // Reset: the pin is off and the numbers are exactly the unpinned ones again.
    await page.click('[data-testid="pin-clear"]');
    await until(async () => (await value(page, "pin-status")) === "off", 5_000, "the pin to clear");
    // Reset disables itself; the focus goes to the pin's checkbox, not to the page.
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-testid")), "pin-enable");
    const restored = await top(page);
    assert.deepEqual(
      restored.map((e) => [e.label, e.raw, e.base]),
      before.map((e) => [e.label, e.raw, null]),
      "clearing the pin restores the top 5 exactly",
    );
    assert.deepEqual((await heatmap(page, "inspect-heatmap-h")).values, h.values, "and h_t exactly");
    assert.equal(await page.isChecked('[data-testid="pin-enable"]'), false);

    // Gradient flow: a curve measured during training, one norm per step before the read-out.
    const gf = await page.$eval('[data-testid="chart-grad-flow"]', (el) => ({
      points: Number(el.getAttribute("data-points")),
      values: JSON.parse(el.getAttribute("data-values") || "[]"),
      step: Number(el.getAttribute("data-step")),
    }));
    t.diagnostic(`grad flow at step ${gf.step}: ${gf.values.map((v) => v.toExponential(2)).join(" ")}`);
    assert.ok(gf.points > 0, "the gradient-flow chart has points");
    assert.ok(gf.values.length >= 2, "a norm per step of the longest name");
    assert.ok(gf.values.every((v) => Number.isFinite(v) && v >= 0), "norms are finite and ≥ 0");
    assert.ok(gf.values[0] > 0, "the read-out step gets a gradient");
    assert.equal(gf.points, gf.values.filter((v) => v > 0).length);
    assert.ok(gf.step > 0 && gf.step <= step, "measured with trained weights");

    assert.deepEqual(consoleErrors, [], "no console errors");
  } finally {
    await browser.close();
  }
});

test("GRU (2 layers, bidirectional) and RNN: gates, layer/direction selector, pin disabled for RNN", async () => {
  const browser = await app.launch();
  try {
    // GRU, stacked and bidirectional: the weights published at the start are enough.
    const q = "?v=1&lesson=names&cell=gru&hidden_size=16&num_layers=2&bidirectional=1&epochs=1&backend=cpu&autostart=1";
    const { page, errors: consoleErrors } = await app.names(q, { browser });
    await page.fill('[data-testid="inspect-input"]', "Ito");
    await page.waitForSelector('[data-testid="inspect-top"] li', { timeout: 120_000 });
    // Pause, so the weights stay the same while the maps are read (pausing publishes them). This
    // small model's one epoch may be over already, which keeps them the same too (Pause is then
    // disabled, and the click gives up).
    await page.click('[data-testid="train-pause"]', { timeout: 3_000 }).catch(() => {});
    await until(
      async () =>
        ["paused", "finished"].includes(await value(page, "train-status")) &&
        (await num(page, "inspect-weights-step")) === (await num(page, "train-step")),
      30_000,
      "the paused (or final) weights",
    );
    const options = await page.$$eval('[data-testid="inspect-where"] option', (os) => os.map((o) => o.value));
    assert.deepEqual(options, ["0-0", "0-1", "1-0", "1-1"], "one entry per (layer, direction)");
    for (const g of ["r", "z", "n"]) {
      const m = await heatmap(page, `inspect-gate-${g}`);
      assert.ok(m && m.rows === 16 && m.cols === 3, `GRU gate ${g} is 16 × 3`);
    }
    assert.equal(await page.$('[data-testid="inspect-heatmap-c"]'), null, "no c_t for a GRU");
    assert.match(await page.textContent('[data-testid="inspect-note-gru"]'), /\(1 − z\) ⊙ n \+ z ⊙ h_\{t−1\}/);
    // GRU: h_t = (1 − z) ⊙ n + z ⊙ h_{t−1}, checked on the maps of layer 1, reverse (which reads
    // the name from its end, so h_{t−1} of the formula is the column to the right).
    const weightsStep = await value(page, "inspect-weights-step");
    const h0 = await heatmap(page, "inspect-heatmap-h");
    await page.selectOption('[data-testid="inspect-where"]', "1-1");
    await until(async () => JSON.stringify((await heatmap(page, "inspect-heatmap-h")).values) !== JSON.stringify(h0.values), 5_000, "the layer 1 reverse maps");
    assert.equal(await value(page, "inspect-weights-step"), weightsStep, "same weights while switching");
    const [h, z, n] = [await heatmap(page, "inspect-heatmap-h"), await heatmap(page, "inspect-gate-z"), await heatmap(page, "inspect-gate-n")];
    for (let j = 0; j < 16; j++) {
      for (let s = 0; s < 3; s++) {
        const k = j * 3 + s;
        const prev = s === 2 ? 0 : h.values[j * 3 + s + 1];
        const expect = (1 - z.values[k]) * n.values[k] + z.values[k] * prev;
        assert.ok(Math.abs(h.values[k] - expect) < 1e-5, `GRU h[${j}, ${s}] = ${h.values[k]}, formula ${expect}`);
      }
    }
    // Pin z = 1 at every step in layer 1 reverse: h stays at h_0 = 0 there.
    await page.selectOption('[data-testid="pin-gate"]', "z");
    await setRange(page, "pin-value", 1);
    await until(async () => (await value(page, "pin-status")) === "on", 5_000, "the GRU pin");
    assert.ok((await heatmap(page, "inspect-heatmap-h")).values.every((v) => v === 0), "z = 1 keeps h_0 = 0 at every step");
    assert.deepEqual(consoleErrors, [], "no console errors (GRU)");
    await page.close();

    // RNN: no gates, pin controls disabled with the reason.
    const r = await app.names("?v=1&lesson=names&cell=rnn&hidden_size=16&epochs=1&backend=cpu&autostart=1", { browser });
    await r.page.fill('[data-testid="inspect-input"]', "Nguyen");
    await r.page.waitForSelector('[data-testid="inspect-top"] li', { timeout: 120_000 });
    const rh = await heatmap(r.page, "inspect-heatmap-h");
    assert.ok(rh.rows === 16 && rh.cols === 6);
    assert.ok(await r.page.isVisible('[data-testid="pin-disabled-note"]'));
    for (const id of ["pin-enable", "pin-gate", "pin-step", "pin-value", "pin-clear"]) {
      assert.equal(await r.page.isDisabled(`[data-testid="${id}"]`), true, `${id} is disabled for an RNN`);
    }
    assert.equal(await r.page.$('[data-testid^="inspect-gate-"]'), null, "no gate maps for an RNN");
    assert.equal(await r.page.$('[data-testid="inspect-where"]'), null, "one layer, one direction: no selector");
    assert.deepEqual(r.errors, [], "no console errors (RNN)");
    await r.page.close();

    // head=padded: the model reads 10 steps; the padding columns are marked.
    const p = await app.names("?v=1&lesson=names&cell=lstm&hidden_size=16&head=padded&epochs=1&backend=cpu&autostart=1", { browser });
    await p.page.fill('[data-testid="inspect-input"]', "Ito");
    await p.page.waitForSelector('[data-testid="inspect-top"] li', { timeout: 120_000 });
    const ph = await heatmap(p.page, "inspect-heatmap-h");
    assert.equal(ph.cols, 10, "head=padded reads 10 steps");
    assert.equal(ph.paddedFrom, "3", "steps 3.. are padding");
    assert.equal(await value(p.page, "inspect-reads"), "9", "the head reads t = 9");
    await p.page.fill('[data-testid="inspect-input"]', "Wolfeschlegelstein");
    await until(async () => (await heatmap(p.page, "inspect-heatmap-h")).paddedFrom === "", 5_000, "the long name");
    assert.equal((await heatmap(p.page, "inspect-heatmap-h")).cols, 10, "a long name is cut to 10 steps");
    assert.match(await p.page.textContent('[data-testid="inspect-reads"]'), /8 more are cut off/);
    assert.deepEqual(p.errors, [], "no console errors (padded)");
  } finally {
    await browser.close();
  }
});
