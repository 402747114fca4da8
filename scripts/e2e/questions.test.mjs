// End-to-end test of the lessons' "predict, then see" questions (headless Chromium on the
// release build).
//
// - Every lesson, in English and in Chinese (`lang=zh`): the question opens, a prediction is
//   set (a slider by its input event, a choice by a click), Lock locks it (`data-state`, the
//   inputs disabled, the locked line), Reveal shows the page's answer (`data-value`, checked
//   against an independent float64 computation of the lesson's formula here), the gap and the
//   explanation in the status region (aria-live).
// - The reveal follows the page's state: lesson 5 with z moved after a reveal says its answer is
//   stale; Try again, and the new reveal answers for the new z; Try again clears the old
//   prediction (the slider back in the middle).
// - Keyboard: the slider moves with the arrow keys, Lock and Reveal work with Enter.
// - `quiz=0` hides every question and the index's marks, and stays in the URL through a
//   slider change and the lessons' links.
// - Answers survive a reload; the index shows a mark per lesson; Reset opens them again.
// - Screenshots of lessons 4 and 5 before and after the reveal, at 1440 and 375 px, in both
//   languages, go to scripts/e2e/out/questions/.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/questions.test.mjs`
// (without UNROLL_E2E_SKIP_BUILD it builds dist/ first).

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { e2e } from "./fixture.mjs";
import { ANSWER_READOUTS, OUT, openPage, underVeil, until, SHOTS, shot, LESSONS, rustFixed } from "./lib.mjs";

const CP = '[data-testid="question"]';

// Lessons only: no names data is read.
const app = e2e();

/** The answers of the lessons' default states, computed here in float64 from the formulas. */
function expected(lesson) {
  switch (lesson) {
    case "unroll":
      // h_2 = tanh(0.5·2 + 1·tanh(0.5·1)).
      return { number: Math.tanh(1 + Math.tanh(0.5)) };
    case "shapes":
      // nn.RNN(10, 8): the count does not depend on seq_len → "stays the same".
      return { choice: 1 };
    case "bptt": {
      // x = 1, 2, −1, W_xh 0.5, W_hh 1, tanh: Π (1 − h_t²)·W_hh over 3 steps.
      let h = 0;
      let p = 1;
      for (const x of [1, 2, -1]) {
        h = Math.tanh(0.5 * x + h);
        p *= 1 - h * h;
      }
      return { choice: Math.abs(p) >= 1e-3 ? 0 : 1 };
    }
    case "lstm":
      // C_2 = 0.3·(0.9·0 + 0.5·0.8) + 0.9·(−0.6).
      return { number: 0.3 * 0.4 + 0.9 * -0.6 };
    case "gru":
      // z = 0.3: h_t = 0.7·0.2 + 0.3·0.7 = 0.35, 0.15 from h_{t−1}, 0.35 from h̃.
      return { choice: 0 };
    case "bidir":
      // Three tokens: only the forward half has read them all.
      return { choice: 0 };
    case "softmax": {
      const z = [3.2, 5.1, -1.7];
      return { choice: z.indexOf(Math.max(...z)) };
    }
    case "parallel":
      // The recurrent cell's depth is L; the all-pairs scores' is 1.
      return { choice: 0 };
  }
  throw new Error(lesson);
}

async function open(context, query) {
  const { page, consoleErrors: problems } = await openPage(context, app.url, query);
  await page.waitForSelector(".lx-root", { timeout: 60_000 });
  return { page, problems };
}

const attr = (page, sel, name) => page.getAttribute(sel, name, { timeout: 5000 });
const cpState = (page) => attr(page, CP, "data-state");

/** Sets the number slider of the question to `v` through its input event. */
async function setNumber(page, v) {
  await page.$eval(`${CP} [data-testid="question-number"]`, (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  }, v);
}

/** A readout per lesson that gives its question's answer away (lesson 8's depths appear only once measured). */
const VEILED = { ...ANSWER_READOUTS, parallel: undefined };
const veiled = underVeil;

