// End-to-end test of the two labs' "predict, then see" questions (headless Chromium on the
// release build).
//
// - Names lab, in English and in Chinese: the question asks before training; a locked
//   prediction waits (Reveal disabled, the waiting sentence) until the run's first epoch ends;
//   the reveal answers from that epoch: "above" exactly when the metrics panel's validation
//   accuracy is above its majority-class baseline; the answer survives a reload; the index
//   counts it on the training card. Revealed, it gets the computed "compared with the handout"
//   note: the printed 0.4859 beside this run's validation accuracy (the metrics panel's) and
//   baseline. Answered again after the run, the question warns first ("answered after
//   seeing"), says so once locked and revealed, and the index no longer counts it.
// - Long-memory lab: Skip before the sweep keeps the question waiting; after a sweep whose runs
//   stay at chance (learning rate 0.00001) the verdict line says so and the reveal is "none";
//   the answer's choice follows the page's verdict key; answered again after the sweep, it is
//   kept as answered after seeing and the index does not count it.
// - `quiz=0` hides both.
// - Screenshots (1440 and 375 px, both languages) of the names question waiting and revealed
//   go to scripts/e2e/out/lab-questions/.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/lab-questions.test.mjs`

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { e2e } from "./fixture.mjs";
import { OUT, value, num, until, zhAllowlist, shot, rustFixed } from "./lib.mjs";

const CP = '[data-testid="question"]';
// The reveal follows whatever the run gave (above or below the baseline): the small test data set
// (the names lab's test, whose note is about the shipped names files, uses the real one).
const app = e2e();
const TINY = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=64&epochs=1&seed=3&backend=cpu";
const SHOT_DIR = join(OUT, "lab-questions");

const attr = (page, sel, name) => page.getAttribute(sel, name, { timeout: 5000 });
const cpState = (page) => attr(page, CP, "data-state");

async function shoot(page, name, width) {
  mkdirSync(SHOT_DIR, { recursive: true });
  await page.setViewportSize({ width, height: 900 });
  const el = await page.$(CP);
  await el.scrollIntoViewIfNeeded();
  await shot(page, { path: join(SHOT_DIR, `${name}-${width}.png`) });
}

