// End-to-end tests of the printed worksheet and of "The same in PyTorch": every lesson prints
// without the app's header, buttons or questions, with its link as text and as a QR code, in at
// most 2 A4 pages; every lesson in its widest state (the most inputs, steps, tokens or logits,
// the longest numbers) prints with nothing outside the page box and nothing cut by a scroller
// (print media at the A4 page's printable width, the width Chromium lays a print out at; each
// PDF is also written to scripts/e2e/out/ to look at);
// the PyTorch lines of lessons 1, 4, 6 and 7, run under torch where it is installed, print the
// numbers the page shows (|err| <= 1e-5 + 1e-4·|ref|).
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/print.test.mjs`

import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { e2e } from "./fixture.mjs";
import { num, OUT } from "./lib.mjs";

// Lessons only: no names data is read. Each test in a fresh profile, as before.
const app = e2e();

/** Pages of a PDF made by Chromium (one `/Type /Page` object per page). */
function pdfPages(bytes) {
  return (bytes.toString("latin1").match(/\/Type\s*\/Page(?!s)/g) || []).length;
}

for (const [lesson, query] of [
  ["unroll", "?v=1&lesson=unroll&w_hh=0.8&x=1,2,-1,0.5&t=3"],
  ["shapes", "?v=1&lesson=shapes"],
  ["bptt", "?v=1&lesson=bptt&lang=zh"],
  ["lstm", "?v=1&lesson=lstm&lang=zh"],
  ["gru", "?v=1&lesson=gru"],
  ["bidir", "?v=1&lesson=bidir"],
  ["softmax", "?v=1&lesson=softmax&lang=zh"],
  ["parallel", "?v=1&lesson=parallel"],
]) {
  test(`lesson ${lesson} prints as a worksheet: no header or buttons, its link, at most 2 A4 pages`, { timeout: 120_000 }, async () => {
    const b = await app.launch();
    try {
      const { page, errors: consoleErrors } = await app.open(query, { browser: b });
      await page.waitForSelector(`[data-testid="lesson-${lesson}"]`);
      await page.waitForTimeout(600); // the address bar's query is written after a short pause
      await page.emulateMedia({ media: "print" });
      const seen = await page.evaluate(() => {
        const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
        return {
          header: [...document.querySelectorAll(".site-header, .site-footer, .lx-crumbs, .lx-prevnext")].filter(shown).length,
          buttons: [...document.querySelectorAll("button")].filter(shown).map((b) => b.textContent.trim()),
          link: shown(document.querySelector('[data-testid="print-link"]')) ? document.querySelector('[data-testid="print-link"]').textContent : null,
          qr: (() => {
            const box = document.querySelector('[data-testid="print-qr"]');
            const svg = box?.querySelector("svg");
            if (!svg || !shown(svg)) return null;
            const r = svg.getBoundingClientRect();
            return { encodes: box.dataset.value, square: Math.abs(r.width - r.height) < 1, width: r.width, modules: svg.viewBox.baseVal.width };
          })(),
          exports: [...document.querySelectorAll(".figure-export")].filter(shown).length,
          href: location.href,
        };
      });
      assert.equal(seen.header, 0, "no header, footer or navigation");
      assert.deepEqual(seen.buttons, [], "no buttons");
      assert.equal(seen.link, seen.href, "the lesson's link as text");
      assert.ok(seen.qr, "the lesson's link as a QR code");
      assert.equal(seen.qr.encodes, seen.href, "the QR code encodes the lesson's link");
      assert.ok(seen.qr.square && seen.qr.width > 50, `QR code ${seen.qr.width} px`);
      // 4·version + 17 modules, and a quiet zone of 4 modules on each side.
      assert.equal((seen.qr.modules - 25) % 4, 0, `${seen.qr.modules} modules`);
      assert.equal(seen.exports, 0, "no figure export rows on paper");
      const pdf = await page.pdf({ format: "A4", printBackground: true });
      const pages = pdfPages(pdf);
      console.log(`# ${lesson}: ${pages} A4 page(s), ${pdf.length} bytes`);
      assert.ok(pages >= 1 && pages <= 2, `${lesson}: ${pages} pages`);
      assert.deepEqual(consoleErrors, []);
    } finally {
      await b.close();
    }
  });
}

/** `n` values of `v`, `w`, … alternating (long numbers: a sign and two decimals). */
const list = (n, ...vs) => Array.from({ length: n }, (_, k) => vs[k % vs.length]).join(",");