/** Predicts (0.25 on a slider, the first choice otherwise), locks and reveals; returns what the page shows. */
async function answer(page) {
  await page.waitForSelector(CP, { timeout: 30_000 });
  assert.equal(await cpState(page), "open");
  const lesson = await page.$eval("[data-lesson]", (el) => el.dataset.lesson);
  if (VEILED[lesson]) {
    assert.ok(await veiled(page, VEILED[lesson]), `${lesson}: ${VEILED[lesson]} is blurred while the question is open`);
    assert.ok(await page.$(`${CP} [data-testid="question-veil-note"]`), `${lesson}: the question says what is blurred`);
  }
  assert.equal(await attr(page, CP, "data-value"), "");
  const isNumber = (await page.$(`${CP} [data-testid="question-number"]`)) !== null;
  if (isNumber) await setNumber(page, 0.25);
  else await page.click(`${CP} [data-testid="question-choice-0"]`);
  await page.click(`${CP} [data-testid="question-lock"]`);
  await until(async () => (await cpState(page)) === "locked", 5000, "locked");
  const locked = await page.textContent(`${CP} [data-testid="question-locked"]`);
  const disabled = await page.$eval(
    `${CP} ${isNumber ? '[data-testid="question-number"]' : '[data-testid="question-choice-0"]'}`,
    (el) => el.disabled,
  );
  assert.equal(await attr(page, CP, "data-value"), "", "nothing is revealed while locked");
  if (VEILED[lesson]) assert.ok(await veiled(page, VEILED[lesson]), `${lesson}: still blurred while locked`);
  await page.click(`${CP} [data-testid="question-reveal"]`);
  await until(async () => (await cpState(page)) === "revealed", 5000, "revealed");
  if (VEILED[lesson]) assert.equal(await veiled(page, VEILED[lesson]), false, `${lesson}: shown once revealed`);
  const value = Number(await attr(page, CP, "data-value"));
  const prediction = Number(await attr(page, CP, "data-prediction"));
  const gap = await attr(page, `${CP} [data-testid="question-gap"]`, "data-value");
  const text = {
    answer: await page.textContent(`${CP} [data-testid="question-answer"]`),
    gap: await page.textContent(`${CP} [data-testid="question-gap"]`),
    why: await page.textContent(`${CP} [data-testid="question-why"]`),
  };
  const live = await page.$eval(`${CP} [data-testid="question-status"]`, (el) => el.getAttribute("aria-live"));
  return { isNumber, locked, disabled, value, prediction, gap, text, live };
}

for (const lang of ["en", "zh"]) {
  test(`every lesson's question locks and reveals its computed answer (${lang})`, { timeout: 300_000 }, async () => {
    const b = await app.launch();
    try {
      for (const lesson of LESSONS) {
        const { page, problems } = await open(b.context, `?v=1&lesson=${lesson}&lang=${lang}`);
        const r = await answer(page);
        const want = expected(lesson);
        if (r.isNumber) {
          assert.ok(Math.abs(r.value - want.number) < 1e-5, `${lesson}: ${r.value} vs ${want.number}`);
          assert.equal(r.prediction, 0.25);
          assert.ok(Math.abs(Number(r.gap) - (0.25 - r.value)) < 1e-9, `${lesson}: gap ${r.gap}`);
        } else {
          assert.equal(r.value, want.choice, lesson);
          assert.equal(r.gap, r.prediction === r.value ? "1" : "0", `${lesson}: right or wrong`);
        }
        assert.ok(r.disabled, `${lesson}: the locked prediction cannot change`);
        assert.equal(r.live, "polite");
        if (lang === "en") {
          assert.match(r.locked, /^Your answer, locked: /);
          assert.match(r.text.answer, /^The page computes: /);
          assert.match(r.text.gap, /^You said /);
        } else {
          assert.match(r.locked, /^你的答案（已锁定）：/);
          assert.match(r.text.answer, /^本页计算结果：/);
          assert.match(r.text.gap, /^你的答案是[ “]/);
        }
        assert.ok(r.text.why.length > 20, `${lesson}: explanation “${r.text.why}”`);
        if (lesson === "lstm") assert.ok(r.text.why.includes("−0.4200"), r.text.why);
        if (lesson === "unroll") assert.ok(r.text.why.includes(rustFixed(r.value, 4)), r.text.why);
        assert.deepEqual(problems, [], lesson);
        await page.close();
      }
    } finally {
      await b.close();
    }
  });
}

