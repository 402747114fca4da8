// End-to-end test of the long-memory tasks on the lab page (`?v=1&lesson=delay&task=…`): builds
// the app with Trunk (release) unless UNROLL_E2E_SKIP_BUILD=1, serves dist/ and drives headless
// Chromium with small sizes (short T, few steps, hidden 8, 2 seeds) given as URL keys.
//
// - Each task (adding, copy, order) states its baseline (`task-baseline`, the formula's value),
//   trains RNN, LSTM and GRU × 2 seeds to the end, draws its held-out curves, fills its summary
//   (one row per run with a finite final loss and a verdict), its chart takes a log axis
//   (`memory-log-y`, the same points), its outcome sentence
//   (`memory-outcome`) and its spread per cell (`memory-spread-row`, lowest ≤ highest), and
//   shows all of it again after a reload, without console errors; the adding page also after
//   leaving to the lessons and coming back.
// - The verdict follows the runs: on a short adding sweep that splits the cells (T = 20, 500
//   steps, hidden 24, 2 seeds: LSTM and GRU beat the baseline on both seeds, the RNN on
//   neither) each cell's spread row counts the seeds that beat the baseline and solved the task
//   as its summary rows show them, the outcome is `split`, and its sentence says so. That the
//   adding problem at its defaults (T = 50, 1500 steps, 3 seeds) comes out so, as in PyTorch, is
//   a native test of the same sweep (core/tests/suite/memory_run.rs).
// - A reload while a sweep's second seed trains keeps the first seed's runs and that seed's
//   checkpoint (IndexedDB), says so (`memory-interrupted`), and Go on (`memory-go-on`) trains the
//   rest from the checkpoint: every run's final figures equal those of the same sweep never
//   interrupted.
// - The form: T, steps and seeds show the task's defaults, write their URL keys, an
//   out-of-range value is adjusted with the page's notice, a T the task cannot take is
//   explained (in English and Chinese), and the form is locked while training.
// - The task switcher moves between delay-copy and the tasks; in lang=zh the page is in Chinese.
//   Each task starts from its own defaults (not the T or budget of the task left) and gets the
//   values set on it back; the pressed tab's label stays readable under the pointer.
// - A URL notice of an unreadable T or budget names the default the task uses (en and zh).
// - Each task page has Copy link, Copy embed code and As PyTorch (the plan shown as a script,
//   downloaded as shown, its panel in Chinese in lang=zh).
//
// Run: `node --test --test-concurrency=1 scripts/e2e/memory.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { e2e } from "./fixture.mjs";
import { OUT, value, num, until } from "./lib.mjs";

// The long-memory tasks need no names data; one browser for the file.
const app = e2e();

async function open(query) {
  const { page, errors: consoleErrors } = await app.open(query, { wait: "memory-page" });
  return { page, consoleErrors };
}

const OUTCOMES = ["no-difference", "split", "all-beat", "seeds-disagree"];

/** What the page shows of a finished sweep: summary rows, spread rows, outcome, chart points. */
async function shown(page) {
  const rows = await page.$$eval('[data-testid="memory-summary-row"]', (rs) =>
    rs.map((r) => ({ cell: r.dataset.cell, seed: r.dataset.seed, loss: Number(r.dataset.value), done: r.dataset.done, text: r.textContent })),
  );
  const spread = await page.$$eval('[data-testid="memory-spread-row"]', (rs) =>
    rs.map((r) => ({ cell: r.dataset.cell, seeds: Number(r.dataset.seeds), min: Number(r.dataset.min), max: Number(r.dataset.max) })),
  );
  return {
    rows,
    spread,
    outcome: await value(page, "memory-outcome"),
    outcomeText: await page.textContent('[data-testid="memory-outcome"]').catch(() => null),
    points: await num(page, "chart-memory-loss"),
  };
}

const TASKS = [
  { task: "adding", query: "length=5&steps=20", baseline: 1 / 6, title: "Adding problem" },
  { task: "copy", query: "length=3&steps=20", baseline: Math.log(8), title: "Copy memory" },
  { task: "order", query: "length=62&steps=10", baseline: Math.log(4), title: "Temporal order" },
];

