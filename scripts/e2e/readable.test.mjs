// End-to-end checks of what a careful reader trips on, in headless Chromium, English and Chinese:
//
// - Phone (375 px): the lessons' line charts (lessons 3, 4, 8) fit their cards with their text
//   at the page's size (the viewBox is as wide as the chart), every label inside the chart; the
//   page does not scroll sideways. Lesson 1's vector-mode table fits its card at 1440 px; at
//   375 px it scrolls inside its card (a marked scroller) and its last columns can be reached.
// - Every radio group of the lessons has an accessible name in the page's language.
// - Lesson 4: the belt has a legend drawn with the belt's own strokes (colour = sign, width =
//   |value| up to the scale in `data-value`), and the page ties g to the handout's C̃_t.
// - Lesson 5: the number line's −1/0/1 lie under the line, inside the drawing, above the next
//   paragraph, and apart from the value labels.
// - Lesson 7: the logit sliders count from 0, as the classes do.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/readable.test.mjs`
// (without UNROLL_E2E_SKIP_BUILD it builds dist/ first).

import { before, test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { until, value, num } from "./lib.mjs";

// What the pages show at two widths, whatever a run learnt: the small test data set; one phone
// and one wide browser for the file.
const app = e2e();
let phone;
let wide;

before(async () => {
  phone = await app.launch({ viewport: { width: 375, height: 812 } });
  wide = await app.launch();
});

async function open(context, query, ready = ".panel") {
  const { page, errors: problems } = await app.open(query, { browser: { context } });
  await page.waitForSelector(ready, { timeout: 60_000 });
  return { page, problems };
}

/** A run of three ASCII letters outside the names a Chinese page may show. */
const ENGLISH = /(?<![A-Za-z_])(?!RNN\b|LSTM\b|GRU\b|PyTorch\b)[A-Za-z]{3,}/;

/** For every line chart: where it lies, its viewBox width, and labels drawn outside it. */
function chartReport() {
  return [...document.querySelectorAll("svg.lx-chart")].map((svg) => {
    const card = svg.closest(".panel");
    const s = svg.getBoundingClientRect();
    const c = card.getBoundingClientRect();
    const pad = parseFloat(getComputedStyle(card).paddingRight);
    const outside = [...svg.querySelectorAll("text")]
      .filter((t) => {
        const r = t.getBoundingClientRect();
        return r.width > 0 && (r.left < s.left - 1 || r.right > s.right + 1 || r.top < s.top - 1 || r.bottom > s.bottom + 1);
      })
      .map((t) => t.textContent);
    return {
      id: svg.getAttribute("data-testid"),
      left: s.left,
      right: s.right,
      cardLeft: c.left,
      cardInner: c.right - pad,
      width: s.width,
      viewBox: svg.viewBox.baseVal.width,
      outside,
    };
  });
}

test("phone, 375 px: lessons 3, 4 and 8's line charts fit their cards at 1:1 scale, no label cut", { timeout: 300_000 }, async () => {
  const failures = [];
  for (const lang of ["en", "zh"]) {
    for (const [query, ids] of [
      ["?v=1&lesson=bptt", ["bptt-chart"]],
      ["?v=1&lesson=lstm&mode=run", ["lstm-run-chart", "lstm-compare-chart"]],
      ["?v=1&lesson=parallel", ["parallel-chart", "parallel-depth-chart"]],
    ]) {
      const { page, problems } = await open(phone.context, `${query}&lang=${lang}`);
      if (query.includes("parallel")) await until(async () => (await value(page, "parallel-status")) === "done", 120_000, "measurements", 250);
      // The chart follows its box a layout later.
      await until(async () => {
        const r = await page.evaluate(chartReport);
        return r.length === ids.length && r.every((c) => Math.abs(c.viewBox - c.width) <= 1);
      }, 10_000, `${query} ${lang}: the charts' viewBox follows their width`).catch((e) => failures.push(String(e)));
      const report = await page.evaluate(chartReport);
      assert.deepEqual(report.map((c) => c.id).sort(), [...ids].sort(), `${query}: the charts`);
      for (const c of report) {
        const where = `${query} ${lang} ${c.id}`;
        if (c.right > c.cardInner + 1 || c.left < c.cardLeft) failures.push(`${where}: [${c.left}, ${c.right}] outside its card (inner right ${c.cardInner})`);
        if (c.width > 375) failures.push(`${where}: ${c.width} px wide`);
        if (Math.abs(c.viewBox - c.width) > 1) failures.push(`${where}: viewBox ${c.viewBox} for ${c.width} px (text scaled)`);
        if (c.outside.length) failures.push(`${where}: labels outside the chart: ${c.outside.join(", ")}`);
      }
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (sideways > 1) failures.push(`${query} ${lang}: the page scrolls sideways by ${sideways} px`);
      failures.push(...problems.map((p) => `${query} ${lang}: ${p}`));
      await page.close();
    }
  }
  assert.deepEqual(failures, []);
});

/** Lesson 1's table of every step: its scroller's and its own widths, and where z_t, h_t and "from x₁" of step 1 lie after scrolling to the end. */
function vectorTable() {
  const z = document.querySelector('[data-testid="unroll-z-1"]');
  const scroller = z.closest("[data-scroller]");
  const table = z.closest("table");
  const card = z.closest(".panel").getBoundingClientRect();
  scroller.scrollLeft = scroller.scrollWidth;
  const box = scroller.getBoundingClientRect();
  const cut = ["unroll-z-1", "unroll-h-1", "unroll-from_x1-1"].filter((id) => {
    const r = document.querySelector(`[data-testid="${id}"]`).getBoundingClientRect();
    return r.left < box.left - 1 || r.right > box.right + 1;
  });
  const header = [...table.querySelectorAll("th")].at(-1).getBoundingClientRect();
  return {
    tableWidth: table.scrollWidth,
    boxWidth: scroller.clientWidth,
    insideCard: box.left >= card.left - 1 && box.right <= card.right + 1,
    cut,
    headerVisible: header.right <= box.right + 1 && header.left >= box.left - 1,
    entries: z.querySelectorAll("span").length,
  };
}

test("lesson 1's vector-mode table fits its card at 1440 px and scrolls inside it at 375 px", { timeout: 120_000 }, async () => {
  for (const lang of ["en", "zh"]) {
    const query = `?v=1&lesson=unroll&hidden_size=8&x=1,2,-1,0.5,0.3&lang=${lang}`;
    {
      const { page, problems } = await open(wide.context, query, '[data-testid="unroll-z-1"]');
      const t = await page.evaluate(vectorTable);
      assert.equal(t.entries, 8, "z_1 is written as its 8 entries");
      assert.ok(t.tableWidth <= t.boxWidth, `${lang} 1440 px: the table is ${t.tableWidth} px in a ${t.boxWidth} px box`);
      assert.ok(t.insideCard, `${lang} 1440 px: the table's box lies in its card`);
      assert.deepEqual(t.cut, [], `${lang} 1440 px: z_t, h_t and from x₁ in view`);
      assert.deepEqual(problems, []);
      await page.close();
    }
    {
      const { page, problems } = await open(phone.context, query, '[data-testid="unroll-z-1"]');
      const t = await page.evaluate(vectorTable);
      assert.ok(t.insideCard, `${lang} 375 px: the scroller lies in its card`);
      assert.deepEqual(t.cut, [], `${lang} 375 px: z_t, h_t and from x₁ reachable by scrolling the table`);
      assert.ok(t.headerVisible, `${lang} 375 px: the last column's header reachable`);
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(sideways <= 1, `${lang} 375 px: the page scrolls sideways by ${sideways} px`);
      assert.deepEqual(problems, []);
      await page.close();
    }
  }
});

test("every lesson radio group has a name in the page's language", { timeout: 120_000 }, async () => {
  // The controls' groups, then the choices of the lesson's question (lesson 4's is a slider).
  const groups = {
    shapes: ["shapes-cell", "question-choices"],
    bptt: ["bptt-activation", "question-choices"],
    lstm: ["lstm-mode"],
    gru: ["gru-convention", "question-choices"],
    bidir: ["question-choices"],
    softmax: ["softmax-target", "question-choices"],
    parallel: ["parallel-cell", "question-choices"],
  };
  const names = { en: {}, zh: {} };
  for (const lang of ["en", "zh"]) {
    for (const [lesson, ids] of Object.entries(groups)) {
      const { page, problems } = await open(wide.context, `?v=1&lesson=${lesson}&lang=${lang}`);
      const found = await page.evaluate(() =>
        [...document.querySelectorAll('[role="radiogroup"]')].map((g) => [g.getAttribute("data-testid"), g.getAttribute("aria-label") ?? ""]),
      );
      assert.deepEqual(found.map(([id]) => id), ids, `${lesson}: the page's radio groups`);
      for (const [id, name] of found) {
        assert.ok(name.trim().length > 0, `${lesson} ${lang}: ${id} has no name`);
        // The group and the accessibility tree agree: the group is found by that name.
        assert.equal(await page.getByRole("radiogroup", { name, exact: true }).count(), 1, `${lesson} ${lang}: ${id} named "${name}"`);
        if (lang === "zh") assert.doesNotMatch(name, ENGLISH, `${lesson} zh: ${id} is named in English: ${name}`);
        names[lang][id] = name;
      }
      assert.deepEqual(problems, []);
      await page.close();
    }
  }
  for (const id of Object.keys(names.en)) assert.notEqual(names.en[id], names.zh[id], `${id}: the same name in both languages`);
});

test("lesson 4: the belt's legend is drawn with the belt's strokes; g is named as the handout's C̃_t", { timeout: 120_000 }, async () => {
  for (const lang of ["en", "zh"]) {
    // Step 2 of the course's example: g₂ = −0.6, a negative segment.
    const { page, problems } = await open(wide.context, `?v=1&lesson=lstm&t=2&lang=${lang}`, '[data-testid="lstm-belt-legend"]');
    const scale = await num(page, "lstm-belt-legend");
    // The scale: the largest |C| of the steps, at least 1, from the table's values.
    let largest = 1;
    for (let i = 1; i <= 2; i++) largest = Math.max(largest, Math.abs(await num(page, `lstm-c-${i}`)), Math.abs(await num(page, `lstm-c_prev-${i}`)));
    assert.ok(Math.abs(scale - largest) < 1e-6, `legend scale ${scale}, largest |C| ${largest}`);
    const r = await page.evaluate(() => {
      const line = (li) => [...document.querySelectorAll(`[data-testid="${li}"] line`)].map((l) => ({ color: l.getAttribute("stroke"), width: Number(l.getAttribute("stroke-width")) }));
      const belt = [...document.querySelectorAll('[data-testid="lstm-belt"] line[data-value]')].map((l) => ({
        v: Number(l.getAttribute("data-value")),
        color: l.getAttribute("stroke"),
        width: Number(l.getAttribute("stroke-width")),
      }));
      return {
        positive: line("lstm-legend-positive"),
        negative: line("lstm-legend-negative"),
        widths: line("lstm-legend-width"),
        belt,
        text: document.querySelector('[data-testid="lstm-belt-legend"]').textContent,
        page: document.body.innerText,
      };
    });
    const [pos] = r.positive;
    const [neg] = r.negative;
    assert.notEqual(pos.color, neg.color, "two colours");
    assert.ok(r.belt.some((s) => s.v < 0) && r.belt.some((s) => s.v > 0), "the step has both signs");
    for (const s of r.belt) {
      assert.equal(s.color, s.v < 0 ? neg.color : pos.color, `segment ${s.v} drawn in its sign's colour`);
      assert.ok(s.width >= r.widths[0].width - 1e-9 && s.width <= r.widths[1].width + 1e-9, `segment ${s.v}: width ${s.width} within the legend's ${r.widths[0].width}–${r.widths[1].width}`);
    }
    // Wider for a larger |value|: the belt's widths grow with |value|.
    const sorted = [...r.belt].sort((a, b) => Math.abs(a.v) - Math.abs(b.v));
    for (let k = 1; k < sorted.length; k++) assert.ok(sorted[k].width >= sorted[k - 1].width - 1e-9, "width grows with |value|");
    assert.match(r.page, /C̃_t/, "g is tied to the handout's C̃_t");
    if (lang === "zh") assert.doesNotMatch(r.text, ENGLISH, `zh legend: ${r.text}`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test("lesson 5: the number line's −1, 0 and 1 sit under the line, inside the drawing, above the next paragraph", { timeout: 60_000 }, async () => {
  for (const [context, lang] of [[wide.context, "en"], [phone.context, "zh"], [phone.context, "en"], [wide.context, "zh"]]) {
    // h_{t−1} and h̃ on 0 and 1: their labels sit right by two of the scale's numbers.
    const { page, problems } = await open(context, `?v=1&lesson=gru&h_prev=0&n=1&lang=${lang}`, '[data-testid="gru-blend"]');
    const r = await page.evaluate(() => {
      const svg = document.querySelector('[data-testid="gru-blend"]');
      const s = svg.getBoundingClientRect();
      const axis = svg.querySelector("line").getBoundingClientRect();
      const texts = [...svg.querySelectorAll("text")].map((t) => ({ text: t.textContent, tick: t.classList.contains("lx-tick"), r: t.getBoundingClientRect().toJSON() }));
      let next = svg.closest(".lx-blend").nextElementSibling;
      return { s: s.toJSON(), axisY: axis.top, texts, nextTop: next.getBoundingClientRect().top };
    });
    const ticks = r.texts.filter((t) => t.tick);
    assert.deepEqual(ticks.map((t) => t.text), ["−1", "0", "1"]);
    for (const t of r.texts) {
      assert.ok(t.r.top >= r.s.top - 1 && t.r.bottom <= r.s.bottom + 1, `${lang}: "${t.text}" inside the drawing`);
      assert.ok(t.r.bottom <= r.nextTop, `${lang}: "${t.text}" above the next paragraph`);
    }
    for (const t of ticks) assert.ok(t.r.top > r.axisY, `${lang}: "${t.text}" under the line`);
    const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    for (const t of ticks) for (const v of r.texts.filter((x) => !x.tick)) assert.ok(!overlap(t.r, v.r), `${lang}: "${t.text}" clear of "${v.text}"`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test("lesson 7: the logit sliders count from 0, as the classes do", { timeout: 60_000 }, async () => {
  for (const lang of ["en", "zh"]) {
    const { page, problems } = await open(wide.context, `?v=1&lesson=softmax&lang=${lang}`, '[data-testid="softmax-logits-1"]');
    const r = await page.evaluate(() => ({
      sliders: [1, 2, 3].map((i) => document.querySelector(`label[for="softmax-logits-${i}"]`).textContent.trim()),
      classes: [0, 1, 2].map((k) => document.querySelector(`label[for="softmax-target-${k}"]`).textContent.trim()),
    }));
    assert.deepEqual(r.sliders, ["x₀", "x₁", "x₂"]);
    r.classes.forEach((c, k) => assert.match(c, new RegExp(`\\b${k}$`), `class radio ${k}: ${c}`));
    assert.deepEqual(problems, []);
    await page.close();
  }
});
