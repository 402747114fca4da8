// End-to-end checks of the figures' SVG and PNG downloads (`data-testid="export-svg"` /
// `"export-png"`) in headless Chromium: on every lesson with a figure and on the names, delay
// and long-memory pages (before any training: the charts' empty frames), every visible button
// downloads a file named as its `data-file`; each SVG parses as XML with an `<svg>` root and
// text as `<text>`; each PNG has the PNG signature and twice its figure's CSS width. Lesson 1's
// diagram holds h₁ = tanh(0.5) = 0.4621 as text, and with `lang=zh` the lesson's and a chart's
// SVG hold Chinese text.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/figures-export.test.mjs`
// (UNROLL_E2E_SKIP_BUILD=1 reuses dist/).

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { e2e } from "./fixture.mjs";

// Every lesson with a figure (the softmax lesson is tables only).
const LESSONS = [
  ["unroll", ""],
  ["lstm", ""],
  ["gru", ""],
  ["bidir", ""],
  ["bptt", ""],
  ["shapes", ""],
  ["parallel", "&max_len=64&hidden_size=32"],
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

/** The CSS width of the figure whose export row holds `button`: the chart's canvas or the `<svg>` before the row. */
function figureWidth(button) {
  return button.evaluate((b) => {
    const row = b.parentElement;
    const canvas = row.closest("figure.chart")?.querySelector("canvas");
    const before = row.previousElementSibling;
    const svg = before?.localName === "svg" ? before : before?.querySelector("svg");
    // A chart's SVG is drawn at its canvas's CSS content box (clientWidth).
    return canvas ? canvas.clientWidth : svg.getBoundingClientRect().width;
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

test("the names, delay and long-memory pages' charts download as SVG and PNG", async () => {
  for (const [lesson, params] of PAGES) {
    const { page, errors: consoleErrors } = await app.open(`?v=1&lesson=${lesson}${params}`);
    try {
      const svgs = await exportAll(page, `${lesson}${params}`);
      // Plotters writes the axes' labels as text.
      assert.ok(Object.values(svgs).some((t) => /[A-Za-z]/.test(t)));
      assert.deepEqual(consoleErrors, [], lesson);
    } finally {
      await page.close();
    }
  }
});

test("with lang=zh the SVGs are in Chinese", async () => {
  for (const query of ["?v=1&lesson=unroll&lang=zh", "?v=1&lesson=delay&hidden_size=16&steps=100&lang=zh"]) {
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