// Each lesson at its widest: the longest lists its keys allow, the widest numbers, the most units.
const WIDEST = [
  ["unroll", `?v=1&lesson=unroll&x=${list(12, -4.91, 4.93)}&t=12&w_hh=-2.97&w_xh=2.93&b=-2.91&h0=-2.95`],
  ["unroll", `?v=1&lesson=unroll&x=${list(12, -4.91, 4.93)}&t=12&hidden_size=8&seed=7`],
  ["shapes", "?v=1&lesson=shapes&cell=lstm&input_size=4096&hidden_size=4096&num_layers=8&bidirectional=1&batch=4096&seq_len=4096"],
  ["bptt", `?v=1&lesson=bptt&steps=100&x=${list(100, -4.99, 4.97)}&act=relu&w_hh=-2.99&w_xh=2.97&max_norm=99.5`],
  ["lstm", `?v=1&lesson=lstm&mode=weights&x=${list(30, -4.91, 4.93)}&t=30&c0=-4.99&seed=4294967295`],
  ["lstm", `?v=1&lesson=lstm&f=${list(30, 0.01, 0.99)}&i=${list(30, 0.99, 0.01)}&g=${list(30, -0.99, 0.98)}&o=${list(30, 0.55)}&c0=-4.99&t=30`],
  ["gru", "?v=1&lesson=gru&convention=pytorch&h_prev=-0.99&z=0.55&n=-0.97&r=0.51&x=-0.99&w_in=-0.99&w_hn=-0.99&b_hn=-0.99"],
  ["bidir", `?v=1&lesson=bidir&tokens=${list(12, "Wwwwwwwwwwwwwwww", "Mmmmmmmmmmmmmmmm")}&seed=4294967295`],
  ["softmax", `?v=1&lesson=softmax&logits=${list(10, -49.99, 49.97)}&target=9`],
  ["parallel", "?v=1&lesson=parallel&max_len=512&hidden_size=256&cell=lstm"],
];

/** Printable width of an A4 page with the worksheet's 12 mm margins, in CSS px (96 per inch). */
const A4_PRINT_WIDTH = Math.floor(((210 - 2 * 12) / 25.4) * 96);

/** Elements of the page (print media) outside the page box, or cut off by an ancestor that clips. */
function outside(page) {
  return page.evaluate(() => {
    const limit = document.documentElement.clientWidth;
    const name = (el) => `${el.localName}${el.dataset.testid ? `[${el.dataset.testid}]` : ""}.${[...el.classList].join(".")} “${(el.textContent || "").trim().slice(0, 30)}”`;
    const found = [];
    for (const el of document.querySelectorAll("body *")) {
      // An SVG's parts are scaled with it: the <svg> itself is measured.
      if (el.closest("svg") && el.localName !== "svg") continue;
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      if (r.width === 0 || r.height === 0 || cs.visibility === "hidden") continue;
      // Text for screen readers only (a clipped one-pixel box) prints nothing.
      if ((cs.clipPath !== "none" || cs.clip !== "auto") && r.width <= 1 && r.height <= 1) continue;
      if (r.right > limit + 1 || r.left < -1) found.push(`${name(el)} spans ${Math.round(r.left)}–${Math.round(r.right)} px of ${limit}`);
      if (/hidden|auto|scroll|clip/.test(cs.overflowX) && el.scrollWidth > el.clientWidth + 1) {
        found.push(`${name(el)} cuts its content: ${el.scrollWidth} px in ${el.clientWidth}`);
      }
    }
    return { limit, found };
  });
}

/** One browser at the A4 page's printable width for the widest states (closed after the file). */
let widest = null;
const widestBrowser = async () => (widest ??= await app.launch({ viewport: { width: A4_PRINT_WIDTH, height: 1100 } }));

for (const [lesson, query] of WIDEST) {
  for (const lang of ["en", "zh"]) {
    test(`${lang}: lesson ${lesson} at its widest prints with nothing outside the page box (${query.length} chars of query)`, { timeout: 180_000 }, async () => {
      const b = await widestBrowser();
      const { page, errors: consoleErrors } = await app.open(`${query}&lang=${lang}`, { browser: b });
      try {
        await page.waitForSelector(`[data-testid="lesson-${lesson}"]`);
        if (lesson === "parallel") await page.waitForSelector('[data-testid="parallel-status"][data-value="done"]', { timeout: 150_000 });
        await page.waitForTimeout(600);
        await page.emulateMedia({ media: "print" });
        await page.waitForTimeout(300);
        const { limit, found } = await outside(page);
        assert.equal(limit, A4_PRINT_WIDTH);
        assert.deepEqual(found.slice(0, 12), [], `${lesson}: ${found.length} element(s) outside the page box`);
        mkdirSync(OUT, { recursive: true });
        const file = join(OUT, `print-widest-${lesson}-${lang}-${WIDEST.findIndex((w) => w[1] === query)}.pdf`);
        writeFileSync(file, await page.pdf({ format: "A4", printBackground: true }));
        assert.deepEqual(consoleErrors, []);
      } finally {
        await page.close();
      }
    });
  }
}

// Each of these runs the printed lines under PyTorch a few times, in processes forked from one
// Python that imported torch once for the file (`app.torch()`); on a busy machine that import
// alone can take a minute.
const TORCH_TIMEOUT = 300_000;

