// End-to-end checks of the figures' SVG and PNG downloads (`data-testid="export-svg"` /
// `"export-png"`) in headless Chromium: on every lesson with a figure and on the names, delay
// and long-memory pages (before any training: the charts' empty frames), every visible button
// downloads a file named as its `data-file`; each SVG parses as XML with an `<svg>` root and
// text as `<text>`; each PNG has the PNG signature and twice its figure's CSS width. Lesson 1's
// diagram holds h₁ = tanh(0.5) = 0.4621 as text, and with `lang=zh` the lesson's and a chart's
// SVG hold Chinese text. The charts' files carry the page's configuration in their names.
// While a lesson's question is open, every figure with a blurred part waits (its buttons
// disabled, the row saying why, in English and Chinese); after the reveal its SVG holds the
// numbers unblurred, no test hooks, and its legend (lesson 4's belt and its gradient chart).
//
// Run: `node --test --test-concurrency=1 scripts/e2e/figures-export.test.mjs`
// (UNROLL_E2E_SKIP_BUILD=1 reuses dist/).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { e2e } from "./fixture.mjs";
import { rustFixed } from "./lib.mjs";

// Every lesson with a figure (the softmax lesson is tables only), its question hidden (`quiz=0`):
// every figure is offered.
const LESSONS = [
  ["unroll", "&quiz=0"],
  ["lstm", "&quiz=0"],
  ["gru", "&quiz=0"],
  ["bidir", "&quiz=0"],
  ["bptt", "&quiz=0"],
  ["shapes", "&quiz=0"],
  ["parallel", "&max_len=64&hidden_size=32&quiz=0"],
];
const PAGES = [
  ["names", "&cell=gru&hidden_size=8&batch_size=256&epochs=1&seed=3&backend=cpu"],
  ["delay", "&hidden_size=16&steps=100"],
  ["delay", "&task=adding&hidden_size=8"],
];
const CJK = /[\u4e00-\u9fff]/;

// The figures as exported, whatever the run learnt: the small test data set, one browser.
const app = e2e();

/** Clicks `button` and returns the download's suggested name and bytes. */
async function grab(page, button) {
  const [dl] = await Promise.all([page.waitForEvent("download", { timeout: 20_000 }), button.click()]);
  return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
}

/** Parses `text` as SVG in the page: whether it is well-formed with an `<svg>` root, and its text. */
function parseSvg(page, text) {
  return page.evaluate((t) => {
    const d = new DOMParser().parseFromString(t, "image/svg+xml");
    const texts = [...d.querySelectorAll("text")].map((e) => e.textContent);
    return { ok: !d.querySelector("parsererror") && d.documentElement.localName === "svg", texts };
  }, text);
}

/**
 * The CSS width of the figure whose export row holds `button`: the chart's canvas, or the `<svg>`
 * before the row together with its legend's entries (inside the figure or right after the row).
 */
function figureWidth(button) {
  return button.evaluate((b) => {
    const row = b.parentElement;
    const canvas = row.closest("figure.chart")?.querySelector("canvas");
    // A chart's SVG is drawn at its canvas's CSS content box (clientWidth).
    if (canvas) return canvas.clientWidth;
    const before = row.previousElementSibling;
    const svg = before?.localName === "svg" ? before : before?.querySelector("svg");
    const next = row.nextElementSibling;
    const legend = before?.querySelector(".lx-legend-list") ?? (next?.matches(".lx-legend-list") ? next : null);
    const boxes = [svg, ...(legend ? legend.children : [])].map((e) => e.getBoundingClientRect());
    return Math.max(...boxes.map((r) => r.right)) - Math.min(...boxes.map((r) => r.left));
  });
}