for (const t of TASKS) {
  test(`${t.task}: baseline, a run to the end, the summary, a reload`, { timeout: 240_000 }, async () => {
    const { page, consoleErrors } = await open(`?v=1&lesson=delay&task=${t.task}&hidden_size=8&seeds=2&${t.query}`);
    assert.equal(await value(page, "memory-page"), t.task);
    assert.equal(await page.isVisible('[data-testid="delay-page"]'), false);
    assert.match(await page.textContent("h1"), new RegExp(t.title));
    const baseline = await num(page, "task-baseline");
    assert.ok(Math.abs(baseline - t.baseline) < 1e-3, `baseline ${baseline} vs ${t.baseline}`);
    for (const cell of ["rnn", "lstm", "gru"]) assert.ok((await num(page, `memory-params-${cell}`)) > 0, cell);
    await page.click('[data-testid="memory-start"]');
    await until(async () => (await value(page, "memory-status")) === "finished", 180_000, `${t.task} finished`);
    assert.equal(await num(page, "memory-progress"), 1);
    assert.ok((await num(page, "chart-memory-loss")) > 0, "chart points");
    // The log axis redraws the same points (the levels are drawn over them: charts/tests.rs).
    const points = await num(page, "chart-memory-loss");
    await page.check('[data-testid="memory-log-y"]');
    await page.waitForTimeout(300);
    assert.equal(await num(page, "chart-memory-loss"), points, "the same points on the log axis");
    if (t.task === "adding") {
      mkdirSync(OUT, { recursive: true });
      const chart = await page.$('section:has([data-testid="chart-memory-loss"])');
      await chart.screenshot({ path: join(OUT, "memory-adding-log.png") });
    }
    await page.uncheck('[data-testid="memory-log-y"]');
    assert.equal(await num(page, "memory-summary"), 6);
    const before = await shown(page);
    assert.deepEqual(before.rows.map((r) => r.cell), ["rnn", "rnn", "lstm", "lstm", "gru", "gru"]);
    for (const r of before.rows) {
      assert.ok(Number.isFinite(r.loss) && r.loss > 0, `${r.cell} loss ${r.loss}`);
      assert.equal(r.done, "true");
      assert.match(r.text, /solved after|not solved within the budget/);
    }
    assert.ok(OUTCOMES.includes(before.outcome), `outcome ${before.outcome}`);
    assert.ok(before.outcomeText.length > 40, before.outcomeText);
    assert.deepEqual(before.spread.map((r) => [r.cell, r.seeds]), [["rnn", 2], ["lstm", 2], ["gru", 2]]);
    for (const r of before.spread) {
      const losses = before.rows.filter((x) => x.cell === r.cell).map((x) => x.loss);
      assert.equal(r.min, Math.min(...losses), `${r.cell} min`);
      assert.equal(r.max, Math.max(...losses), `${r.cell} max`);
    }
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector('[data-testid="memory-page"]', { timeout: 60_000 });
    await until(async () => (await value(page, "memory-status")) === "finished", 10_000, "kept after reload");
    assert.equal(await page.isVisible('[data-testid="memory-interrupted"]'), false);
    assert.deepEqual(await shown(page), before, "the same sweep after a reload");
    if (t.task === "adding") {
      await page.click('[data-testid="nav-lessons"]');
      await until(async () => (await page.$('[data-testid="memory-page"]:visible')) === null, 10_000, "left the page");
      await page.goBack();
      await page.waitForSelector('[data-testid="memory-page"]', { state: "visible", timeout: 30_000 });
      assert.equal(await value(page, "memory-status"), "finished");
      assert.deepEqual(await shown(page), before, "the same sweep after leaving and coming back");
    }
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });
}