test("lesson 1's PyTorch lines print the page's h_t (run under torch where installed)", { timeout: TORCH_TIMEOUT }, async (t) => {
  const b = await app.launch();
  try {
    for (const query of ["?v=1&lesson=unroll&quiz=0&w_xh=0.7&w_hh=-1.3&b=0.2&h0=0.5&x=1,2,-1,0.5", "?v=1&lesson=unroll&quiz=0&hidden_size=3&seed=5"]) {
      const { page, errors: consoleErrors } = await app.open(query, { browser: b });
      await page.waitForSelector('[data-testid="torch-lines"]');
      const code = await page.textContent('[data-testid="torch-lines"]');
      const steps = (code.match(/torch\.tensor\(\[([^\]]*)\]\)\.view\(-1, 1, 1\)/)[1].split(",")).length;
      const shown = [];
      for (let s = 1; s <= steps; s++) {
        shown.push((await page.getAttribute(`[data-testid="unroll-h-${s}"]`, "data-value")).split(",").map(Number));
      }
      assert.equal(shown.length, steps);
      const out = await runTorch(t, code);
      if (!out) {
        await page.close();
        continue;
      }
      const printed = out.map((l) => JSON.parse(l.split(" = ")[1]));
      assert.equal(printed.length, steps);
      printed.forEach((h, i) =>
        h.forEach((v, j) => {
          const want = shown[i][j];
          assert.ok(Math.abs(v - want) <= 1e-5 + 1e-4 * Math.abs(want), `h_${i + 1}[${j}]: torch ${v}, page ${want}`);
        }),
      );
      t.diagnostic(`${query}: torch printed ${steps} h_t equal to the page's`);
      assert.deepEqual(consoleErrors, []);
      await page.close();
    }
  } finally {
    await b.close();
  }
});

/** Runs `code` as `python3 -c` would, under the file's PyTorch (`app.torch()`); its printed
 *  lines, or null (and a diagnostic) when torch is not importable. */
async function runTorch(t, code) {
  const torch = await app.torch();
  if (!torch) {
    t.diagnostic("torch is not importable here: the lines are not run");
    return null;
  }
  const run = await torch.run({ code });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim().split("\n");
}

const close = (got, want, what) =>
  assert.ok(Math.abs(got - want) <= 1e-5 + 1e-4 * Math.abs(want), `${what}: torch ${got}, page ${want}`);

async function values(page, id) {
  return (await page.getAttribute(`[data-testid="${id}"]`, "data-value")).split(",").map(Number);
}

test("lessons 4, 6 and 7's PyTorch lines print the page's numbers (run under torch where installed)", { timeout: TORCH_TIMEOUT }, async (t) => {
  const b = await app.launch();
  try {
    for (const query of ["?v=1&lesson=lstm&quiz=0&f=0.7,0.95,0.2&i=0.5&g=0.9,-0.3&o=0.6&c0=0.5", "?v=1&lesson=lstm&quiz=0&mode=weights&seed=4"]) {
      const { page } = await app.open(query, { browser: b });
      await page.waitForSelector('[data-testid="torch-lines"]');
      const lines = await runTorch(t, await page.textContent('[data-testid="torch-lines"]'));
      if (!lines) break;
      assert.ok(lines.length >= 2, lines.join("\n"));
      for (const [k, line] of lines.entries()) {
        const [, c, h] = line.match(/^C_\d+ = (\S+)\s+h_\d+ = (\S+)$/);
        close(Number(c), (await values(page, `lstm-c-${k + 1}`))[0], `${query}: C_${k + 1}`);
        close(Number(h), (await values(page, `lstm-h-${k + 1}`))[0], `${query}: h_${k + 1}`);
      }
      t.diagnostic(`${query}: ${lines.length} steps of C_t and h_t equal to the page's`);
      await page.close();
    }
    {
      const { page } = await app.open("?v=1&lesson=bidir&quiz=0&tokens=the,cat,sat,down&seed=2", { browser: b });
      await page.waitForSelector('[data-testid="torch-lines"]');
      const lines = await runTorch(t, await page.textContent('[data-testid="torch-lines"]'));
      if (lines) {
        const hn = JSON.parse(lines.find((l) => l.startsWith("h_n = ")).slice(6));
        const want = [await values(page, "bidir-h_n-1"), await values(page, "bidir-h_n-2")];
        hn.forEach((row, d) => row.forEach((v, j) => close(v, want[d][j], `h_n[${d}][${j}]`)));
        assert.equal(lines.filter((l) => l.startsWith("output[")).length, 4);
      }
      await page.close();
    }
    {
      const { page } = await app.open("?v=1&lesson=softmax&quiz=0&logits=2,-1,0.5,4&target=2", { browser: b });
      await page.waitForSelector('[data-testid="torch-lines"]');
      const lines = await runTorch(t, await page.textContent('[data-testid="torch-lines"]'));
      if (lines) {
        const logSoftmax = JSON.parse(lines.find((l) => l.startsWith("log_softmax = ")).slice(14));
        for (const [k, v] of logSoftmax.entries()) close(v, (await values(page, `softmax-logsoftmax-${k + 1}`))[0], `log_softmax[${k}]`);
        const ce = Number(lines.find((l) => l.startsWith("cross_entropy = ")).slice(16));
        close(ce, (await values(page, "softmax-ce"))[0], "cross_entropy");
      }
      await page.close();
    }
  } finally {
    await b.close();
  }
});