for (const lang of ["en", "zh"]) {
  test(`names lab (${lang}): the prediction waits for the first epoch and the reveal follows the run`, { timeout: 600_000 }, async () => {
    const browser = await app.launch();
    try {
      // The real data: the handout's note is about the names files the page ships.
      const url = await app.urlFor("real");
      const { page, errors: consoleErrors } = await app.open(`${TINY}&lang=${lang}`, { browser, data: "real" });
      await page.waitForSelector(`${CP}[data-key="names-baseline"]`, { timeout: 60_000 });
      assert.equal(await cpState(page), "open");
      await page.click(`${CP} [data-testid="question-choice-0"]`);
      await page.click(`${CP} [data-testid="question-lock"]`);
      await until(async () => (await cpState(page)) === "locked", 5000, "locked");
      assert.ok(await page.isDisabled(`${CP} [data-testid="question-reveal"]`), "Reveal waits for the first epoch");
      const waiting = await page.textContent(`${CP} [data-testid="question-waiting"]`);
      assert.ok(waiting.length > 10, `the waiting sentence: ${waiting}`);
      if (lang === "zh") assert.ok(!/[A-Za-z]{3,}/.test(waiting), `zh waiting sentence without English: ${waiting}`);
      await shoot(page, `names-waiting-${lang}`, 1440);
      await shoot(page, `names-waiting-${lang}`, 375);
      await page.setViewportSize({ width: 1440, height: 1000 });

      await page.waitForSelector('[data-testid="train-start"]:not([disabled])', { timeout: 120_000 });
      await page.click('[data-testid="train-start"]');
      await until(async () => (await value(page, "train-status")) === "finished", 400_000, "the epoch to finish", 500);
      await until(async () => !(await page.isDisabled(`${CP} [data-testid="question-reveal"]`)), 10_000, "Reveal enabled");
      await page.click(`${CP} [data-testid="question-reveal"]`);
      await until(async () => (await cpState(page)) === "revealed", 5000, "revealed");
      const answer = Number(await attr(page, CP, "data-value"));
      await until(async () => !Number.isNaN(await num(page, "metrics-val-acc")), 30_000, "the metrics panel");
      const acc = await num(page, "metrics-val-acc");
      const baseline = await num(page, "majority-baseline");
      assert.equal(answer, acc > baseline ? 0 : 1, `answer ${answer} for accuracy ${acc} vs baseline ${baseline}`);
      const why = await page.textContent(`${CP} [data-testid="question-why"]`);
      assert.ok(why.includes(`${rustFixed(acc * 100, 1)}%`), `the explanation quotes the accuracy: ${why}`);
      assert.ok(why.includes(`${rustFixed(baseline * 100, 1)}%`), `the explanation quotes the baseline: ${why}`);
      assert.equal(await attr(page, `${CP} [data-testid="question-gap"]`, "data-correct"), answer === 0 ? "right" : "wrong");
      await shoot(page, `names-revealed-${lang}`, 1440);
      await shoot(page, `names-revealed-${lang}`, 375);

      // The handout's note, with this run's figures, among them its first epoch counted over
      // the training batches while it learned.
      await page.waitForSelector('[data-testid="handout-epoch1"]', { timeout: 10_000 });
      const counted = Number(await value(page, "handout-epoch1-train-acc"));
      assert.ok(counted > 0 && counted < 1, `the run's epoch counted while learning: ${counted}`);
      // Kept across a reload (the run's first report comes back with it).
      await page.waitForSelector(`${CP}[data-kept="true"]`); // stored before leaving
      await page.reload({ waitUntil: "load" });
      await page.waitForSelector(`${CP}[data-key="names-baseline"]`, { timeout: 60_000 });
      await until(async () => (await cpState(page)) === "revealed", 15_000, "revealed after a reload");
      assert.equal(Number(await attr(page, CP, "data-value")), answer);
      // After the reload the note stands on the kept report (the count while learning is not kept).
      const note = '[data-testid="handout-epoch1"]';
      await page.waitForSelector(note, { timeout: 10_000 });
      assert.equal(Number(await value(page, "handout-epoch1-printed")), 0.4859);
      assert.ok(Math.abs(Number(await value(page, "handout-epoch1-val-acc")) - acc) < 1e-6, "the note quotes this run's accuracy");
      assert.ok(Math.abs(Number(await value(page, "handout-epoch1-val-baseline")) - baseline) < 1e-6, "and the page's baseline");
      assert.equal(Number(await value(page, "handout-epoch1-raw-lines")), 20074);
      assert.equal(await page.$('[data-testid="handout-epoch1-train-acc"]'), null);
      const noteText = await page.textContent(note);
      if (lang === "zh") {
        const ok = zhAllowlist();
        const english = (noteText.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).filter((w) => /[A-Za-z]{3}/.test(w) && !ok.has(w));
        assert.deepEqual(english, [], `zh note: ${noteText}`);
      }
      await shoot(page, `names-note-${lang}`, 1440);
      await shoot(page, `names-note-${lang}`, 375);
      await page.setViewportSize({ width: 1440, height: 1000 });
      // The index counts it on the training card.
      await page.goto(`${url}?v=1&lang=${lang}`, { waitUntil: "load" });
      await until(async () => (await value(page, "question-progress-names")) === "1", 15_000, "the index's mark");

      // Answered again after the run: warned, kept as answered after seeing, not counted.
      await page.goto(`${url}${TINY}&lang=${lang}`, { waitUntil: "load" });
      await until(async () => (await cpState(page)) === "revealed", 30_000, "the kept reveal");
      await page.click(`${CP} [data-testid="question-again"]`);
      await until(async () => (await cpState(page)) === "open", 5000, "open again");
      const late = await page.textContent(`${CP} [data-testid="question-late"]`);
      assert.match(late, lang === "zh" ? /看过结果后作答/ : /answered after seeing/);
      await page.click(`${CP} [data-testid="question-choice-${answer}"]`);
      await page.click(`${CP} [data-testid="question-lock"]`);
      await until(async () => (await attr(page, CP, "data-seen")) === "true", 5000, "marked as seen");
      await until(async () => !(await page.isDisabled(`${CP} [data-testid="question-reveal"]`)), 10_000, "Reveal enabled");
      await page.click(`${CP} [data-testid="question-reveal"]`);
      await until(async () => (await cpState(page)) === "revealed", 5000, "revealed again");
      assert.equal(await attr(page, `${CP} [data-testid="question-gap"]`, "data-correct"), "right");
      assert.ok((await page.textContent(`${CP} [data-testid="question-seen"]`)).length > 10);
      await shoot(page, `names-seen-${lang}`, 1440);
      await shoot(page, `names-seen-${lang}`, 375);
      await page.waitForSelector(`${CP}[data-kept="true"]`);
      await page.goto(`${url}?v=1&lang=${lang}`, { waitUntil: "load" });
      await until(async () => (await value(page, "question-progress-names")) === "0", 15_000, "not counted");
      assert.deepEqual(consoleErrors, []);
    } finally {
      await browser.close();
    }
  });
}

