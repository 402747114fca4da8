// End-to-end test of the lessons' guided tours and of the stages within a step (headless
// Chromium on the release build).
//
// - Tours: lessons 1 and 4 are played to the end with the keyboard alone (Enter on the Tour
//   button, Enter on Next, ← / →, Enter on Finish): every step outlines an element that exists,
//   the cue changes, the tour's actions show live (lesson 1's W_hh set to 0, lesson 4's belt
//   stopped at each stage) while the URL keeps the learner's state, and afterwards the sliders
//   are the learner's again and the focus is in the question. Esc ends a tour with the settings back; "Keep the tour's
//   settings" keeps them; the tour moves on by itself until paused; a reload or a lesson link
//   mid-tour keeps the learner's settings. Every lesson has a tour
//   ending at its question, and in Chinese its cues have no English.
// - No answer given away: with the question open, every lesson's tour keeps its answer-bearing
//   readout veiled at every step (blurred, hidden from screen readers, "hidden until you
//   answer" read instead), and at the question step neither the page's visible text, its
//   accessible text nor any data-value outside the veil holds the answer that the question,
//   asked about the tour's settings, then reveals (English and Chinese).
// - Stages: during Play, lessons 1, 4 and 6 pass through at least three stages within one step
//   (`data-stage` on the diagram), in order; lesson 4's legend is there; with
//   `prefers-reduced-motion: reduce` the stages still appear, without transitions; after |◀,
//   Play starts with step 1's stages.
// - Screenshots of a tour step and of the belt mid-step with its legend, at 1440 and 375 px, in
//   English and Chinese, go to scripts/e2e/out/tour/.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/tour.test.mjs`
// (without UNROLL_E2E_SKIP_BUILD it builds dist/ first).

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { e2e } from "./fixture.mjs";
import { ANSWER_READOUTS, OUT, openPage, underVeil, until, zhAllowlist, SHOTS, shot, LESSONS, rustFixed } from "./lib.mjs";

const TOUR = '[data-testid="tour"]';

// Lessons only: no names data is read.
const app = e2e();
let browser;

before(async () => {
  browser = await app.sharedBrowser();
});

/**
 * Opens `query` in a new page. With `clock`, the page's timers run on Playwright's clock: time
 * flows as usual, and `page.clock.runFor(ms)` jumps ahead through Play's and the tour's timers
 * (firing every interval, animation frame and timeout on the way) instead of waiting for them.
 */
async function open(query, { reducedMotion, viewport, clock = false, context = browser.context } = {}) {
  const { page, consoleErrors: problems } = await openPage(context, app.url, query, {
    setup: async (p) => {
      if (clock) await p.clock.install();
      if (reducedMotion) await p.emulateMedia({ reducedMotion });
      if (viewport) await p.setViewportSize(viewport);
    },
  });
  await page.waitForSelector('[data-testid="tour-start"]', { timeout: 60_000 });
  return { page, problems };
}

const attr = (page, sel, name) => page.getAttribute(sel, name, { timeout: 5000 });
const testid = (id) => `[data-testid="${id}"]`;
const focused = (page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null);
const step = async (page) => Number(await attr(page, TOUR, "data-step"));

/** What the page's settings are: its URL and every range input's value. */
async function settings(page) {
  const sliders = await page.$$eval('input[type="range"]', (els) =>
    els.filter((e) => !e.closest('[data-testid="question"]')).map((e) => `${e.id}=${e.value}`),
  );
  return { url: page.url(), sliders };
}

/** The step shown: its number, cue, outlined target (which must exist) and focused button. */
async function shown(page) {
  const target = await attr(page, testid("tour-outline"), "data-value");
  assert.ok(await page.$(testid(target)), `the outlined ${target} is on the page`);
  return {
    step: await step(page),
    steps: Number(await attr(page, TOUR, "data-steps")),
    cue: (await page.textContent(testid("tour-cue"))).trim(),
    target,
    focus: await focused(page),
  };
}

