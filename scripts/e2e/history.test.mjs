// End-to-end test of the address bar across in-app links, Back, Forward and reload: the bar
// always holds the canonical URL of the page on screen, with its settings, and no history entry
// is overwritten by a page that is hidden (the training and delay pages stay mounted while
// another page shows) or being left; a switch between the long-memory lab's tasks is an entry
// of its own. Also the training page's "Copy link".
//
// Run: `node --test --test-concurrency=1 scripts/e2e/history.test.mjs` (UNROLL_E2E_SKIP_BUILD=1
// reuses dist/).

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { until } from "./lib.mjs";

// Navigation is wiring: the small test data set, one browser for the file.
const app = e2e();

/** The page on screen (the shell hides the kept-mounted pages with `hidden`). */
const SHOWN = ".route:not([hidden])";
const TRAINING = `${SHOWN} .training-page:not(.delay-page)`;
const DELAY = `${SHOWN} [data-testid="delay-page"]`;
const INDEX = `${SHOWN} [data-testid="lesson-index"]`;
const GRU = `${SHOWN} [data-testid="lesson-gru"]`;

/** Opens `query` in the file's browser: the page and its console errors. */
async function open(query) {
  const { page, errors } = await app.open(query);
  return { page, problems: errors };
}

/** `?query` of the address bar. */
const search = (page) => new URL(page.url()).search;

/**
 * Waits until `selector` (a page) is the one on screen, then checks that the address bar holds
 * `expected` and still holds it after the page's deferred URL write (next frame, or 250 ms at
 * the latest) had every chance to change it.
 */
async function shows(page, selector, expected, what) {
  await page.waitForSelector(selector, { timeout: 60_000 });
  await until(() => search(page) === expected, 3000, `${what}: address bar ${expected} (now ${search(page)})`);
  await page.waitForTimeout(600);
  assert.equal(search(page), expected, `${what}: the address bar stays ${expected}`);
  assert.equal(await page.locator(`${SHOWN} [data-testid="copy-link"]`).count(), 1, `${what}: one Copy link on screen`);
}

/** The value of a form field of the page on screen. */
const field = (page, key) => page.inputValue(`${SHOWN} [data-testid="cfg-${key}"]`);