/** Downloads every visible figure export of the page; returns the SVGs' texts by file name. */
async function exportAll(page, label) {
  await page.waitForSelector('[data-testid="export-svg"]', { timeout: 60_000 });
  const svgs = {};
  let count = 0;
  for (const kind of ["svg", "png"]) {
    const buttons = await page.locator(`[data-testid="export-${kind}"]`).all();
    for (const button of buttons) {
      if (!(await button.isVisible())) continue;
      const file = await button.getAttribute("data-file");
      assert.match(file, new RegExp(`^unroll-[a-z0-9.-]+\\.${kind}$`), `${label}: file name ${file}`);
      const { name, bytes } = await grab(page, button);
      assert.equal(name, file, `${label}: the download's name`);
      assert.ok(bytes.length > 100, `${label}: ${file} is ${bytes.length} bytes`);
      if (kind === "svg") {
        const text = bytes.toString("utf8");
        const parsed = await parseSvg(page, text);
        assert.ok(parsed.ok, `${label}: ${file} parses as SVG`);
        assert.ok(parsed.texts.length > 0, `${label}: ${file} has text`);
        svgs[file] = parsed.texts.join(" ");
      } else {
        assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${label}: ${file} is a PNG`);
        const width = bytes.readUInt32BE(16);
        const css = await figureWidth(button);
        assert.ok(Math.abs(width - 2 * css) <= 1, `${label}: ${file} is ${width} px wide, the figure ${css} CSS px`);
      }
      count += 1;
    }
  }
  assert.ok(count >= 2, `${label}: ${count} downloads`);
  console.log(`${label}: ${count} downloads (${Object.keys(svgs).join(", ")})`);
  return svgs;
}

test("every lesson's figures download as SVG and PNG; lesson 1's diagram holds h1 = 0.4621", async () => {
  for (const [lesson, params] of LESSONS) {
    const { page, errors: consoleErrors } = await app.open(`?v=1&lesson=${lesson}${params}`);
    try {
      const svgs = await exportAll(page, lesson);
      if (lesson === "unroll") {
        assert.ok(svgs["unroll-rnn-t2.svg"], "lesson 1's diagram at t = 2");
        assert.ok(svgs["unroll-rnn-t2.svg"].includes("0.4621"), svgs["unroll-rnn-t2.svg"]);
      }
      if (lesson === "lstm") assert.ok(Object.keys(svgs).some((f) => /^unroll-lstm-t\d+\.svg$/.test(f)), "the belt at its step");
      assert.deepEqual(consoleErrors, [], lesson);
    } finally {
      await page.close();
    }
  }
});

/** Skips the page's question (it is then revealed, without a prediction). */
async function skip(page) {
  await page.waitForSelector('[data-testid="question"][data-state="open"]');
  await page.locator('[data-testid="question-skip"]').click();
  await page.waitForSelector('[data-testid="question"][data-state="revealed"]');
}

/** The export rows of the page whose figure (or legend) has a blurred part, and whether each waits. */
function veiledRows(page) {
  return page.$$eval(".figure-export", (rows) =>
    rows
      .filter((row) => {
        const within = (e) => e && (e.matches(".lx-veiled") || e.closest(".lx-veiled") || e.querySelector(".lx-veiled"));
        const next = row.nextElementSibling;
        return within(row.previousElementSibling) || (next?.matches(".lx-legend-list") && within(next));
      })
      .map((row) => ({
        held: row.dataset.held,
        disabled: [...row.querySelectorAll("button")].every((b) => b.disabled),
        note: row.querySelector('[data-testid="export-held"]')?.textContent ?? null,
      })),
  );
}

for (const lang of ["en", "zh"]) {
  test(`${lang}: while a question is open its figures wait; after the reveal they carry the numbers and their legends`, async () => {
    const note = lang === "zh" ? /此图显示了答案/ : /This figure shows the answer/;
    // Lessons 1, 3, 4 and 5 blur parts of their figures while their question is open.
    // A profile of its own: the answers given here are kept in it.
    const fresh = await app.launch();
    try {
    for (const [lesson, params] of [["unroll", ""], ["bptt", ""], ["lstm", "&t=2"], ["gru", ""]]) {
      const { page, errors: consoleErrors } = await app.open(`?v=1&lesson=${lesson}${params}&lang=${lang}`, { browser: fresh });
      try {
        await page.waitForSelector('[data-testid="question"][data-state="open"]', { timeout: 60_000 });
        await page.waitForTimeout(300);
        const rows = await veiledRows(page);
        assert.ok(rows.length >= 1, `${lesson}: a figure shows the answer`);
        for (const r of rows) {
          assert.equal(r.held, "true", `${lesson}: the figure waits`);
          assert.ok(r.disabled, `${lesson}: its buttons are disabled`);
          assert.match(r.note ?? "", note, `${lesson}: the row says why`);
        }
        await skip(page);
        await page.waitForTimeout(300);
        assert.equal(await page.locator('[data-testid="export-held"]').count(), 0, `${lesson}: nothing waits after the reveal`);
        assert.deepEqual(await veiledRows(page), [], `${lesson}: nothing blurred after the reveal`);
        assert.deepEqual(consoleErrors, [], lesson);
      } finally {
        await page.close();
      }
    }
    // After the reveal: lesson 1's diagram holds h₂ and h₃, unblurred and without test hooks.
    {
      const { page } = await app.open(`?v=1&lesson=unroll&lang=${lang}`, { browser: fresh });
      await page.waitForSelector('[data-testid="question"][data-state="revealed"]');
      const { name, bytes } = await grab(page, page.locator('[data-testid="export-svg"]').first());
      assert.equal(name, "unroll-rnn-t2.svg");
      const text = bytes.toString("utf8");
      const parsed = await parseSvg(page, text);
      for (const s of [2, 3]) {
        const h = Number((await page.getAttribute(`[data-testid="unroll-h-${s}"]`, "data-value")).split(",")[0]);
        const shown = rustFixed(h, 4).replace("-", "−");
        assert.ok(parsed.texts.includes(shown), `h${s} = ${shown} in ${parsed.texts.join(" ")}`);
      }
      assert.doesNotMatch(text, /blur\(/, "nothing blurred");
      assert.doesNotMatch(text, /data-(testid|value)=/, "no test hooks");
      await page.close();
    }
    // Lesson 4: the belt (at its last step, the answer) and the gradient chart with their legends.
    {
      const { page } = await app.open(`?v=1&lesson=lstm&t=2&lang=${lang}`, { browser: fresh });
      await page.waitForSelector('[data-testid="question"][data-state="revealed"]');
      const legend = async (selector) => (await page.$$eval(`${selector} li`, (li) => li.map((l) => l.textContent.trim())));
      const belt = await grab(page, page.locator('[data-testid="lstm-belt"] ~ .figure-export [data-testid="export-svg"], .lx-scroll:has([data-testid="lstm-belt"]) + .figure-export [data-testid="export-svg"]').first());
      assert.equal(belt.name, "unroll-lstm-t2.svg");
      const beltSvg = await parseSvg(page, belt.bytes.toString("utf8"));
      const beltLegend = await legend('[data-testid="lstm-belt-legend"]');
      assert.equal(beltLegend.length, 3);
      for (const l of beltLegend) assert.ok(beltSvg.texts.includes(l), `the belt's legend “${l}” in ${beltSvg.texts.join(" | ")}`);
      const c2 = Number(await page.getAttribute('[data-testid="lstm-c-2"]', "data-value"));
      const c2Text = rustFixed(c2, 4).replace("-", "−");
      assert.ok(beltSvg.texts.some((t) => t.includes(c2Text)), `C₂ = ${c2Text} on the belt`);
      const chart = await grab(page, page.locator('.lx-chart-wrap:has([data-testid="lstm-compare-chart"]) + .figure-export [data-testid="export-svg"]'));
      const chartSvg = await parseSvg(page, chart.bytes.toString("utf8"));
      const chartLegend = await legend('.lx-chart-wrap:has([data-testid="lstm-compare-chart"]) .lx-legend-list');
      assert.equal(chartLegend.length, 2);
      for (const l of chartLegend) assert.ok(chartSvg.texts.includes(l), `the chart's legend “${l}” in ${chartSvg.texts.join(" | ")}`);
      if (lang === "zh") assert.ok(beltLegend.every((l) => CJK.test(l)), `the belt's legend in Chinese: ${beltLegend.join(" | ")}`);
      await page.close();
    }
    } finally {
      await fresh.close();
    }
  });
}