const DELAY_TEXT = {
  en: { question: "At delay 2, which of RNN and LSTM", labels: ["only RNN", "only LSTM", "both RNN and LSTM", "none"], sep: ", ", chance: "chance" },
  zh: { question: "在延迟 2 时，RNN 与 LSTM 中哪些", labels: ["只有 RNN", "只有 LSTM", "RNN 与 LSTM 都会", "都没有"], sep: "，", chance: "随机猜测" },
};

for (const lang of ["en", "zh"]) {
  test(`long-memory lab (${lang}): Skip waits for the sweep; the reveal follows the verdict`, { timeout: 600_000 }, async () => {
    const browser = await app.launch();
    const t = DELAY_TEXT[lang];
    try {
      const q = `?v=1&lesson=delay&delay=2&length=8&hidden_size=8&lr=0.00001&steps=20&seeds=1&lang=${lang}`;
      const { page, errors: consoleErrors } = await app.open(q, { browser });
      await page.waitForSelector(`${CP}[data-key="delay-chance"]`, { timeout: 60_000 });
      const question = await page.textContent(`${CP} [data-testid="question-text"]`);
      assert.ok(question.includes(t.question), question);
      const labels = await page.$$eval(`${CP} [data-testid^="question-choice-"]`, (els) => els.map((e) => e.parentElement.textContent.trim()));
      assert.deepEqual(labels, t.labels);
      await page.click(`${CP} [data-testid="question-skip"]`);
      await until(async () => (await cpState(page)) === "locked", 5000, "a skip before the sweep waits");
      assert.ok(await page.isDisabled(`${CP} [data-testid="question-reveal"]`));
      await page.click('[data-testid="delay-start"]');
      await until(async () => (await value(page, "delay-status")) === "finished", 300_000, "the sweep", 500);
      const outcome = await value(page, "delay-outcome");
      assert.equal(outcome, "all-at-chance", "lr 0.00001 for 20 steps stays at chance");
      await until(async () => !(await page.isDisabled(`${CP} [data-testid="question-reveal"]`)), 10_000, "Reveal enabled");
      await page.click(`${CP} [data-testid="question-reveal"]`);
      await until(async () => (await cpState(page)) === "revealed", 5000, "revealed");
      assert.equal(await attr(page, CP, "data-value"), "3", "none of the cells left chance");
      const why = await page.textContent(`${CP} [data-testid="question-why"]`);
      const re = new RegExp(`RNN 0\\.\\d{3}${t.sep}LSTM 0\\.\\d{3} ?[（(]${t.chance} 0\\.100`);
      assert.match(why, re);
      if (lang === "zh") assert.ok(!/[A-Za-z]{3,}/.test(why.replace(/RNN|LSTM/g, "")), `zh explanation: ${why}`);
      await shoot(page, `delay-revealed-${lang}`, 1440);
      await shoot(page, `delay-revealed-${lang}`, 375);
      // Answered after the sweep: kept as answered after seeing, not counted by the index.
      await page.setViewportSize({ width: 1440, height: 1000 });
      await page.click(`${CP} [data-testid="question-again"]`);
      await until(async () => (await cpState(page)) === "open", 5000, "open again");
      assert.ok(await page.isVisible(`${CP} [data-testid="question-late"]`), "the question warns first");
      await page.click(`${CP} [data-testid="question-choice-3"]`);
      await page.click(`${CP} [data-testid="question-lock"]`);
      await until(async () => (await attr(page, CP, "data-seen")) === "true", 5000, "marked as seen");
      await page.click(`${CP} [data-testid="question-reveal"]`);
      await until(async () => (await cpState(page)) === "revealed", 5000, "revealed");
      assert.ok(await page.isVisible(`${CP} [data-testid="question-seen"]`));
      await page.waitForSelector(`${CP}[data-kept="true"]`);
      await page.goto(`${app.url}?v=1&lang=${lang}`, { waitUntil: "load" });
      await until(async () => (await value(page, "question-progress-delay")) === "0", 15_000, "not counted");
      assert.deepEqual(consoleErrors, []);
    } finally {
      await browser.close();
    }
  });
}

test("quiz=0 hides the labs' questions", { timeout: 120_000 }, async () => {
  const browser = await app.launch();
  try {
    for (const q of [`${TINY}&quiz=0`, "?v=1&lesson=delay&quiz=0"]) {
      const { page } = await app.open(q, { browser });
      await page.waitForSelector(".layout, .dl-page, [data-testid=\"delay-start\"]", { timeout: 60_000 });
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(await page.$(CP), null, `no question with ${q}`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
});