/** Starts the tour with the keyboard: the Tour button focused, Enter. */
async function startWithKeys(page) {
  await page.focus(testid("tour-start"));
  await page.keyboard.press("Enter");
  await page.waitForSelector(TOUR, { timeout: 5000 });
  await until(async () => (await focused(page)) === "tour-next", 3000, "the focus on Next");
  // The tour's own advancing is tested on its own; here the keys lead: Shift+Tab to Pause,
  // Enter, Tab back to Next.
  await page.keyboard.press("Shift+Tab");
  assert.equal(await focused(page), "tour-pause");
  await page.keyboard.press("Enter");
  await until(async () => (await attr(page, testid("tour-pause"), "aria-pressed")) === "true", 2000, "paused");
  await page.keyboard.press("Tab");
  assert.equal(await focused(page), "tour-next");
}

test("lesson 1's tour, played to the end with the keyboard, gives the learner's settings back", { timeout: 120_000 }, async () => {
  const { page, problems } = await open("?v=1&lesson=unroll&w_hh=0.7&x=1,2,-1,0.5&t=3");
  const before = await settings(page);
  assert.match(before.url, /w_hh=0\.7/);
  await startWithKeys(page);
  const seen = [];
  for (;;) {
    const s = await shown(page);
    seen.push(s);
    if (s.step <= 3) {
      // The chain at step 2, stage by stage: inputs, cell, output.
      assert.equal(await attr(page, testid("unroll-t-value"), "data-value"), "2");
      assert.equal(await attr(page, testid("unroll-diagram"), "data-stage"), ["inputs", "cell", "output"][s.step - 1]);
    }
    if (s.target === "unroll-w_hh") {
      assert.equal(await page.$eval(testid("unroll-w_hh"), (e) => e.value), "0");
      await page.waitForTimeout(300);
      assert.equal(page.url(), before.url, "the URL keeps the learner's state during the tour");
    }
    if (s.step === s.steps) break;
    assert.equal(s.focus, "tour-next");
    await page.keyboard.press("Enter");
    await until(async () => (await step(page)) === s.step + 1, 3000, `step ${s.step + 1}`);
  }
  assert.equal(seen.length, 5);
  assert.equal(new Set(seen.map((s) => s.cue)).size, seen.length, "a cue per step");
  assert.equal(seen.at(-1).target, "question");
  assert.equal(seen.at(-1).focus, "tour-finish", "the focus stays on the one button");
  await page.keyboard.press("Enter");
  await page.waitForSelector(TOUR, { state: "detached", timeout: 3000 });
  await until(async () => (await settings(page)).url === before.url, 3000, "the learner's URL back");
  assert.deepEqual(await settings(page), before);
  await until(async () => page.evaluate(() => !!document.activeElement?.closest('[data-testid="question"]')), 3000, "the focus in the question");
  assert.deepEqual(problems, []);
  await page.close();
});

test("lesson 4's tour with ← / → stops the belt at each stage, and Finish gives the settings back", { timeout: 120_000 }, async () => {
  const { page, problems } = await open("?v=1&lesson=lstm&f=0.6,0.2&c0=0.5");
  const before = await settings(page);
  await startWithKeys(page);
  const stages = ["carry", "forget", "input", "add", "output"];
  const stageAt = () => attr(page, testid("lstm-belt"), "data-stage");
  assert.equal(await stageAt(), "carry");
  assert.equal(await attr(page, testid("lstm-t-value"), "data-value"), "2");
  for (let k = 1; k < stages.length; k++) {
    await page.keyboard.press("ArrowRight");
    await until(async () => (await stageAt()) === stages[k], 3000, stages[k]);
    assert.equal(await attr(page, testid("lstm-stage-value"), "data-value"), String(k));
  }
  await page.keyboard.press("ArrowLeft");
  await until(async () => (await stageAt()) === "add", 3000, "back to add");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await until(async () => (await step(page)) === 6, 3000, "step 6");
  // The tour moves f₂ to 0.95 and shows the whole step.
  assert.equal(await page.$eval(testid("lstm-f-2"), (e) => e.value), "0.95");
  assert.equal(await stageAt(), "output");
  await page.keyboard.press("ArrowRight");
  await until(async () => (await step(page)) === 7, 3000, "the question step");
  assert.equal((await shown(page)).target, "question");
  await until(async () => (await focused(page)) === "tour-finish", 2000, "the focus on Finish");
  await page.keyboard.press("Enter");
  await page.waitForSelector(TOUR, { state: "detached", timeout: 3000 });
  await until(async () => (await settings(page)).url === before.url, 3000, "the learner's URL back");
  assert.deepEqual(await settings(page), before);
  assert.equal(await stageAt(), "output", "the whole step again");
  assert.deepEqual(problems, []);
  await page.close();
});

