// Accessibility in headless Chromium on the release build: axe-core's WCAG 2.1 A and AA rules on
// every page, in English and Chinese, at 1440 and 375 px, and the keyboard alone through one
// lesson and one lab.
//
// - axe: every page and lab (the index, with a URL notice; the eight lessons; the names lab and its
//   sub-views; the delay lab; the long-memory tasks adding, copy and order) in the states a
//   learner meets: a lesson's question open, revealed, and its tour open; a lab before and
//   after a short run, its question then revealed (the names lab also with a name typed, slow
//   motion, compare mode and the PyTorch script open); an embedded lesson and lab. Each page view (page, state, language,
//   width) is audited with axe-core from node_modules. A violation of impact serious or critical
//   fails the test; every violation is printed by rule, impact, page view and target selector,
//   and the counts by rule go to scripts/e2e/out/a11y/violations.json.
// - Keyboard: lesson 5 (a slider, a radio group, the question: predict, lock, reveal) and the
//   names lab (a setting, Start, a setting changed after the run) with Tab, Shift+Tab, the arrow
//   keys, Enter and Space only.
//
// A rule is switched off only for the elements it misjudges (EXCEPTIONS, each with its reason).
// UNROLL_A11Y_SHOTS=1 also writes a screenshot of every page view to scripts/e2e/out/a11y/.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/a11y.test.mjs`
// (without UNROLL_E2E_SKIP_BUILD it builds dist/ first).

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { e2e } from "./fixture.mjs";
import { OUT, openPage, value, until, LESSONS } from "./lib.mjs";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const DIR = join(OUT, "a11y");
const SHOTS = process.env.UNROLL_A11Y_SHOTS === "1";

/** WCAG 2.0 and 2.1, levels A and AA. */
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
/**
 * Rules run besides the tagged ones: 2.5.3 "Label in name" (axe files its rule as experimental)
 * and the best practice that a table's header cells have text.
 */
const EXTRA_RULES = ["label-content-name-mismatch", "empty-table-header"];

/**
 * A rule switched off for the elements (and their descendants) that `selector` matches, each as
 * `{ rule, selector, reason }`, where the rule misjudges them (say, a chart legend's swatch).
 * None is needed now; a rule is never switched off for the whole page.
 */
const EXCEPTIONS = [];

const VIEWS = [
  ["en", 1440],
  ["zh", 1440],
  ["en", 375],
  ["zh", 375],
];
const CP = '[data-testid="question"]';
/** The names lab, small enough that one epoch takes seconds on the CPU path. */
const NAMES = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=256&epochs=1&seed=3&backend=cpu";
const TINY_MEMORY = "hidden_size=8&seeds=1&backend=cpu";
const MEMORY = {
  adding: `length=5&steps=10&${TINY_MEMORY}`,
  copy: `length=3&steps=10&${TINY_MEMORY}`,
  order: `length=62&steps=5&${TINY_MEMORY}`,
};

const app = e2e({ data: "real" });
let browser;
/** Every violation found: { view, rule, impact, help, target, summary }. */
const found = [];

before(async () => {
  browser = await app.sharedBrowser();
});

after(async () => {
  mkdirSync(DIR, { recursive: true });
  const byRule = {};
  for (const f of found) {
    const r = (byRule[f.rule] ??= { impact: f.impact, nodes: 0, views: new Set() });
    r.nodes += 1;
    r.views.add(f.view);
  }
  const summary = Object.fromEntries(
    Object.entries(byRule).map(([rule, r]) => [rule, { impact: r.impact, nodes: r.nodes, views: r.views.size }]),
  );
  writeFileSync(join(DIR, "violations.json"), JSON.stringify({ summary, views: audited, violations: found }, null, 2));
  console.log(`axe: ${audited} page views, ${found.length} violating nodes`);
  for (const [rule, r] of Object.entries(summary)) console.log(`  ${rule} (${r.impact}): ${r.nodes} nodes in ${r.views} views`);
});

/** Opens `query` (in `context`, by default the shared browser's) and waits for `ready` (a selector). */
async function open(query, ready, context = browser.context) {
  const { page, consoleErrors } = await openPage(context, app.url, query);
  await page.waitForSelector(ready, { timeout: 60_000 });
  return { page, consoleErrors };
}