test("the reveal follows the page's state; the keyboard works", { timeout: 180_000 }, async () => {
  const b = await app.launch();
  try {
    const { page, problems } = await open(b.context, "?v=1&lesson=gru");
    const first = await answer(page);
    assert.equal(first.value, 0);
    // z = 0.9 after the reveal: the answer stays the one for z = 0.3, and says so.
    await page.$eval('[data-testid="gru-z"]', (el) => {
      el.value = "0.9";
      el.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await page.waitForSelector(`${CP} [data-testid="question-stale"]`, { timeout: 5000 });
    assert.equal(await attr(page, CP, "data-value"), "0");
    await page.click(`${CP} [data-testid="question-again"]`);
    await until(async () => (await cpState(page)) === "open", 5000, "open again");
    assert.match(await page.textContent(`${CP} [data-testid="question-text"]`), /z = 0\.9/);
    const second = await answer(page);
    assert.equal(second.value, 1, "z = 0.9: nearer the candidate");
    assert.equal(await page.$(`${CP} [data-testid="question-stale"]`), null);
    assert.deepEqual(problems, []);
    await page.close();

    // Keyboard only: lesson 1's slider, Lock and Reveal.
    const k = await open(b.context, "?v=1&lesson=unroll");
    await k.page.waitForSelector(CP);
    await k.page.focus(`${CP} [data-testid="question-number"]`);
    for (let i = 0; i < 5; i++) await k.page.keyboard.press("ArrowRight");
    await k.page.keyboard.press("Tab");
    await k.page.keyboard.press("Enter");
    await until(async () => (await cpState(k.page)) === "locked", 5000, "locked by keyboard");
    assert.equal(Number(await attr(k.page, CP, "data-prediction")), 0.05);
    // Focus moves to Reveal (on the next frame, once the button is drawn).
    const focused = () => k.page.evaluate(() => document.activeElement?.dataset.testid);
    await until(async () => (await focused()) === "question-reveal", 2000, "focus on Reveal after Lock");
    await k.page.keyboard.press("Enter");
    await until(async () => (await cpState(k.page)) === "revealed", 5000, "revealed by keyboard");
    await until(async () => (await focused()) === "question-again", 2000, "focus on Try again after Reveal");
    // Try again: focus goes back to the prediction, not to the page's body.
    await k.page.keyboard.press("Enter");
    await until(async () => (await cpState(k.page)) === "open", 5000, "open again by keyboard");
    await until(
      async () => (await focused()) === "question-number",
      2000,
      "focus on the prediction after Try again",
    );
    // The old prediction is gone: the slider is back in the middle, nothing is locked in.
    assert.equal(await k.page.$eval(`${CP} [data-testid="question-number"]`, (e) => Number(e.value)), 0);
    assert.equal(await attr(k.page, CP, "data-prediction"), "");
    assert.deepEqual(k.problems, []);
  } finally {
    await b.close();
  }
});

test("quiz=0 hides the questions and stays in the URL", { timeout: 180_000 }, async () => {
  const b = await app.launch();
  try {
    for (const lesson of LESSONS) {
      const { page, problems } = await open(b.context, `?v=1&lesson=${lesson}&lang=zh&quiz=0`);
      await page.waitForSelector(`[data-testid="lesson-${lesson}"]`);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(await page.$(CP), null, lesson);
      assert.equal(await page.$(".lx-veiled"), null, `${lesson}: nothing blurred without questions`);
      assert.equal(await page.$('[data-testid="url-notice"]'), null, `${lesson}: quiz=0 is a known key`);
      assert.deepEqual(problems, [], lesson);
      await page.close();
    }
    const { page } = await open(b.context, "?v=1&lesson=gru&quiz=0");
    await page.waitForSelector('[data-testid="gru-z"]');
    await page.$eval('[data-testid="gru-z"]', (el) => {
      el.value = "0.8";
      el.dispatchEvent(new Event("input", { bubbles: true }));
    });
    await until(async () => (await page.evaluate(() => location.search)).includes("z=0.8"), 5000, "the URL follows");
    assert.match(await page.evaluate(() => location.search), /&quiz=0$/);
    assert.match(await page.getAttribute('[data-testid="nav-next"]', "href"), /quiz=0/);
    await page.click('[data-testid="nav-index"]');
    await page.waitForSelector('[data-testid="lesson-index"]');
    assert.equal(await page.$('[data-testid="question-progress-gru"]'), null);
    assert.equal(await page.$('[data-testid="question-panel"]'), null);
    // Without quiz=0 they are there.
    await page.goto(app.url + "?v=1", { waitUntil: "load" });
    await page.waitForSelector('[data-testid="question-progress-gru"]', { timeout: 30_000 });
  } finally {
    await b.close();
  }
});

test("answers survive a reload; the index marks them; Reset opens them again", { timeout: 180_000 }, async () => {
  const b = await app.launch();
  try {
    const { page, problems } = await open(b.context, "?v=1&lesson=lstm&lang=zh");
    const r = await answer(page);
    await page.waitForSelector(`${CP}[data-kept="true"]`); // stored before leaving
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector(`${CP}[data-state="revealed"]`, { timeout: 30_000 });
    assert.equal(Number(await attr(page, CP, "data-value")), r.value);
    assert.equal(Number(await attr(page, CP, "data-prediction")), 0.25);
    assert.match(await page.textContent(`${CP} [data-testid="question-answer"]`), /^本页计算结果：/);
    // A locked prediction survives too.
    await page.goto(app.url + "?v=1&lesson=softmax", { waitUntil: "load" });
    await page.waitForSelector(CP);
    await page.click(`${CP} [data-testid="question-choice-2"]`);
    await page.click(`${CP} [data-testid="question-lock"]`);
    await until(async () => (await cpState(page)) === "locked", 5000, "locked");
    await page.waitForSelector(`${CP}[data-kept="true"]`); // stored before leaving
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector(`${CP}[data-state="locked"]`, { timeout: 30_000 });
    assert.equal(await attr(page, CP, "data-prediction"), "2");

    await page.goto(app.url + "?v=1&lang=zh", { waitUntil: "load" });
    await page.waitForSelector('[data-testid="question-progress-lstm"][data-value="1"]', { timeout: 30_000 });
    assert.equal(await attr(page, '[data-testid="question-progress-softmax"]', "data-value"), "0");
    assert.equal(await attr(page, '[data-testid="question-total"]', "data-value"), "1");
    assert.match(await page.textContent('[data-testid="question-progress-lstm"]'), /已作答 1\/1 个问题/);
    // Reset asks once more; "Keep them" keeps them.
    await page.click('[data-testid="question-reset"]');
    await page.click('[data-testid="question-reset-cancel"]');
    assert.equal(await attr(page, '[data-testid="question-progress-lstm"]', "data-value"), "1");
    await page.click('[data-testid="question-reset"]');
    await page.click('[data-testid="question-reset-confirm"]');
    await page.waitForSelector('[data-testid="question-progress-lstm"][data-value="0"]', { timeout: 5000 });
    // The page says so once the browser has deleted them (leaving before could keep some).
    await until(async () => (await page.textContent('[data-testid="question-reset-status"]')) !== "", 5000, "the reset's confirmation");
    await page.goto(app.url + "?v=1&lesson=lstm", { waitUntil: "load" });
    await page.waitForSelector(CP);
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await cpState(page), "open", "the reset is kept");
    assert.deepEqual(problems, []);
  } finally {
    await b.close();
  }
});

test("screenshots of a question before and after the reveal", { timeout: 300_000 }, async () => {
  const dir = join(OUT, "questions");
  mkdirSync(dir, { recursive: true });
  // Without screenshots (CI) the steps run once, at the narrowest width in Chinese: the other
  // views differ only in their pictures.
  for (const width of SHOTS ? [1440, 375] : [375]) {
    for (const lang of SHOTS ? ["en", "zh"] : ["zh"]) {
      const b = await app.launch({ viewport: { width, height: 900 } });
      try {
        for (const lesson of ["lstm", "gru"]) {
          const { page } = await open(b.context, `?v=1&lesson=${lesson}&lang=${lang}`);
          await page.waitForSelector(CP);
          const box = page.locator(CP);
          await shot(box, { path: join(dir, `${lesson}-${lang}-${width}-open.png`) });
          await answer(page);
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          await shot(box, { path: join(dir, `${lesson}-${lang}-${width}-revealed.png`) });
          await page.close();
        }
        const { page } = await open(b.context, `?v=1&lang=${lang}`);
        await page.waitForSelector('[data-testid="question-progress-gru"][data-value="1"]', { timeout: 30_000 });
        await shot(page, { path: join(dir, `index-${lang}-${width}.png`), fullPage: true });
      } finally {
        await b.close();
      }
    }
  }
});