test("Esc ends a tour with the settings back; Keep keeps the tour's; the tour moves on until paused", { timeout: 120_000 }, async () => {
  const { page, problems } = await open("?v=1&lesson=gru&z=0.4", { clock: true });
  const before = await settings(page);
  // The open question blurs h_t, and the tour keeps it blurred: it shows how to work h_t out.
  await page.waitForSelector('[data-testid="question"][data-state="open"]');
  await until(async () => (await page.$(".lx-veiled")) !== null, 3000, "h_t blurred before the tour");
  await page.click(testid("tour-start"));
  await page.waitForSelector(TOUR);
  await new Promise((r) => setTimeout(r, 500));
  assert.ok(await page.$(".lx-veiled"), "still blurred during the tour");
  assert.equal(await page.$eval(testid("gru-z"), (e) => e.value), "0.05");
  assert.equal(await attr(page, TOUR, "role"), "dialog");
  assert.equal(await attr(page, testid("tour-cue"), "aria-live"), "polite");
  // Unpaused, the tour moves on by itself (every 7 s).
  await page.clock.runFor(7000);
  await until(async () => (await step(page)) === 2, 3000, "step 2 by itself", 200);
  assert.equal(await page.$eval(testid("gru-z"), (e) => e.value), "0.95");
  await page.click(testid("tour-pause"));
  await until(async () => (await attr(page, testid("tour-pause"), "aria-pressed")) === "true", 2000, "paused");
  await page.clock.runFor(8000);
  assert.equal(await step(page), 2, "paused: no step by itself");
  await page.keyboard.press("Escape");
  await page.waitForSelector(TOUR, { state: "detached", timeout: 3000 });
  await until(async () => (await settings(page)).url === before.url, 3000, "Esc: the learner's URL back");
  await until(async () => (await focused(page)) === "tour-start", 2000, "the focus back on the Tour button");
  await until(async () => (await page.$(".lx-veiled")) !== null, 3000, "blurred after the tour");

  await page.click(testid("tour-start"));
  await page.click(testid("tour-pause"));
  for (let i = 1; i < 4; i++) await page.click(testid("tour-next"));
  await page.click(testid("tour-keep"));
  await page.waitForSelector(TOUR, { state: "detached", timeout: 3000 });
  await until(() => /convention=pytorch/.test(page.url()) && /z=0\.95/.test(page.url()), 3000, "the tour's settings kept");
  assert.deepEqual(problems, []);
  await page.close();
});

test("a reload or a lesson link mid-tour keeps the learner's settings", { timeout: 60_000 }, async () => {
  const { page, problems } = await open("?v=1&lesson=unroll&w_hh=0.7");
  const before = await settings(page);
  await page.click(testid("tour-start"));
  await page.click(testid("tour-pause"));
  for (let i = 1; i < 4; i++) await page.click(testid("tour-next"));
  assert.equal(await page.$eval(testid("unroll-w_hh"), (e) => e.value), "0");
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector(testid("unroll-w_hh"));
  assert.deepEqual(await settings(page), before);
  await page.click(testid("tour-start"));
  for (let i = 1; i < 4; i++) await page.click(testid("tour-next"));
  // The dialog may lie over the link: it is followed with the keyboard.
  await page.focus(testid("nav-next"));
  await page.keyboard.press("Enter");
  await page.waitForSelector(testid("lesson-shapes"));
  await page.goBack();
  await page.waitForSelector(testid("unroll-w_hh"));
  assert.equal(await page.$eval(testid("unroll-w_hh"), (e) => e.value), "0.7");
  assert.deepEqual(problems, []);
  await page.close();
});


/**
 * Records, from the first frame after Play, every (step, stage) the diagram shows: the step
 * from `<lesson>-t-value`, the stage from the diagram's `data-stage`, and whether the lesson's
 * stage parts are mid-transition. Returns the list once Play stops.
 */