/** Two animation frames: what a change has drawn is on screen. */
const frames = (page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

/**
 * Shows the page in `lang` at `width` px: the header's language switch (the page keeps its
 * state), or for an embedded page (no header) the same link with `lang`.
 */
async function show(page, lang, width, ready) {
  const want = lang === "zh" ? "zh-CN" : "en";
  if ((await page.getAttribute("html", "lang")) !== want) {
    const button = await page.$(`[data-testid="lang-${lang}"]`);
    if (button) await button.click();
    else {
      const url = new URL(page.url());
      url.searchParams.set("lang", lang);
      await page.goto(url.href, { waitUntil: "load" });
      await page.waitForSelector(ready, { timeout: 60_000 });
    }
    await until(async () => (await page.getAttribute("html", "lang")) === want, 5000, `<html lang=${want}>`, 50);
  }
  if (page.viewportSize().width !== width) await page.setViewportSize({ width, height: 900 });
  await frames(page);
}

/**
 * Injects axe-core into the page (once per document), and lays out the labs' panels out of view,
 * which the pages skip until scrolled to (`content-visibility: auto`): axe reads them all.
 */
async function prepare(page) {
  if (await page.evaluate(() => typeof window.axe === "object")) return;
  await page.addScriptTag({ path: AXE });
  await page.addStyleTag({ content: ".training-page .panel { content-visibility: visible !important; }" });
  await frames(page);
}

/** Runs axe in the page; returns its violations, less the EXCEPTIONS, with the nodes' targets. */
function runAxe({ tags, extra, exceptions }) {
  const rules = Object.fromEntries(extra.map((id) => [id, { enabled: true }]));
  return window.axe
    .run(document, { runOnly: { type: "tag", values: tags }, rules, resultTypes: ["violations"] })
    .then((r) =>
      r.violations
        .map((v) => ({
          rule: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes
            .filter((n) => {
              const el = document.querySelector(n.target[0]);
              return !exceptions.some((x) => x.rule === v.id && el?.closest(x.selector));
            })
            .map((n) => ({ target: n.target.join(" "), summary: n.failureSummary?.split("\n").slice(0, 3).join(" ") ?? "" })),
        }))
        .filter((v) => v.nodes.length > 0),
    );
}

let audited = 0;

/**
 * Audits `page` (page name `name`, e.g. "lesson gru, revealed") in each of `views`; records every
 * violation and returns those of impact serious or critical, one line each.
 */
async function audit(page, name, { views = VIEWS, ready = "body" } = {}) {
  const serious = [];
  for (const [lang, width] of views) {
    await show(page, lang, width, ready);
    await prepare(page);
    const view = `${name} · ${lang} · ${width}px`;
    if (SHOTS) {
      mkdirSync(DIR, { recursive: true });
      const file = `${name}-${lang}-${width}`.replace(/[^a-z0-9-]+/gi, "_");
      await page.screenshot({ path: join(DIR, `${file}.png`), fullPage: true });
    }
    const violations = await page.evaluate(runAxe, { tags: TAGS, extra: EXTRA_RULES, exceptions: EXCEPTIONS });
    audited += 1;
    for (const v of violations) {
      for (const n of v.nodes) {
        const line = `${v.rule} (${v.impact}) · ${view} · ${n.target}: ${v.help}. ${n.summary}`;
        found.push({ view, rule: v.rule, impact: v.impact, help: v.help, target: n.target, summary: n.summary });
        if (v.impact === "serious" || v.impact === "critical") serious.push(line);
        else console.log(`not failing (${v.impact}): ${line}`);
      }
    }
  }
  return serious;
}

/** Fails with every serious or critical violation listed. */
function assertNone(serious, what) {
  assert.equal(serious.length, 0, `${what}: ${serious.length} serious or critical axe violations:\n${serious.join("\n")}`);
}

const cpState = (page) => page.getAttribute(CP, "data-state", { timeout: 5000 });

test("axe: the index, with a URL notice", { timeout: 120_000 }, async () => {
  const { page, consoleErrors } = await open("?v=1&lesson=nope", '[data-testid="lesson-index"]');
  await page.waitForSelector('[data-testid="url-notice"]');
  assertNone(await audit(page, "index"), "index");
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

for (const lesson of LESSONS) {
  test(`axe: lesson ${lesson}: question open, revealed, tour open`, { timeout: 180_000 }, async () => {
    const { page, consoleErrors } = await open(`?v=1&lesson=${lesson}`, CP);
    if (lesson === "parallel") await until(async () => (await value(page, "parallel-status")) === "done", 120_000, "measurements", 250);
    const serious = await audit(page, `${lesson} open`);
    // Predict (the first choice, or the slider as it stands), lock, reveal.
    const choice = await page.$(`${CP} [data-testid="question-choice-0"]`);
    if (choice) await choice.click();
    await page.click(`${CP} [data-testid="question-lock"]`);
    await until(async () => (await cpState(page)) === "locked", 5000, "locked");
    await page.click(`${CP} [data-testid="question-reveal"]`);
    await until(async () => (await cpState(page)) === "revealed", 5000, "revealed");
    serious.push(...(await audit(page, `${lesson} revealed`)));
    // The tour, paused on its first step.
    await page.click('[data-testid="tour-start"]');
    await page.waitForSelector('[data-testid="tour"]');
    await page.click('[data-testid="tour-pause"]');
    serious.push(...(await audit(page, `${lesson} tour`)));
    assertNone(serious, lesson);
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });
}

test("axe: the names lab before and after a short run, and its sub-views", { timeout: 300_000 }, async () => {
  const { page, consoleErrors } = await open(NAMES, `${CP}[data-key="names-baseline"]`);
  const serious = await audit(page, "names open");
  await page.click(`${CP} [data-testid="question-choice-0"]`);
  await page.click(`${CP} [data-testid="question-lock"]`);
  await page.waitForSelector('[data-testid="train-start"]:not([disabled])', { timeout: 120_000 });
  await page.click('[data-testid="train-start"]');
  await until(async () => (await value(page, "train-status")) === "finished", 240_000, "the epoch to finish", 500);
  await until(async () => !(await page.isDisabled(`${CP} [data-testid="question-reveal"]`)), 10_000, "Reveal enabled");
  await page.click(`${CP} [data-testid="question-reveal"]`);
  await until(async () => (await cpState(page)) === "revealed", 5000, "revealed");
  // Sub-views: compare mode's three runs, a name typed (prediction and inspector), slow motion
  // on a validation name, the PyTorch script.
  await page.click('[data-testid="compare-start"]');
  await until(async () => (await value(page, "compare-status")) === "finished", 240_000, "the comparison to finish", 250);
  await page.fill('[data-testid="predict-input"]', "Nakamura");
  await page.waitForSelector('[data-testid="predict-top"] li', { timeout: 30_000 });
  await page.selectOption('[data-testid="slowmo-val"]', "3");
  await page.click('[data-testid="slowmo-run"]');
  await page.waitForSelector('[data-testid="slowmo-next"]', { timeout: 30_000 });
  await page.click('[data-testid="slowmo-next"]');
  await page.$eval('[data-testid="keep-panel"] details', (el) => (el.open = true));
  serious.push(...(await audit(page, "names trained")));
  assertNone(serious, "names lab");
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

test("axe: the delay lab before and after a short sweep, its question revealed", { timeout: 240_000 }, async () => {
  const { page, consoleErrors } = await open(`?v=1&lesson=delay&delay=4&length=12&steps=10&${TINY_MEMORY}`, `${CP}[data-key="delay-chance"]`);
  const serious = await audit(page, "delay open");
  await page.click(`${CP} [data-testid="question-choice-0"]`);
  await page.click(`${CP} [data-testid="question-lock"]`);
  await page.click('[data-testid="delay-start"]');
  await until(async () => (await value(page, "delay-status")) === "finished", 180_000, "the sweep to finish", 250);
  await until(async () => !(await page.isDisabled(`${CP} [data-testid="question-reveal"]`)), 10_000, "Reveal enabled");
  await page.click(`${CP} [data-testid="question-reveal"]`);
  await until(async () => (await cpState(page)) === "revealed", 5000, "revealed");
  serious.push(...(await audit(page, "delay trained")));
  assertNone(serious, "delay lab");
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

test("axe: the long-memory tasks adding, copy and order, one after a short run", { timeout: 240_000 }, async () => {
  const serious = [];
  for (const [task, query] of Object.entries(MEMORY)) {
    const { page, consoleErrors } = await open(`?v=1&lesson=delay&task=${task}&${query}`, '[data-testid="memory-page"]');
    serious.push(...(await audit(page, `${task} open`)));
    if (task === "adding") {
      await page.click('[data-testid="memory-start"]');
      await until(async () => (await value(page, "memory-status")) === "finished", 180_000, "the runs to finish", 250);
      serious.push(...(await audit(page, `${task} trained`)));
    }
    assert.deepEqual(consoleErrors, [], task);
    await page.close();
  }
  assertNone(serious, "long-memory tasks");
});

test("axe: an embedded lesson and an embedded lab", { timeout: 120_000 }, async () => {
  const serious = [];
  for (const [name, query, ready] of [
    ["embed lstm", "?v=1&lesson=lstm&embed=1", CP],
    ["embed delay", `?v=1&lesson=delay&task=copy&${MEMORY.copy}&embed=1`, '[data-testid="memory-page"]'],
  ]) {
    const { page, consoleErrors } = await open(query, ready);
    serious.push(...(await audit(page, name, { ready })));
    assert.deepEqual(consoleErrors, [], name);
    await page.close();
  }
  assertNone(serious, "embeds");
});

/**
 * Presses Tab (Shift+Tab with `back`) until the focused element matches `selector`; returns the
 * number of presses. Fails when `max` presses do not reach it: the control is out of the focus
 * order.
 */
async function tabTo(page, selector, { back = false, max = 150 } = {}) {
  for (let i = 0; i <= max; i++) {
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return i;
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
  }
  throw new Error(`${selector} is not reached with ${max} presses of ${back ? "Shift+Tab" : "Tab"}`);
}

const focusedId = (page) => page.evaluate(() => document.activeElement?.getAttribute("data-testid") ?? null);
const testid = (id) => `[data-testid="${id}"]`;

/** Whether the focus is in the run buttons' row of `button` (on one of them, or on the row). */
const focusInRow = (page, button) =>
  page.evaluate((sel) => {
    const row = document.querySelector(sel)?.parentElement;
    return row !== undefined && row !== null && row.contains(document.activeElement);
  }, button);

// The keyboard tests use a browser of their own: the answers and the model the audits above
// leave in the shared one's storage would open these pages in another state.
test("keyboard only: lesson 5 with its question (predict, lock, reveal)", { timeout: 120_000 }, async () => {
  const own = await app.launch({ webgpu: false });
  try {
    const { page, consoleErrors } = await open("?v=1&lesson=gru", CP, own.context);
    // A slider: Tab to z, two steps right with the arrow key.
    await tabTo(page, testid("gru-z"));
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    await until(async () => new URL(page.url()).searchParams.get("z") === "0.32", 5000, "z = 0.32 in the URL");
    // A radio group: the arrow key picks the other convention, and its panel appears.
    await tabTo(page, "#gru-convention-course");
    await page.keyboard.press("ArrowDown");
    await until(async () => page.isChecked("#gru-convention-pytorch"), 5000, "the PyTorch convention chosen");
    await page.waitForSelector(testid("gru-h-pytorch"), { timeout: 5000 });
    // The question: Space picks a choice, Enter locks, and focus moves to Reveal; Space reveals.
    await tabTo(page, `${CP} ${testid("question-choice-0")}`);
    await page.keyboard.press("Space");
    assert.ok(await page.isChecked(`${CP} ${testid("question-choice-0")}`), "Space picks the focused choice");
    await tabTo(page, `${CP} ${testid("question-lock")}`);
    await page.keyboard.press("Enter");
    await until(async () => (await cpState(page)) === "locked", 5000, "locked by keyboard");
    await until(async () => (await focusedId(page)) === "question-reveal", 2000, "focus on Reveal after Lock");
    await page.keyboard.press("Space");
    await until(async () => (await cpState(page)) === "revealed", 5000, "revealed by keyboard");
    // z = 0.32 < 0.5: h_t stays nearer h_{t−1} (choice 0), as predicted.
    assert.equal(await page.getAttribute(CP, "data-value"), "0");
    assert.equal(await page.getAttribute(CP, "data-prediction"), "0");
    assert.equal(await page.getAttribute(`${CP} ${testid("question-gap")}`, "data-value"), "1");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await own.close();
  }
});

test("keyboard only: the names lab (a setting, a short run, a setting after it, the PyTorch script)", { timeout: 240_000 }, async () => {
  const own = await app.launch({ webgpu: false });
  try {
    const { page, consoleErrors } = await open(NAMES, `${CP}[data-key="names-baseline"]`, own.context);
    await page.waitForSelector('[data-testid="train-start"]:not([disabled])', { timeout: 120_000 });
    // A number field: the arrow key steps the seed, written to the URL.
    await tabTo(page, testid("cfg-seed"));
    await page.keyboard.press("ArrowUp");
    await until(async () => new URL(page.url()).searchParams.get("seed") === "4", 5000, "seed = 4 in the URL");
    // Start with Space: the run finishes, and the focus stays with the run buttons throughout
    // (Start and then Pause are disabled under it).
    await tabTo(page, testid("train-start"));
    await page.keyboard.press("Space");
    await until(async () => (await value(page, "train-status")) !== "idle", 30_000, "the run to start", 100);
    assert.ok(await focusInRow(page, testid("train-start")), `focus on ${await focusedId(page)} once the run started`);
    await until(async () => (await value(page, "train-status")) === "finished", 180_000, "the epoch to finish", 500);
    assert.ok(await focusInRow(page, testid("train-start")), `focus on ${await focusedId(page)} once the run finished`);
    // After the run the form is open again: the cell's select takes the arrow key (GRU → LSTM,
    // the default, which the URL leaves out).
    await tabTo(page, testid("cfg-cell"), { back: true });
    await page.keyboard.press("ArrowUp");
    await until(async () => new URL(page.url()).searchParams.get("cell") === null, 5000, "cell = lstm in the URL");
    assert.equal(await page.inputValue(testid("cfg-cell")), "lstm");
    // A disclosure: Enter on its summary opens the PyTorch script.
    await tabTo(page, `${testid("keep-panel")} summary`, { max: 250 });
    await page.keyboard.press("Enter");
    assert.ok(await page.isVisible(testid("as-pytorch-script")), "the script shows");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await own.close();
  }
});
