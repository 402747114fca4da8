// End-to-end layout checks in headless Chromium:
//
// - Phone (375 px), every lesson and the training page in English and Chinese: no card is wider
//   inside than its box (`scrollWidth ≤ clientWidth`), except elements marked as intended
//   sideways scrollers (`data-scroller`, wide tables and the diagrams, which keep 3/4 of their
//   size); every lesson's worked results (a diagram's: the step shown, scrolled into view) lie
//   inside their card's visible box and the viewport; every label of a diagram is drawn at 11 px
//   or more; the training form is one column. Screenshots go to scripts/e2e/out/phone/ (look at
//   them).
// - Keyboard focus: a focused slider, button, select, checkbox, link and the language switch
//   draw an outline of at least 2 px whose colour has a contrast ratio of at least 3:1 against
//   the pixels it replaces (WCAG 2.2, 1.4.11 and 2.4.13): the background around the control for
//   an outline drawn outside it, the control's own background for one drawn inside it.
// - Printing: a chart in a panel the browser has never laid out (out of view on the training
//   page) is drawn at its laid-out size before printing.
// - The first frame (www/frame.js): while the module's download is held, the page shows its
//   heading in the URL's language (or the browser's), and the app's heading that replaces it
//   is the same, at the same place (1440 and 375 px: the frame draws the header, a lesson's
//   breadcrumb and the sequence lab's task switcher as the app will); a `lesson` the app does
//   not know gets no heading before the app runs.
// - The page's Copy link and Copy embed code buttons sit side by side on every page (1440 px).
//
// Run: `node --test --test-concurrency=1 scripts/e2e/layout.test.mjs` (UNROLL_E2E_SKIP_BUILD=1
// reuses dist/; UNROLL_E2E_SHOTS=0 skips writing the screenshots, as CI=true does).
// Runs alone: with a second file beside it, the phone test finds worked results (lesson 1's
// active step, lesson 4's belts in zh) outside their diagram's box, and still does after 10 s: the
// page scrolled a result into view once, on the frame after it picked it (`keep_in_view`), and a
// box laid out later was not scrolled again. It now tries each frame for up to a second; the file
// stays alone until full runs two at a time show that enough.

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { e2e } from "./fixture.mjs";
import { OUT, renderAllPanels, until, value, SHOTS, shot } from "./lib.mjs";


/** Each lesson's worked results: they must be visible inside their card at 375 px. */
const WORKED = {
  unroll: ["unroll-active-step", "unroll-eq-z", "unroll-eq-h"],
  shapes: ["shapes-param-count", "shapes-grid"],
  bptt: ["bptt-grad-norm"],
  lstm: ["lstm-belt-h", "lstm-belt-c"],
  gru: ["gru-kept", "gru-written"],
  bidir: ["bidir-last-output"],
  softmax: ["softmax-nll"],
  parallel: ["parallel-status"],
};

// What the pages show at two widths, whatever a run learnt: the small test data set; one phone
// and one wide browser for the file.
const app = e2e();
let phone;
let wide;

before(async () => {
  phone = await app.launch({ viewport: { width: 375, height: 812 } });
  wide = await app.launch();
});

async function open(context, query) {
  const { page, errors: problems } = await app.open(query, { browser: { context } });
  await page.waitForSelector(".panel", { timeout: 60_000 });
  return { page, problems };
}

/**
 * Cards wider inside than their box, and scrolling/clipping elements inside cards that overflow
 * sideways without being marked `data-scroller` (nor inside one).
 */