async function playAndRecord(page, lesson, diagram) {
  await page.evaluate(
    ([lesson, diagram]) => {
      const rec = (window.__stages = []);
      const tick = () => {
        const d = document.querySelector(`[data-testid="${diagram}"]`);
        const t = document.querySelector(`[data-testid="${lesson}-t-value"]`)?.getAttribute("data-value");
        const stage = d?.getAttribute("data-stage");
        const last = rec.at(-1);
        if (d && (!last || last.t !== t || last.stage !== stage)) {
          const part = d.querySelector(".lx-stage-part");
          rec.push({ t, stage, duration: part ? getComputedStyle(part).transitionDuration : null });
        }
        if (!window.__stagesDone) requestAnimationFrame(tick);
      };
      // Recording starts with the first frame after the click (Play shows its first stage at once).
      document.querySelector(`[data-testid="${lesson}-play"]`).click();
      requestAnimationFrame(tick);
    },
    [lesson, diagram],
  );
  // Play moves on every 0.8 s: the clock jumps a stage at a time until it stops (60 s at most).
  for (let ms = 0; (await attr(page, testid(`${lesson}-play`), "aria-pressed")) !== "false"; ms += 400) {
    assert.ok(ms < 60_000, "Play to stop");
    await page.clock.runFor(400);
  }
  return page.evaluate(() => {
    window.__stagesDone = true;
    return window.__stages;
  });
}

// Each opened at its last step, so Play starts over from step 1.
const STAGES = {
  unroll: { query: "t=3", diagram: "unroll-diagram", names: ["inputs", "cell", "output"] },
  lstm: { query: "t=2", diagram: "lstm-belt", names: ["carry", "forget", "input", "add", "output"] },
  bidir: { query: "t=3", diagram: "bidir-diagram", names: ["forward", "backward", "concat"] },
};

for (const reducedMotion of ["no-preference", "reduce"]) {
  test(`Play passes through the stages of each step on lessons 1, 4 and 6 (${reducedMotion})`, { timeout: 180_000 }, async () => {
    for (const [lesson, { query, diagram, names }] of Object.entries(STAGES)) {
      const { page, problems } = await open(`?v=1&lesson=${lesson}&${query}`, { reducedMotion, clock: true });
      const rec = await playAndRecord(page, lesson, diagram);
      const byStep = new Map();
      for (const r of rec) {
        if (!byStep.has(r.t)) byStep.set(r.t, []);
        byStep.get(r.t).push(r.stage);
      }
      const steps = [...byStep.keys()];
      assert.ok(steps.length >= 2 && steps[0] === "1", `${lesson}: steps ${steps}`);
      for (const [t, stages] of byStep) {
        // Every step from its first stage to its last, in order.
        assert.deepEqual(stages, names, `${lesson} t = ${t}: ${stages}`);
      }
      assert.ok(Math.max(...[...byStep.values()].map((s) => new Set(s).size)) >= 3);
      const durations = new Set(rec.map((r) => r.duration));
      if (reducedMotion === "reduce") assert.deepEqual([...durations], ["0s"], `${lesson}: no tweening`);
      else assert.ok(![...durations].includes("0s"), `${lesson}: the stages tween (${[...durations]})`);
      if (lesson === "lstm") {
        assert.ok(await page.isVisible(testid("lstm-belt-legend")), "the belt's legend");
        assert.match(await page.textContent(testid("lstm-belt-candidate")), /C̃/);
      }
      assert.deepEqual(problems, [], lesson);
      await page.close();
    }
  });
}

test("|◀ then Play plays the first step's stages too (lessons 1, 4 and 6)", { timeout: 180_000 }, async () => {
  for (const [lesson, { query, diagram, names }] of Object.entries(STAGES)) {
    const { page, problems } = await open(`?v=1&lesson=${lesson}&${query}`, { reducedMotion: "reduce", clock: true });
    await page.click(testid(`${lesson}-first`));
    await until(async () => (await attr(page, testid(`${lesson}-t-value`), "data-value")) === "1", 3000, "step 1");
    const rec = await playAndRecord(page, lesson, diagram);
    const first = rec.filter((r) => r.t === "1").map((r) => r.stage);
    assert.deepEqual(first, names, `${lesson}: step 1 stage by stage`);
    assert.deepEqual(problems, [], lesson);
    await page.close();
  }
});