test("the names, delay and long-memory pages' charts download as SVG and PNG", async () => {
  for (const [lesson, params] of PAGES) {
    const { page, errors: consoleErrors } = await app.open(`?v=1&lesson=${lesson}${params}`);
    try {
      const svgs = await exportAll(page, `${lesson}${params}`);
      // Plotters writes the axes' labels as text.
      assert.ok(Object.values(svgs).some((t) => /[A-Za-z]/.test(t)));
      // The files carry the page's configuration: the cell and size, the delay and cells, the task and T.
      const tag = { names: "-gru-h8.svg", delay: params.includes("task=adding") ? "-adding-t50.svg" : "-d8-both.svg" }[lesson];
      for (const file of Object.keys(svgs)) assert.ok(file.endsWith(tag), `${file} carries ${tag}`);
      assert.deepEqual(consoleErrors, [], lesson);
    } finally {
      await page.close();
    }
  }
});

test("with lang=zh the SVGs are in Chinese", async () => {
  for (const query of ["?v=1&lesson=unroll&quiz=0&lang=zh", "?v=1&lesson=delay&hidden_size=16&steps=100&lang=zh"]) {
    const { page, errors: consoleErrors } = await app.open(query);
    try {
      const button = page.locator('[data-testid="export-svg"]').first();
      await button.waitFor({ timeout: 60_000 });
      const { bytes } = await grab(page, button);
      const parsed = await parseSvg(page, bytes.toString("utf8"));
      assert.ok(parsed.ok);
      assert.ok(parsed.texts.some((t) => CJK.test(t)), `${query}: ${parsed.texts.join(" ")}`);
      assert.deepEqual(consoleErrors, [], query);
    } finally {
      await page.close();
    }
  }
});
