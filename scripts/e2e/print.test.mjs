// End-to-end tests of the printed worksheet and of "The same in PyTorch": lessons print without
// the app's header, buttons or questions, with their link as text, in at most 2 A4 pages; lesson
// 1's PyTorch lines, run under torch where it is installed, print the h_t the page shows (1e-4).
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/print.test.mjs`

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { buildDist, serveDist, launch, openPage, num } from "./lib.mjs";

let server;

before(async () => {
  buildDist();
  server = await serveDist();
});

after(async () => {
  await server?.close();
});

/** Pages of a PDF made by Chromium (one `/Type /Page` object per page). */
function pdfPages(bytes) {
  return (bytes.toString("latin1").match(/\/Type\s*\/Page(?!s)/g) || []).length;
}

for (const [lesson, query] of [
  ["unroll", "?v=1&lesson=unroll&w_hh=0.8&x=1,2,-1,0.5&t=3"],
  ["lstm", "?v=1&lesson=lstm&lang=zh"],
]) {
  test(`lesson ${lesson} prints as a worksheet: no header or buttons, its link, at most 2 A4 pages`, { timeout: 120_000 }, async () => {
    const b = await launch({});
    try {
      const { page, consoleErrors } = await openPage(b.context, server.url, query);
      await page.waitForSelector(`[data-testid="lesson-${lesson}"]`);
      await page.waitForTimeout(600); // the address bar's query is written after a short pause
      await page.emulateMedia({ media: "print" });
      const seen = await page.evaluate(() => {
        const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
        return {
          header: [...document.querySelectorAll(".site-header, .site-footer, .lx-crumbs, .lx-prevnext")].filter(shown).length,
          buttons: [...document.querySelectorAll("button")].filter(shown).map((b) => b.textContent.trim()),
          link: shown(document.querySelector('[data-testid="print-link"]')) ? document.querySelector('[data-testid="print-link"]').textContent : null,
          href: location.href,
        };
      });
      assert.equal(seen.header, 0, "no header, footer or navigation");
      assert.deepEqual(seen.buttons, [], "no buttons");
      assert.equal(seen.link, seen.href, "the lesson's link as text");
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

test("lesson 1's PyTorch lines print the page's h_t (run under torch where installed)", { timeout: 120_000 }, async (t) => {
  const b = await launch({});
  try {
    for (const query of ["?v=1&lesson=unroll&quiz=0&w_xh=0.7&w_hh=-1.3&b=0.2&h0=0.5&x=1,2,-1,0.5", "?v=1&lesson=unroll&quiz=0&hidden_size=3&seed=5"]) {
      const { page, consoleErrors } = await openPage(b.context, server.url, query);
      await page.waitForSelector('[data-testid="torch-lines"]');
      const code = await page.textContent('[data-testid="torch-lines"]');
      const steps = (code.match(/torch\.tensor\(\[([^\]]*)\]\)\.view\(-1, 1, 1\)/)[1].split(",")).length;
      const shown = [];
      for (let s = 1; s <= steps; s++) {
        shown.push((await page.getAttribute(`[data-testid="unroll-h-${s}"]`, "data-value")).split(",").map(Number));
      }
      assert.equal(shown.length, steps);
      const probe = spawnSync("python3", ["-c", "import torch"]);
      if (probe.error || probe.status !== 0) {
        t.diagnostic("torch is not importable here: the lines are not run");
        await page.close();
        continue;
      }
      const run = spawnSync("python3", ["-c", code], { encoding: "utf8" });
      assert.equal(run.status, 0, run.stderr);
      const printed = run.stdout.trim().split("\n").map((l) => JSON.parse(l.split(" = ")[1]));
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