test("the stage slider stops the belt at any stage, the numbers the page's own", { timeout: 60_000 }, async () => {
  const { page, problems } = await open("?v=1&lesson=lstm&t=2", { reducedMotion: "reduce" });
  const setStage = (k) =>
    page.$eval(testid("lstm-stage"), (el, k) => {
      el.value = String(k);
      el.dispatchEvent(new Event("input", { bubbles: true }));
    }, k);
  await setStage(1);
  await until(async () => (await attr(page, testid("lstm-belt"), "data-stage")) === "forget", 3000, "forget");
  const pending = (id) => page.$eval(testid(id), (e) => e.closest(".lx-stage-part").classList.contains("lx-stage-pending"));
  assert.equal(await pending("lstm-belt-kept"), false);
  assert.equal(await pending("lstm-belt-written"), true);
  assert.equal(await pending("lstm-belt-h"), true);
  // The kept part is f₂·C₁ as the table computes it.
  const num = (id) => page.getAttribute(testid(id), "data-value").then(Number);
  assert.ok(Math.abs((await num("lstm-belt-kept")) - (await num("lstm-kept-2"))) < 1e-6);
  await setStage(4);
  await until(async () => (await attr(page, testid("lstm-belt"), "data-stage")) === "output", 3000, "output");
  assert.equal(await pending("lstm-belt-h"), false);
  assert.deepEqual(problems, []);
  await page.close();
});

test("screenshots of a tour step and of the belt mid-step", { timeout: 180_000 }, async () => {
  const dir = join(OUT, "tour");
  mkdirSync(dir, { recursive: true });
  for (const lang of ["en", "zh"]) {
    for (const width of [1440, 375]) {
      const viewport = { width, height: width > 500 ? 900 : 800 };
      const { page, problems } = await open(`?v=1&lesson=lstm&lang=${lang}`, { viewport });
      await page.click(testid("tour-start"));
      await page.click(testid("tour-pause"));
      await page.click(testid("tour-next"));
      await page.click(testid("tour-next"));
      // Step 3: the belt at the input stage, its cue in the dialog.
      if (SHOTS) await page.waitForTimeout(1200);
      await shot(page, { path: join(dir, `tour-${lang}-${width}.png`) });
      await page.keyboard.press("Escape");
      await page.waitForSelector(TOUR, { state: "detached" });
      await page.$eval(testid("lstm-stage"), (el) => {
        el.value = "2";
        el.dispatchEvent(new Event("input", { bubbles: true }));
      });
      if (SHOTS) await page.waitForTimeout(1000);
      const panel = await page.$(`section:has(${testid("lstm-belt")})`);
      await panel.scrollIntoViewIfNeeded();
      await shot(panel, { path: join(dir, `belt-${lang}-${width}.png`) });
      assert.deepEqual(problems, [], `${lang} ${width}`);
      await page.close();
    }
  }
});

/**
 * What the page lets a reader perceive: the text of every node outside a veil (`.lx-veiled`)
 * and outside `aria-hidden` subtrees, with the accessible names (aria-label) outside them, and
 * every data-value outside them; plus whether each veiled element is out of the accessibility
 * tree (aria-hidden, or inside an SVG image) and the stand-ins read in their place.
 */
async function perceivable(page) {
  return page.evaluate(() => {
    const hidden = (el) => !!el.closest('[aria-hidden="true"], .lx-veiled');
    const texts = [];
    const walker = document.createTreeWalker(document.querySelector("main") ?? document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || hidden(el) || el.closest("style, script")) continue;
      if (getComputedStyle(el).display === "none") continue;
      texts.push(n.textContent);
    }
    const labels = [...document.querySelectorAll("main [aria-label]")].filter((e) => !hidden(e)).map((e) => e.getAttribute("aria-label"));
    const values = [...document.querySelectorAll("main [data-value]")]
      .filter((e) => !hidden(e) && !e.closest('[data-testid="tour"]'))
      .map((e) => e.getAttribute("data-value"));
    const veiled = [...document.querySelectorAll(".lx-veiled")];
    const exposed = veiled.filter((v) => !v.closest('[aria-hidden="true"]') && !v.closest('svg[role="img"]')).length;
    const said = [...document.querySelectorAll('[data-testid="veil-said"]')].map((e) => e.textContent);
    return { text: texts.join(" ") + " " + labels.join(" "), values, exposed, said };
  });
}

