// End-to-end test of the slow-motion training step on the names page: before training the
// panel is off and says why; after one short epoch (LSTM, CPU path, clipping on) it takes one
// step on a validation name and walks through every stage, reading each stage's numbers from
// its hooks: finite h_t and gates, logits and softmax (the probabilities sum to 1 and equal
// the predict box's for the same weights), the loss (−ln p of the target), ∂L/∂h_t and the
// gradient norms growing step by step, clipping to max_norm, Adam's Δ heatmap and movers, and
// the new prediction (−ln of the new probability is the new loss). The stage list, the arrow
// keys and a typed name with no usable letters are checked too, and stages in Chinese (the
// backward steps say 反向传播, not lesson 6's 反向).
//
// Data: the fixture's small test data set.
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/slowmo.test.mjs`
// (without UNROLL_E2E_SKIP_BUILD it builds dist/ with Trunk first).
// Environment: UNROLL_E2E_TRAIN_TIMEOUT_MS (default 600000) bounds the training wait.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { value, num, until } from "./lib.mjs";

const TRAIN_TIMEOUT = Number(process.env.UNROLL_E2E_TRAIN_TIMEOUT_MS || 600_000);
const STAGES = ["forward", "logits", "softmax", "loss", "backward", "clip", "adam", "new"];
// One step's arithmetic, read stage by stage, on whatever weights an epoch left: the small
// test data set.
const app = e2e();

/** A heatmap canvas's values (null entries are steps not computed yet). */
async function mapValues(page, id) {
  return page.$eval(`[data-testid="${id}"]`, (c) => ({
    rows: Number(c.getAttribute("data-rows")),
    cols: Number(c.getAttribute("data-cols")),
    values: JSON.parse(c.getAttribute("data-values") || "[]"),
  }));
}

/** `[{label|name, raw, v}]` of a list's items. */
async function items(page, id) {
  return page.$$eval(`[data-testid="${id}"] li`, (lis) =>
    lis.map((li) => ({
      label: li.getAttribute("data-label"),
      name: li.getAttribute("data-name"),
      index: li.getAttribute("data-index"),
      raw: li.getAttribute("data-value"),
      v: Number(li.getAttribute("data-value")),
    })),
  );
}

function assertFinite(values, what) {
  assert.ok(values.length > 0, `${what}: no values`);
  for (const v of values) assert.ok(Number.isFinite(v), `${what}: ${v} is not finite`);
}

const stage = (page) => page.getAttribute('[data-testid="slowmo"]', "data-stage");
const frame = async (page) => Number(await page.getAttribute('[data-testid="slowmo"]', "data-frame"));

/** Reads and checks the numbers of the current frame; returns what later frames compare. */
async function checkFrame(page, s, seen) {
  if (s === "forward") {
    assertFinite([await num(page, "slowmo-h-norm")], "‖h_t‖");
    const t = await num(page, "slowmo-at");
    const h = await mapValues(page, "slowmo-h");
    assert.equal(h.rows, 16);
    // Column t has been computed (forward direction: 0..t).
    const col = Array.from({ length: h.rows }, (_, j) => h.values[j * h.cols + t]);
    assertFinite(col, `h at t = ${t}`);
    const g = await mapValues(page, "slowmo-gates");
    assert.equal(g.cols, 4, "LSTM gates i f g o");
    assertFinite(g.values, "gates");
    for (const v of g.values) assert.ok(v >= -1 && v <= 1);
  } else if (s === "logits") {
    assertFinite((await items(page, "slowmo-logits")).map((i) => i.v), "logits");
  } else if (s === "softmax") {
    seen.probs = await items(page, "slowmo-probs");
    assert.equal(seen.probs.length, app.data.classes.length);
    const sum = seen.probs.reduce((a, i) => a + i.v, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5, `softmax sums to ${sum}`);
    assert.ok(Math.abs((await num(page, "slowmo-prob-sum")) - 1) < 1e-5);
  } else if (s === "loss") {
    seen.p = await num(page, "slowmo-p-label");
    seen.loss = await num(page, "slowmo-loss");
    assert.ok(Math.abs(seen.loss + Math.log(seen.p)) < 1e-5, `loss ${seen.loss} vs −ln ${seen.p}`);
    assert.equal(seen.probs.find((i) => i.label === seen.label)?.v, seen.p, "the target's probability");
  } else if (s === "backward") {
    assertFinite([await num(page, "slowmo-dh-norm")], "‖∂L/∂h_t‖");
    const norms = await items(page, "slowmo-grad-norms");
    assertFinite(norms.map((n) => n.v), "gradient norms");
    seen.gradNorms = norms;
    seen.backwardFrames = (seen.backwardFrames ?? 0) + 1;
  } else if (s === "clip") {
    const norm = await num(page, "slowmo-clip-norm");
    const scale = await num(page, "slowmo-clip-scale");
    assertFinite([norm, scale], "clip");
    // The norm is that of the full gradient (the last backward frame's per-tensor norms).
    const fromTensors = Math.hypot(...seen.gradNorms.map((n) => n.v));
    assert.ok(Math.abs(norm - fromTensors) <= 1e-4 * norm, `clip norm ${norm} vs ${fromTensors}`);
    const clipped = Math.hypot(...(await items(page, "slowmo-clipped-norms")).map((n) => n.v));
    assert.ok(Math.abs(clipped - Math.min(norm, 1)) <= 1e-4, `after clipping ${clipped}`);
  } else if (s === "adam") {
    const movers = await items(page, "slowmo-movers");
    assert.equal(movers.length, 5);
    assertFinite(movers.map((m) => m.v), "movers");
    assert.ok(movers.every((m) => m.name === "rnn.weight_ih_l0"));
    const d = await mapValues(page, "slowmo-delta");
    assert.deepEqual([d.rows, d.cols], [64, 57], "Δ of weight_ih_l0: 4·16 × 57");
    assertFinite(d.values, "Δ");
    const maxAbs = Math.max(...d.values.map(Math.abs));
    assert.equal(Math.abs(movers[0].v), maxAbs, "the first mover is the largest |Δ|");
  } else if (s === "new") {
    const oldP = Number(await page.getAttribute('[data-testid="slowmo-new-prob"]', "data-old"));
    const oldLoss = Number(await page.getAttribute('[data-testid="slowmo-new-loss"]', "data-old"));
    const newP = await num(page, "slowmo-new-prob");
    const newLoss = await num(page, "slowmo-new-loss");
    assertFinite([oldP, newP, newLoss], "new prediction");
    assert.equal(oldP, seen.p);
    assert.ok(Math.abs(oldLoss - seen.loss) < 1e-6, `loss before the step ${oldLoss} vs ${seen.loss}`);
    assert.notEqual(newP, oldP, "the update changed the prediction");
    assert.ok(Math.abs(newLoss + Math.log(newP)) < 1e-5, `new loss ${newLoss} vs −ln ${newP}`);
  }
}

test("one training step in slow motion: every stage of one validation name", { timeout: TRAIN_TIMEOUT + 120_000 }, async (t) => {
  const browser = await app.launch();
  try {
    const query = "?v=1&lesson=names&cell=lstm&hidden_size=16&batch_size=256&epochs=1&max_norm=1&backend=cpu&seed=3";
    const { page, errors: consoleErrors } = await app.names(query, { browser });
    await page.waitForSelector('[data-testid="slowmo"]');
    // Before training: no step, and the panel says why.
    assert.equal(await stage(page), "none");
    assert.ok(await page.isDisabled('[data-testid="slowmo-run"]'));
    await until(async () => (await value(page, "slowmo-message")) === "before-start", 120_000, "the before-start message");
    await until(async () => !(await page.isDisabled('[data-testid="train-start"]')), 120_000, "the start button");
    await page.click('[data-testid="train-start"]');
    await until(async () => (await value(page, "train-status")) === "finished", TRAIN_TIMEOUT, "one epoch", 500);

    // A typed name without usable letters gets the predict box's message.
    await page.fill('[data-testid="slowmo-name"]', "123");
    await until(async () => (await value(page, "slowmo-message")) === "no-letters", 5000, "the no-letters message");
    assert.match(await page.textContent('[data-testid="slowmo-message"]'), /“123”/);
    assert.ok(await page.isDisabled('[data-testid="slowmo-run"]'));

    // A validation name: the fields take its name and language.
    await page.selectOption('[data-testid="slowmo-val"]', "3");
    const name = await page.inputValue('[data-testid="slowmo-name"]');
    const labelIndex = await page.inputValue('[data-testid="slowmo-label"]');
    const label = await page.$eval('[data-testid="slowmo-label"]', (s) => s.options[s.selectedIndex].value);
    assert.equal(label, labelIndex);
    assert.ok(name.length > 0);
    await page.click('[data-testid="slowmo-run"]');
    await until(async () => (await stage(page)) === "forward", 10_000, "the first frame");
    const frames = Number(await page.getAttribute('[data-testid="slowmo"]', "data-frames"));
    assert.equal(frames, 2 * name.length + 6, "forward and backward frames per character, one per other stage");
    t.diagnostic(`name ${name}, ${frames} frames, Adam ${await value(page, "slowmo-adam-state")}`);

    const seen = {};
    const visited = [];
    for (let i = 0; i < frames; i++) {
      assert.equal(await frame(page), i);
      const s = await stage(page);
      if (visited[visited.length - 1] !== s) visited.push(s);
      if (s === "softmax") {
        // The target is marked in the list.
        seen.label = await page.$eval('[data-testid="slowmo-probs"] li.slowmo-target', (li) => li.getAttribute("data-label"));
      }
      await checkFrame(page, s, seen);
      if (i + 1 < frames) await page.click('[data-testid="slowmo-next"]');
    }
    assert.deepEqual(visited, STAGES, "every stage, in order");
    assert.equal(seen.backwardFrames, name.length);
    assert.ok(await page.isDisabled('[data-testid="slowmo-next"]'), "Next stops at the last frame");

    // The predict box, on the same weights, gives the same probabilities as the softmax stage.
    await page.fill('[data-testid="predict-input"]', name);
    await page.waitForSelector('[data-testid="predict-top"] li');
    const predicted = await items(page, "predict-top");
    for (const p of predicted) {
      const same = seen.probs.find((q) => q.label === p.label);
      assert.equal(same?.raw, p.raw, `p(${p.label}): predict box ${p.raw}, slow motion ${same?.raw}`);
    }

    // The stage list jumps; the arrow keys step.
    await page.click('[data-testid="slowmo-stage-backward"]');
    assert.equal(await stage(page), "backward");
    const at = await frame(page);
    assert.equal(at, name.length + 3);
    await page.focus('[data-testid="slowmo-next"]');
    await page.keyboard.press("ArrowLeft");
    assert.equal(await frame(page), at - 1);
    assert.equal(await stage(page), "loss");
    await page.keyboard.press("ArrowRight");
    assert.equal(await stage(page), "backward");

    // 中文: the same stage, its title in Chinese, the numbers unchanged.
    await page.click('[data-testid="slowmo-stage-adam"]');
    const moversEn = await items(page, "slowmo-movers");
    await page.click('[data-testid="lang-zh"]');
    await until(async () => /第 7 阶段/.test(await page.textContent('[data-testid="slowmo-title"]')), 5000, "the Chinese title");
    assert.deepEqual(await items(page, "slowmo-movers"), moversEn);
    assert.equal(await stage(page), "adam");
    // Back-propagation is 反向传播 (反向 alone is lesson 6's backward direction).
    await page.click('[data-testid="slowmo-stage-backward"]');
    const atLine = (await page.textContent('[data-testid="slowmo-at"]')).trim();
    assert.match(atLine, /^反向传播 · 第 \d+ 层/, atLine);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await browser.close();
  }
});