test("the verdict follows the runs: a short adding sweep that splits the cells", { timeout: 240_000 }, async () => {
  const { page, consoleErrors } = await open("?v=1&lesson=delay&task=adding&length=20&steps=500&hidden_size=24&seeds=2");
  await page.click('[data-testid="memory-start"]');
  await until(async () => (await value(page, "memory-status")) === "finished", 180_000, "the sweep finished", 500);
  const { rows, outcome, outcomeText } = await shown(page);
  const baseline = await num(page, "task-baseline");
  // A seed beats the baseline below 0.9 of it (memory::outcome::BEATS); "solved" is the task's
  // criterion, as each summary row words it.
  const spread = await page.$$eval('[data-testid="memory-spread-row"]', (rs) =>
    rs.map((r) => [r.dataset.cell, Number(r.dataset.seeds), Number(r.dataset.beat), Number(r.dataset.solved)]),
  );
  const fromRows = ["rnn", "lstm", "gru"].map((cell) => {
    const mine = rows.filter((r) => r.cell === cell);
    return [cell, mine.length, mine.filter((r) => r.loss < 0.9 * baseline).length, mine.filter((r) => /solved after/.test(r.text)).length];
  });
  assert.deepEqual(spread, fromRows, "each cell's counts are its rows'");
  assert.deepEqual(spread.map(([cell, seeds, beat]) => [cell, seeds, beat]), [["rnn", 2, 0], ["lstm", 2, 2], ["gru", 2, 2]]);
  assert.equal(outcome, "split");
  assert.match(outcomeText, /^LSTM and GRU beat the baseline \(0\.1667\) on every seed .*RNN stays on it/);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

test("a reload mid-seed goes on from the seed's checkpoint with the numbers of a sweep never interrupted", { timeout: 400_000 }, async () => {
  // 800 steps a run: the second seed trains for seconds, so a checkpoint of it is kept (the
  // engine keeps one every few seconds, or after a held-out evaluation at most once a second).
  const lab = await app.memory("?v=1&lesson=delay&task=order&hidden_size=8&length=62&steps=800&seeds=2", { wait: "memory-page" });
  const { page, errors: consoleErrors } = lab;
  const finished = async () => (await value(page, "memory-status")) === "finished";
  // The sweep as it comes out uninterrupted.
  await page.click('[data-testid="memory-start"]');
  await until(finished, 240_000, "the whole sweep", 500);
  const whole = await shown(page);
  assert.equal(whole.rows.length, 6);
  // Again, reloaded while its second seed trains (after that seed's checkpoint is kept).
  await page.click('[data-testid="memory-reset"]');
  await until(async () => (await value(page, "memory-status")) === "idle", 5000, "reset");
  await page.click('[data-testid="memory-start"]');
  await until(async () => (await num(page, "memory-time-left")) > 0, 60_000, "time left");
  assert.equal(await page.isDisabled('[data-testid="mcfg-length"]'), true, "the form is locked while training");
  // The engine also keeps a checkpoint as a seed starts (step 0): wait for one of the second
  // seed's training.
  await lab.keptCheckpoint(1, 240_000, { seed: 2 });
  await page.reload({ waitUntil: "load" });
  await page.waitForSelector('[data-testid="memory-interrupted"]', { timeout: 60_000 });
  assert.equal(await num(page, "memory-interrupted"), 3, "the first seed's runs are kept");
  const step = Number(await page.getAttribute('[data-testid="memory-interrupted"]', "data-step"));
  assert.ok(step > 0 && step < 800, `the second seed resumes at step ${step}`);
  assert.match(await page.textContent('[data-testid="memory-interrupted"]'), /with seed 2 of 2 at step/);
  assert.equal(await value(page, "memory-status"), "stopped");
  assert.equal(await num(page, "memory-summary"), 3);
  assert.ok((await num(page, "chart-memory-loss")) > 0, "the kept runs are drawn");
  assert.ok((await num(page, "memory-progress")) > 0.5, "the progress counts the resumed seed's steps");
  assert.equal(await value(page, "memory-outcome"), "unfinished");
  await page.click('[data-testid="memory-go-on"]');
  await until(finished, 240_000, "the rest trained", 500);
  assert.deepEqual(await shown(page), whole, "the numbers of the sweep never interrupted");
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

test("the form: defaults, URL keys, adjusted and impossible values, in both languages", { timeout: 120_000 }, async () => {
  const { page, consoleErrors } = await open("?v=1&lesson=delay&task=adding");
  assert.equal(await page.inputValue('[data-testid="mcfg-length"]'), "50");
  assert.equal(await page.inputValue('[data-testid="mcfg-steps"]'), "1500");
  assert.equal(await page.inputValue('[data-testid="mcfg-seeds"]'), "3");
  assert.equal(await num(page, "memory-budget"), 1500);
  await page.fill('[data-testid="mcfg-length"]', "12");
  await page.dispatchEvent('[data-testid="mcfg-length"]', "change");
  await until(async () => (await num(page, "memory-length")) === 12, 5000, "T = 12");
  await until(async () => /length=12/.test(await page.evaluate(() => location.search)), 5000, "length key");
  await page.fill('[data-testid="mcfg-seeds"]', "9");
  await page.dispatchEvent('[data-testid="mcfg-seeds"]', "change");
  await page.waitForSelector('[data-testid="memory-page"] [data-testid="url-notice"]', { timeout: 5000 });
  assert.equal(await page.inputValue('[data-testid="mcfg-seeds"]'), "5");
  await page.fill('[data-testid="mcfg-seeds"]', "1");
  await page.dispatchEvent('[data-testid="mcfg-seeds"]', "change");
  await until(async () => /1 seed per cell; 3 runs,/.test(await page.textContent('[data-testid="memory-budget"]')), 5000, "one seed, in words");
  await page.goto(`${app.url}?v=1&lesson=delay&task=order&length=12`, { waitUntil: "load" });
  await page.waitForSelector('[data-testid="memory-page"][data-value="order"]', { timeout: 60_000 });
  await until(async () => (await value(page, "memory-error")) === "12", 5000, "order refuses T = 12");
  assert.match(await page.textContent('[data-testid="memory-error"]'), /Temporal order task needs T of at least 62; T = 12/);
  assert.equal(await page.isDisabled('[data-testid="memory-start"]'), true);
  assert.equal(await page.isDisabled('[data-testid="memory-as-pytorch-download"]'), true, "no script for a T the task cannot take");
  await page.click('button.lang-btn:has-text("中文")');
  await until(async () => /至少为 62/.test(await page.textContent('[data-testid="memory-error"]')), 5000, "zh error");
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

/** WCAG's contrast ratio of two `rgb(…)` colours. */
function contrast(a, b) {
  const lum = (c) => {
    const [r, g, bl] = c.match(/[\d.]+/g).slice(0, 3).map((v) => Number(v) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test("task switching: each task starts from its own defaults and gets its own values back; the active tab stays readable", { timeout: 120_000 }, async () => {
  const { page, consoleErrors } = await open("?v=1&lesson=delay&task=adding&length=40&steps=300");
  assert.equal(await num(page, "memory-length"), 40);
  // Order has its own T and budget, not adding's.
  await page.click('[data-testid="task-switch-order"]');
  await page.waitForSelector('[data-testid="memory-page"][data-value="order"]');
  assert.equal(await num(page, "memory-length"), 100);
  assert.equal(await num(page, "memory-budget"), 800);
  assert.equal(await page.$('[data-testid="memory-error"]'), null, "no T that does not fit");
  assert.equal(new URL(page.url()).search, "?v=1&lesson=delay&task=order");
  // Delay-copy has its own steps and length.
  await page.click('[data-testid="task-switch-delay"]');
  await page.waitForSelector('[data-testid="delay-page"]', { state: "visible" });
  assert.equal(await page.inputValue('[data-testid="cfg-steps"]'), "3000");
  assert.equal(await page.inputValue('[data-testid="cfg-length"]'), "96");
  await page.fill('[data-testid="cfg-delay"]', "16");
  await page.dispatchEvent('[data-testid="cfg-delay"]', "change");
  // Adding comes back with what was set on it; so does delay-copy.
  await page.click('[data-testid="task-switch-adding"]');
  await page.waitForSelector('[data-testid="memory-page"][data-value="adding"]');
  assert.equal(await num(page, "memory-length"), 40);
  assert.equal(await num(page, "memory-budget"), 300);
  assert.equal(new URL(page.url()).search, "?v=1&lesson=delay&task=adding&length=40&steps=300");
  await page.click('[data-testid="task-switch-delay"]');
  await page.waitForSelector('[data-testid="delay-page"]', { state: "visible" });
  assert.equal(await page.inputValue('[data-testid="cfg-delay"]'), "16");
  await page.click('[data-testid="task-switch-copy"]');
  await page.waitForSelector('[data-testid="memory-page"][data-value="copy"]');
  // The pressed tab keeps its label readable under the pointer.
  const tab = '[data-testid="task-switch-copy"]';
  assert.equal(await page.getAttribute(tab, "aria-pressed"), "true");
  await page.hover(tab);
  await page.waitForTimeout(300);
  const [color, background] = await page.$eval(tab, (el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
  assert.ok(contrast(color, background) >= 4.5, `label ${color} on ${background} while hovered`);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});

for (const lang of ["en", "zh"]) {
  test(`${lang}: a notice of an unreadable T or budget names the default each task uses`, { timeout: 120_000 }, async () => {
    for (const [task, length, steps] of [["adding", 50, 1500], ["copy", 20, 1000], ["order", 100, 800]]) {
      const { page, consoleErrors } = await open(`?v=1&lesson=delay&task=${task}&length=NaN&steps=lots&lang=${lang}`);
      assert.equal(await num(page, "memory-length"), length);
      assert.equal(await num(page, "memory-budget"), steps);
      const items = await page.$$eval('[data-testid="memory-page"] [data-testid="url-notice"] li', (li) => li.map((l) => l.textContent));
      const [t, s] = lang === "en" ? ["using the default ", "using the default "] : ["已改用默认值 ", "已改用默认值 "];
      assert.deepEqual(
        items.map((i) => i.split(/[;，；]/).at(-1).trim()),
        [`${t}${length}`, `${s}${steps}`],
        `${task}: ${items.join(" | ")}`,
      );
      assert.ok(items[0].startsWith("length") && items[1].startsWith("steps"), items.join(" | "));
      assert.deepEqual(consoleErrors, []);
      await page.close();
    }
  });
}

for (const task of ["adding", "copy", "order"]) {
  test(`${task}: the task page has Copy link, Copy embed code and As PyTorch`, { timeout: 120_000 }, async () => {
    await (await app.sharedBrowser()).context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url.replace(/\/$/, "") });
    const length = { adding: 12, copy: 5, order: 70 }[task];
    const query = `?v=1&lesson=delay&task=${task}&length=${length}&steps=40&seeds=2`;
    const { page, consoleErrors } = await open(query);
    await page.waitForTimeout(600);
    // One Copy link and one Copy embed code on the page shown: the task's.
    assert.equal(await page.locator('[data-testid="copy-link"]').count(), 1);
    assert.equal(await page.locator('[data-testid="copy-embed"]').count(), 1);
    await page.click('[data-testid="memory-page"] [data-testid="copy-link"]');
    await until(async () => (await value(page, "copy-link-status")) !== "", 5000, "copy status");
    const link = (await value(page, "copy-link-status")) === "copied"
      ? await page.evaluate(() => navigator.clipboard.readText())
      : await page.inputValue('[data-testid="copy-link-text"]');
    assert.equal(new URL(link).search, query);
    assert.equal(link, page.url());
    await page.click('[data-testid="memory-page"] [data-testid="copy-embed"]');
    const code = await page.inputValue('[data-testid="copy-embed-text"]', { timeout: 5000 });
    const src = await page.evaluate((html) => new DOMParser().parseFromString(html, "text/html").querySelector("iframe")?.getAttribute("src"), code);
    assert.equal(src, `${link}&embed=1`);
    assert.match(code, new RegExp(`title="${{ adding: "Adding problem", copy: "Copy memory", order: "Temporal order" }[task]} · Unroll"`));
    // As PyTorch: the plan shown, downloaded as shown.
    const panel = '[data-testid="memory-as-pytorch"]';
    const file = `unroll-${task}-t${length}.py`;
    assert.equal(await page.getAttribute(panel, "data-file"), file);
    const script = await page.textContent('[data-testid="memory-as-pytorch-script"]');
    for (const l of [`    task="${task}",`, `    length=${length},`, '    cells=["rnn", "lstm", "gru"],', "    hidden_size=64,", "    steps=40,", "    seeds=2,", "    eval_every=2,"]) {
      assert.ok(script.split("\n").includes(l), `the script has ${l}`);
    }
    assert.ok(script.includes(`    python3 ${file} `), "its usage lines name the offered file");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="memory-as-pytorch-download"]')]);
    assert.equal(download.suggestedFilename(), file);
    assert.equal(readFileSync(await download.path(), "utf8"), script);
    assert.equal(await value(page, "memory-as-pytorch-message"), "ok");
    await page.click('button.lang-btn:has-text("中文")');
    await until(async () => /对应的 PyTorch 代码/.test(await page.textContent(panel)), 5000, "the panel in Chinese");
    assert.doesNotMatch((await page.textContent(panel)).split("#!/usr/bin/env")[0], /Download|Show the script|As PyTorch/);
    assert.deepEqual(consoleErrors, []);
    await page.close();
  });
}

test("the switcher moves between delay-copy and the tasks; lang=zh", { timeout: 120_000 }, async () => {
  const { page, consoleErrors } = await open("?v=1&lesson=delay&task=copy&length=3&lang=zh");
  assert.match(await page.textContent("h1"), /复制记忆/);
  assert.match(await page.textContent('[data-testid="task-baseline"]'), /ln 8 ≈ 2\.079/);
  assert.match(await page.textContent('[data-testid="memory-criterion"]'), /0\.208/);
  await page.click('[data-testid="task-switch-delay"]');
  await page.waitForSelector('[data-testid="delay-page"]', { state: "visible" });
  await until(async () => !(await page.evaluate(() => location.search)).includes("task="), 5000, "task key gone");
  assert.equal(await page.$('[data-testid="memory-page"]'), null);
  await page.click('[data-testid="task-switch-adding"]');
  await page.waitForSelector('[data-testid="memory-page"]');
  assert.match(await page.evaluate(() => location.search), /task=adding/);
  assert.deepEqual(consoleErrors, []);
  await page.close();
});