function overflowReport() {
  const out = [];
  const name = (el) =>
    el.getAttribute("data-testid") || `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`;
  for (const card of document.querySelectorAll(".panel")) {
    if (card.scrollWidth > card.clientWidth + 1) out.push(`card ${name(card)}: ${card.scrollWidth} > ${card.clientWidth}`);
    for (const el of card.querySelectorAll("*")) {
      if (el.closest("[data-scroller]")) continue;
      const ox = getComputedStyle(el).overflowX;
      // A screen reader's one-pixel stand-in (clipped on purpose) is no overflow.
      if (ox === "visible" || el.clientWidth <= 1) continue;
      if (el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} in ${name(card)}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  return out;
}

/** For each test id: is it inside its card's box (and the viewport) horizontally? */
function visibleReport(ids) {
  const out = [];
  for (const id of ids) {
    const el = document.querySelector(`[data-testid="${id}"]`);
    if (!el) {
      out.push(`${id}: missing`);
      continue;
    }
    const card = el.closest(".panel");
    const r = el.getBoundingClientRect();
    const c = card.getBoundingClientRect();
    let left = Math.max(c.left, 0);
    let right = Math.min(c.right, window.innerWidth);
    // Scrolling ancestors inside the card clip too.
    for (let a = el.parentElement; a && a !== card; a = a.parentElement) {
      if (getComputedStyle(a).overflowX !== "visible") {
        const ar = a.getBoundingClientRect();
        left = Math.max(left, ar.left);
        right = Math.min(right, ar.right);
      }
    }
    if (r.width === 0 && r.height === 0) out.push(`${id}: not rendered`);
    else if (r.left < left - 1 || r.right > right + 1) out.push(`${id}: [${r.left.toFixed(0)}, ${r.right.toFixed(0)}] outside [${left.toFixed(0)}, ${right.toFixed(0)}]`);
  }
  return out;
}

test("phone, 375 px: cards fit, worked results are in view, the training form is one column", async () => {
  const dir = join(OUT, "phone");
  mkdirSync(dir, { recursive: true });
  const failures = [];
  for (const lang of ["en", "zh"]) {
    for (const [lesson, ids] of Object.entries(WORKED)) {
      const { page, problems } = await open(phone.context, `?v=1&lesson=${lesson}&lang=${lang}`);
      if (lesson === "parallel") await until(async () => (await value(page, "parallel-status")) === "done", 120_000, "measurements", 250);
      await page.waitForTimeout(300);
      for (const o of await page.evaluate(overflowReport)) failures.push(`${lesson} ${lang}: ${o}`);
      for (const o of await page.evaluate(visibleReport, ids)) failures.push(`${lesson} ${lang}: ${o}`);
      // Every label of a diagram: its font size times the drawing's scale.
      const small = await page.evaluate(() =>
        [...document.querySelectorAll("svg.lx-diagram")].flatMap((svg) => {
          const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
          return [...svg.querySelectorAll("text")]
            .filter((t) => t.getBoundingClientRect().width > 0)
            .map((t) => ({ text: t.textContent.trim(), px: parseFloat(getComputedStyle(t).fontSize) * scale }))
            .filter((t) => t.text && t.px < 10.95)
            .map((t) => `${svg.getAttribute("data-testid")} “${t.text}” at ${t.px.toFixed(1)} px`);
        }),
      );
      for (const o of small) failures.push(`${lesson} ${lang}: ${o}`);
      const pageOverflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (pageOverflow > 1) failures.push(`${lesson} ${lang}: the page scrolls sideways by ${pageOverflow} px`);
      await shot(page, { path: join(dir, `${lesson}-375-${lang}.png`), fullPage: true });
      failures.push(...problems.map((p) => `${lesson} ${lang}: ${p}`));
      await page.close();
    }
    const { page, problems } = await open(phone.context, `?v=1&lesson=names&lang=${lang}`);
    await page.waitForSelector(".config-form");
    await page.waitForTimeout(500);
    for (const o of await page.evaluate(overflowReport)) failures.push(`training ${lang}: ${o}`);
    const columns = await page.evaluate(() => getComputedStyle(document.querySelector(".config-form")).gridTemplateColumns.trim().split(/\s+/).length);
    if (columns !== 1) failures.push(`training ${lang}: the form has ${columns} columns`);
    // Every field of the form (its label and control) lies inside the form's box.
    const cut = await page.evaluate(() => {
      const form = document.querySelector(".config-form").getBoundingClientRect();
      return [...document.querySelectorAll(".config-form input, .config-form select, .config-form label")]
        .filter((el) => {
          const r = el.getBoundingClientRect();
          return r.width > 0 && (r.left < form.left - 1 || r.right > form.right + 1 || (el.tagName === "LABEL" && r.height > 80));
        })
        .map((el) => el.getAttribute("data-testid") || el.textContent.trim().slice(0, 30));
    });
    if (cut.length) failures.push(`training ${lang}: fields cut or squeezed: ${cut.join(", ")}`);
    if (SHOTS) {
      await renderAllPanels(page);
      await shot(page, { path: join(dir, `training-375-${lang}.png`), fullPage: true });
    }
    failures.push(...problems.map((p) => `training ${lang}: ${p}`));
    await page.close();
  }
  assert.deepEqual(failures, []);
});

// ---- focus ring contrast ---------------------------------------------------------------------

/**
 * In the page: the focused element's outline and the colour it is compared with, and the
 * WCAG contrast ratio between them.
 */
function focusReport() {
  const el = document.activeElement;
  const parse = (c) => {
    const m = c.match(/rgba?\(([^)]+)\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const bgOf = (start) => {
    for (let e = start; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0.5) return c;
    }
    return [255, 255, 255, 1];
  };
  const lum = ([r, g, b]) => {
    const f = (v) => {
      v /= 255;
      return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const cs = getComputedStyle(el);
  const outline = parse(cs.outlineColor);
  const offset = parseFloat(cs.outlineOffset) || 0;
  const against = offset < 0 ? bgOf(el) : bgOf(el.parentElement);
  const [l1, l2] = [lum(outline), lum(against)].sort((a, b) => b - a);
  return {
    testid: el.getAttribute("data-testid"),
    focusVisible: el.matches(":focus-visible"),
    style: cs.outlineStyle,
    width: parseFloat(cs.outlineWidth),
    color: cs.outlineColor,
    against: `rgb(${against.slice(0, 3).join(", ")})`,
    ratio: (l1 + 0.05) / (l2 + 0.05),
  };
}

/** Focuses `id` as a keyboard user does (focus, then Tab away and Shift+Tab back). */
async function keyboardFocus(page, id) {
  await page.focus(`[data-testid="${id}"]`);
  await page.keyboard.press("Tab");
  await page.keyboard.press("Shift+Tab");
  const now = await page.evaluate(() => document.activeElement?.getAttribute("data-testid"));
  if (now !== id) await page.focus(`[data-testid="${id}"]`);
  return page.evaluate(focusReport);
}

test("keyboard focus: the ring has at least 3:1 contrast on every kind of control", async () => {
  const cases = [
    ["?v=1&lesson=unroll&lang=en", ["unroll-w_hh", "unroll-forward", "nav-lessons", "lang-en", "lang-zh"]],
    ["?v=1&lesson=shapes&lang=zh", ["shapes-bidirectional", "lang-en", "lang-zh"]],
    ["?v=1&lesson=names&lang=en", ["cfg-cell", "cfg-bidirectional", "train-start", "nav-train"]],
  ];
  const failures = [];
  const seen = [];
  for (const [query, ids] of cases) {
    const { page, problems } = await open(wide.context, query);
    await page.waitForTimeout(300);
    for (const id of ids) {
      await page.waitForSelector(`[data-testid="${id}"]`, { timeout: 20_000 });
      const r = await keyboardFocus(page, id);
      seen.push(`${id}: ${r.width}px ${r.style} ${r.color} on ${r.against} = ${r.ratio.toFixed(2)}:1`);
      if (r.testid !== id) failures.push(`${id}: focus went to ${r.testid}`);
      if (r.style === "none" || r.width < 2) failures.push(`${id}: outline ${r.width}px ${r.style}`);
      if (!(r.ratio >= 3)) failures.push(`${id}: ${r.color} on ${r.against} is ${r.ratio.toFixed(2)}:1`);
    }
    failures.push(...problems);
    await page.close();
  }
  console.log(seen.join("\n"));
  assert.deepEqual(failures, []);
});

test("Copy link and Copy embed code sit in one row on every page that has both (1440 px)", async () => {
  const failures = [];
  for (const query of ["?v=1&lesson=lstm", "?v=1&lesson=names&lang=zh", "?v=1&lesson=delay", "?v=1&lesson=delay&task=copy&lang=zh"]) {
    const { page, problems } = await open(wide.context, query);
    await page.waitForSelector('[data-testid="copy-embed"]', { timeout: 20_000 });
    const [link, embed] = await Promise.all(["copy-link", "copy-embed"].map((id) => page.locator(`[data-testid="${id}"]`).boundingBox()));
    if (Math.abs(link.y - embed.y) > 1 || embed.x <= link.x) failures.push(`${query}: copy-link at (${link.x}, ${link.y}), copy-embed at (${embed.x}, ${embed.y})`);
    failures.push(...problems);
    await page.close();
  }
  assert.deepEqual(failures, []);
});

test("printing draws the charts of panels never shown (out of view, skipped by the browser)", async () => {
  // A panel below the fold may still be laid out once while the page fills in above it, so the
  // test puts 6000 px of space above the panels: the browser skips them on screen from the
  // start, as it skips every panel out of view (printing shows them all).
  const page = await wide.context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e}`));
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  await page.addInitScript(() => {
    const style = document.createElement("style");
    style.textContent = '@media screen { .training-page .main-column::before { content: ""; display: block; height: 6000px; } }';
    document.addEventListener("DOMContentLoaded", () => document.head.append(style));
  });
  await page.goto(app.url + "?v=1&lesson=names&cell=lstm&hidden_size=16&epochs=1&backend=cpu", { waitUntil: "load" });
  await page.waitForSelector('[data-testid="chart-grad-flow-canvas"]', { state: "attached", timeout: 60_000 });
  /** How many pixels of the gradient-flow chart are drawn (alpha > 0), and its pixel size. */
  const inked = () =>
    page.$eval('[data-testid="chart-grad-flow-canvas"]', (c) => {
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
      return { n, width: c.width, height: c.height };
    });
  // The browser has not laid the panel out, so the chart has no size to draw at and is blank
  // (the canvas's default 300 × 150).
  await page.waitForTimeout(2500);
  const before = await inked();
  assert.equal(before.n, 0, `precondition: the chart out of view is not drawn yet (${JSON.stringify(before)})`);
  await page.evaluate(() => window.dispatchEvent(new Event("beforeprint")));
  const after = await inked();
  const cssWidth = await page.$eval('[data-testid="chart-grad-flow-canvas"]', (c) => c.clientWidth);
  assert.equal(after.width, cssWidth, "drawn at its laid-out width");
  assert.ok(after.n > after.width * after.height * 0.9, `the chart is drawn before printing (${JSON.stringify(after)})`);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the run buttons stay in the window, and no focused field is hidden, while the form and the panels scroll (1440 px and 375 px)", async () => {
  /** Whether the button of `id` lies inside the window and is the element drawn at its centre. */
  const shown = (page, id) =>
    page.$eval(`[data-testid="${id}"]`, (el) => {
      const r = el.getBoundingClientRect();
      const inside = r.top >= 0 && r.bottom <= window.innerHeight && r.left >= 0 && r.right <= window.innerWidth;
      const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return { inside, onTop: !!top && el.contains(top), top: Math.round(r.top), scrollY: Math.round(window.scrollY) };
    });
  for (const [browser, where] of [[wide, "inspector"], [phone, "cfg-seed"]]) {
    const { page, problems } = await open(browser.context, "?v=1&lesson=names&cell=lstm&hidden_size=16&epochs=1&backend=cpu");
    await page.waitForSelector('[data-testid="train-start"]:not([disabled])', { timeout: 60_000 });
    const formTaller = await page.$eval(".config-panel", (p) => p.scrollHeight > window.innerHeight);
    assert.ok(formTaller, "precondition: the form is taller than the window");
    if (browser === wide) {
      const atTop = await shown(page, "train-start");
      assert.ok(atTop.inside && atTop.onTop, `Start is in view on the opened page: ${JSON.stringify(atTop)}`);
    }
    await page.$eval(`[data-testid="${where}"]`, (el) => el.scrollIntoView({ block: "center" }));
    await page.waitForTimeout(300);
    for (const id of ["train-start", "train-pause", "train-reset"]) {
      const s = await shown(page, id);
      assert.ok(s.inside && s.onTop, `${id} is in view and not covered with ${where} scrolled into view: ${JSON.stringify(s)}`);
    }
    // Every field of the form can be reached with the keyboard and is not left under the
    // buttons when it takes the focus.
    await page.focus('[data-testid="cfg-cell"]');
    const hidden = [];
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      const f = await page.evaluate(() => {
        const el = document.activeElement;
        if (!el?.closest(".config-form")) return null;
        const r = el.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        const seen = !!top && (el === top || el.contains(top) || (top.tagName === "LABEL" && top.contains(el)));
        return { id: el.getAttribute("data-testid") || el.tagName, seen, top: Math.round(r.top) };
      });
      if (!f) break;
      if (!f.seen) hidden.push(f);
    }
    assert.deepEqual(hidden, [], "focused fields are in view and not covered");
    // Starting does not move what the reader looks at (the browser's scroll anchoring may
    // shift the scroll position by a few pixels when panels above change height).
    const topOf = () => page.$eval(`[data-testid="${where}"]`, (el) => el.getBoundingClientRect().top);
    const before = await topOf();
    await page.click('[data-testid="train-start"]');
    await until(async () => (await value(page, "train-status")) !== "idle", 30_000, "the run to start");
    await page.waitForTimeout(300);
    const after = await topOf();
    assert.ok(Math.abs(after - before) <= 40, `${where} stayed where it was on screen: ${before.toFixed(0)} → ${after.toFixed(0)} px`);
    assert.deepEqual(problems, []);
    await page.close();
  }
  // The delay page's heading is taller (its intro and Copy link): its run buttons are in view
  // on the opened page too, in both languages.
  for (const lang of ["en", "zh"]) {
    const { page, problems } = await open(wide.context, `?v=1&lesson=delay&lang=${lang}`);
    await page.waitForSelector('[data-testid="delay-start"]:not([disabled])', { timeout: 60_000 });
    for (const id of ["delay-start", "delay-pause", "delay-reset"]) {
      const s = await shown(page, id);
      assert.ok(s.inside && s.onTop, `delay page (${lang}): ${id} is in view on the opened page: ${JSON.stringify(s)}`);
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test("the first frame: before the module runs, the page's heading in its language; then the app's own, the same, in the same place", async () => {
  // A fresh profile and a server whose service worker never installs: a first visit, every
  // module from the network. The module's download is held until the frame has been read, as a
  // slow link would hold it.
  const b = await app.launch();
  const url = await app.networkUrl();
  const cases = [
    ["?v=1&lesson=lstm&lang=zh", "zh-CN"],
    ["?v=1&lesson=names", "en"],
    ["?v=1&lang=zh&lesson=delay&task=copy", "zh-CN"],
    ["?v=1", "en"],
    ["?v=1&lesson=generate&lang=zh", "zh-CN"],
    ["?v=1&lesson=nope", "en"],
  ];
  const moved = [];
  for (const [query, lang] of cases) for (const width of [1440, 375]) {
    const page = await b.context.newPage();
    await page.setViewportSize({ width, height: 900 });
    let release;
    const held = new Promise((r) => (release = r));
    await page.route(/\.wasm$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(url + query, { waitUntil: "domcontentloaded" });
    assert.equal(await page.getAttribute("html", "lang"), lang, `${query}: the frame's language`);
    assert.ok((await page.textContent("#boot [role=status]")).trim().length > 0, `${query}: the loading line`);
    const frame = await page.$("#boot h1");
    const frameText = frame && (await frame.textContent());
    const frameTop = frame && (await frame.boundingBox()).y;
    release();
    await page.waitForSelector("#boot", { state: "detached", timeout: 60_000 });
    const heading = (await page.textContent("main h1")).trim();
    const top = (await page.locator("main h1").first().boundingBox()).y;
    if (frame && Math.abs(top - frameTop) > 1) moved.push(`${query} at ${width} px: the heading moves from y = ${frameTop} to ${top}`);
    if (query.includes("nope")) {
      assert.equal(frameText, null, "a lesson the app does not know gets no heading before the app runs");
    } else {
      assert.equal(frameText, heading, `${query}: the first frame's heading is the page's`);
      if (lang === "zh-CN") assert.match(heading, /[\u4e00-\u9fff]/, `${query}: in Chinese`);
    }
    await page.close();
  }
  await b.close();
  assert.deepEqual(moved, [], "the heading stays where the first frame drew it");
});