for (const lang of ["zh", "en"]) {
  test(`${lang}: training → lessons → GRU → training, Back, Forward, reload: the bar follows the screen`, { timeout: 180_000 }, async () => {
    const training = `?v=1&lesson=names&hidden_size=16&lang=${lang}`;
    const index = `?v=1&lang=${lang}`;
    const gru = `?v=1&lesson=gru&lang=${lang}`;
    const { page, problems } = await open(training);
    await shows(page, TRAINING, training, "opened");
    assert.equal(await field(page, "hidden_size"), "16");
    const len0 = await page.evaluate(() => history.length);

    await page.click('[data-testid="nav-lessons"]');
    await shows(page, INDEX, index, "header: lessons");
    await page.click(`${SHOWN} [data-testid="lesson-card-gru"] a`);
    await shows(page, GRU, gru, "GRU card");
    await page.click('[data-testid="nav-train"]');
    await shows(page, TRAINING, training, "header: training");
    assert.equal(await page.evaluate(() => history.length), len0 + 3, "each link pushed one entry");

    await page.goBack();
    await shows(page, GRU, gru, "Back");
    await page.goForward();
    await shows(page, TRAINING, training, "Forward");
    assert.equal(await field(page, "hidden_size"), "16");
    await page.reload({ waitUntil: "load" });
    await shows(page, TRAINING, training, "reload");
    assert.equal(await field(page, "hidden_size"), "16", "the reload keeps the setting");

    // Every entry still opens what it showed.
    await page.goBack();
    await shows(page, GRU, gru, "Back after the reload");
    await page.goBack();
    await shows(page, INDEX, index, "Back to the lessons");
    await page.goBack();
    await shows(page, TRAINING, training, "Back to the first entry");
    await page.goForward();
    await shows(page, INDEX, index, "Forward to the lessons");
    await page.reload({ waitUntil: "load" });
    await shows(page, INDEX, index, "reload on the lessons");
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`${lang}: delay → lessons → Back, Forward, reload: the bar follows the screen`, { timeout: 180_000 }, async () => {
    const delay = `?v=1&lesson=delay&delay=64&lang=${lang}`;
    const index = `?v=1&lang=${lang}`;
    const { page, problems } = await open(delay);
    await shows(page, DELAY, delay, "opened");
    await page.click('[data-testid="nav-lessons"]');
    await shows(page, INDEX, index, "header: lessons");
    await page.goBack();
    await shows(page, DELAY, delay, "Back");
    assert.equal(await field(page, "delay"), "64");
    await page.goForward();
    await shows(page, INDEX, index, "Forward");
    await page.goBack();
    await shows(page, DELAY, delay, "Back again");
    await page.reload({ waitUntil: "load" });
    await shows(page, DELAY, delay, "reload");
    assert.equal(await field(page, "delay"), "64", "the reload keeps the setting");
    // The index's link back to the delay page, then Back to the lessons.
    await page.click('[data-testid="nav-lessons"]');
    await shows(page, INDEX, index, "header: lessons again");
    await page.click(`${SHOWN} [data-testid="nav-delay"]`);
    await shows(page, DELAY, delay, "the index's delay link");
    await page.goBack();
    await shows(page, INDEX, index, "Back to the lessons");
    assert.deepEqual(problems, []);
    await page.close();
  });
}

for (const lang of ["en", "zh"]) {
  test(`${lang}: a task switch is an entry of its own: Back shows the task before, with its settings`, { timeout: 180_000 }, async () => {
    const memory = (task) => `${SHOWN} [data-testid="memory-page"][data-value="${task}"]`;
    const adding = `?v=1&lesson=delay&task=adding&length=30&lang=${lang}`;
    const order = `?v=1&lesson=delay&task=order&lang=${lang}`;
    const delay = `?v=1&lesson=delay&lang=${lang}`;
    const { page, problems } = await open(adding);
    await shows(page, memory("adding"), adding, "opened");
    const len0 = await page.evaluate(() => history.length);
    await page.click(`${SHOWN} [data-testid="task-switch-order"]`);
    await shows(page, memory("order"), order, "switched to order");
    await page.click(`${SHOWN} [data-testid="task-switch-delay"]`);
    await shows(page, DELAY, delay, "switched to delay-copy");
    assert.equal(await page.evaluate(() => history.length), len0 + 2, "each switch pushed one entry");
    await page.goBack();
    await shows(page, memory("order"), order, "Back to order");
    await page.goBack();
    await shows(page, memory("adding"), adding, "Back to adding");
    assert.equal(await page.inputValue(`${SHOWN} [data-testid="mcfg-length"]`), "30", "adding's T");
    await page.goForward();
    await shows(page, memory("order"), order, "Forward to order");
    assert.equal(await page.inputValue(`${SHOWN} [data-testid="mcfg-length"]`), "100", "order's own T");
    await page.reload({ waitUntil: "load" });
    await shows(page, memory("order"), order, "reload");
    await page.goBack();
    await shows(page, memory("adding"), adding, "Back after the reload");
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test("Back to an earlier training entry with other settings shows that entry's settings", { timeout: 180_000 }, async () => {
  const first = "?v=1&lesson=names&hidden_size=16&lang=zh";
  const { page, problems } = await open(first);
  await shows(page, TRAINING, first, "opened");
  await page.click('[data-testid="nav-lessons"]');
  await shows(page, INDEX, "?v=1&lang=zh", "header: lessons");
  await page.click('[data-testid="nav-train"]');
  await shows(page, TRAINING, first, "header: training");
  // A changed setting replaces the entry shown, not the first one.
  await page.fill(`${SHOWN} [data-testid="cfg-hidden_size"]`, "32");
  await page.press(`${SHOWN} [data-testid="cfg-hidden_size"]`, "Enter");
  const second = "?v=1&lesson=names&hidden_size=32&lang=zh";
  await shows(page, TRAINING, second, "hidden_size 32");
  await page.goBack();
  await shows(page, INDEX, "?v=1&lang=zh", "Back to the lessons");
  await page.goBack();
  await shows(page, TRAINING, first, "Back to the first entry");
  assert.equal(await field(page, "hidden_size"), "16", "the first entry's setting");
  await page.goForward();
  await page.goForward();
  await shows(page, TRAINING, second, "Forward to the second entry");
  assert.equal(await field(page, "hidden_size"), "32", "the second entry's setting");
  await page.reload({ waitUntil: "load" });
  await shows(page, TRAINING, second, "reload");
  assert.equal(await field(page, "hidden_size"), "32");
  assert.deepEqual(problems, []);
  await page.close();
});

for (const lang of ["en", "zh"]) {
  test(`${lang}: the training page's Copy link copies its canonical URL, settings included`, { timeout: 120_000 }, async () => {
    await (await app.sharedBrowser()).context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url.replace(/\/$/, "") });
    // A query that is not canonical: the link copied is the canonical one.
    const { page, problems } = await open(`?lesson=names&hidden_size=16&seed=3&lang=${lang}&v=1`);
    await page.waitForSelector(TRAINING, { timeout: 60_000 });
    const expected = `?v=1&lesson=names&hidden_size=16&seed=3&lang=${lang}`;
    await until(() => search(page) === expected, 3000, `canonical URL (now ${search(page)})`);
    const button = page.locator(`${TRAINING} [data-testid="copy-link"]`);
    assert.equal(await button.textContent(), lang === "zh" ? "复制链接" : "Copy link");
    // The clipboard is emptied before each click: the status alone would still say "copied"
    // from the click before.
    const copy = async () => {
      await page.evaluate(() => navigator.clipboard.writeText(""));
      await button.click();
      const status = page.locator(`${TRAINING} [data-testid="copy-link-status"]`);
      let text = "";
      await until(async () => {
        const s = await status.getAttribute("data-value");
        if (s === "copied") text = await page.evaluate(() => navigator.clipboard.readText());
        if (s === "manual") text = await page.inputValue(`${TRAINING} [data-testid="copy-link-text"]`);
        return text !== "";
      }, 5000, "the link copied");
      return text;
    };
    assert.equal(await copy(), app.url.replace(/\/$/, "") + "/" + expected);
    // A changed setting is in the next copy, at once.
    await page.fill(`${SHOWN} [data-testid="cfg-hidden_size"]`, "48");
    await page.press(`${SHOWN} [data-testid="cfg-hidden_size"]`, "Enter");
    const copied = await copy();
    assert.equal(new URL(copied).searchParams.get("hidden_size"), "48", copied);
    assert.equal(copied, page.url());
    assert.deepEqual(problems, []);
    await page.close();
  });
}