for (const lang of ["en", "zh"]) {
  // Every lesson's tour, step by step: it has 3 to 7 steps and ends at the lesson's question, in
  // Chinese its texts have no English, and with the question open no step gives the answer away.
  test(`every lesson has a tour ending at its question, giving no answer away; in Chinese its texts have no English (${lang})`, { timeout: 300_000 }, async () => {
    const ok = zhAllowlist();
    const english = (text) => (text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).filter((w) => /[A-Za-z]{3}/.test(w) && !ok.has(w));
    assert.deepEqual(english("The belt carries"), ["The", "belt", "carries"], "the check finds English");
    // A fresh profile: no answer kept from another test.
    const fresh = await app.launch();
    for (const lesson of LESSONS) {
      const { page, problems } = await open(`?v=1&lesson=${lesson}&lang=${lang}&max_len=32&hidden_size=16`, { context: fresh.context });
      await page.waitForSelector('[data-testid="question"][data-state="open"]', { timeout: 30_000 });
      if (lesson === "parallel") await until(async () => (await attr(page, testid("parallel-status"), "data-value")) === "done", 120_000, "measurements", 250);
      await page.click(testid("tour-start"));
      await page.click(testid("tour-pause"));
      const steps = Number(await attr(page, TOUR, "data-steps"));
      assert.ok(steps >= 3 && steps <= 7, `${lesson}: ${steps} steps`);
      let last;
      for (let i = 1; i <= steps; i++) {
        await page.waitForTimeout(150);
        const s = await shown(page);
        assert.equal(s.step, i);
        if (lang === "zh") {
          const text = await page.$eval(TOUR, (e) => e.innerText);
          assert.deepEqual(english(text), [], `${lesson} step ${i}: ${text}`);
        }
        assert.ok(await underVeil(page, ANSWER_READOUTS[lesson]), `${lesson} step ${i}: ${ANSWER_READOUTS[lesson]} stays veiled`);
        last = await perceivable(page);
        assert.equal(last.exposed, 0, `${lesson} step ${i}: every veiled readout is hidden from screen readers`);
        if (i < steps) await page.click(testid("tour-next"));
        else assert.equal(s.target, "question", lesson);
      }
      assert.ok(last.said.length > 0, `${lesson}: a stand-in is read in place of the veiled readouts`);
      assert.ok(last.said.every((t) => t === (lang === "zh" ? "作答前隐藏" : "hidden until you answer")), last.said.join("|"));
      // Keep the tour's settings: the question is now asked about them; Skip reveals its answer.
      await page.click(testid("tour-keep"));
      await page.waitForSelector(TOUR, { state: "detached" });
      await page.click('[data-testid="question"] [data-testid="question-skip"]');
      await page.waitForSelector('[data-testid="question"][data-state="revealed"]');
      const answer = Number(await attr(page, '[data-testid="question"]', "data-value"));
      const revealed = (await page.textContent('[data-testid="question-answer"]')).trim();
      if (lesson === "unroll" || lesson === "lstm") {
        // A number: neither its 4 decimals nor its raw value were perceivable at the question step.
        const four = rustFixed(answer, 4);
        for (const form of [four, four.replace("-", "−")]) assert.ok(!last.text.includes(form), `${lesson}: ${form} shown during the tour`);
        assert.ok(revealed.includes(four.replace("-", "−")), `${lesson}: the reveal shows ${four} (${revealed})`);
        const near = last.values.flatMap((v) => v.split(",")).map(Number).filter((v) => Number.isFinite(v) && Math.abs(v - answer) < 5e-5);
        assert.deepEqual(near, [], `${lesson}: a data-value holds the answer ${answer}`);
      }
      assert.deepEqual(problems, [], `${lesson} ${lang}`);
      await page.close();
    }
    await fresh.close();
  });
}
