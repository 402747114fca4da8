// Screenshots of the figures' export buttons, for people to look at: lesson 1's diagram panel
// and the names page's curves at 1440 px and 375 px, in English and Chinese; then lesson 1's
// exported SVG drawn on its own in Chromium and its exported PNG as downloaded. Writes
// scripts/e2e/out/export-{lesson,names}-{en,zh}-{1440,375}.png, export-svg-{en,zh}.png and
// export-png-en.png.
//
// Run: `node scripts/e2e/figures-export-screenshots.mjs` after `trunk build --release`.

import { copyFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { buildDist, serveDist, launch, OUT, screenshot } from "./lib.mjs";

if (process.env.UNROLL_E2E_SKIP_BUILD === undefined) process.env.UNROLL_E2E_SKIP_BUILD = "1";
buildDist();
const server = await serveDist();
const b = await launch({ webgpu: false, serviceWorkers: "block" });
const NAMES = "&cell=gru&hidden_size=8&batch_size=256&epochs=1&seed=3&backend=cpu";

/** Screenshot of the element holding the first export row under `selector`. */
async function shotOf(page, selector, name) {
  const el = page.locator(selector).first();
  await el.scrollIntoViewIfNeeded();
  await page.waitForTimeout(600);
  await el.screenshot({ path: join(OUT, `${name}.png`) });
}

try {
  for (const lang of ["en", "zh"]) {
    for (const width of [1440, 375]) {
      const page = await b.context.newPage();
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${server.url}?v=1&lesson=unroll&lang=${lang}`, { waitUntil: "load" });
      await page.waitForSelector('[data-testid="export-svg"]');
      await shotOf(page, '.lx-panel:has([data-testid="unroll-diagram"])', `export-lesson-${lang}-${width}`);
      await page.goto(`${server.url}?v=1&lesson=names${NAMES}&lang=${lang}`, { waitUntil: "load" });
      await page.waitForSelector('.charts-panel [data-testid="export-svg"]', { timeout: 60_000 });
      await shotOf(page, ".charts-panel", `export-names-${lang}-${width}`);
      await page.close();
    }
    // The exported SVG alone, and the PNG as downloaded.
    const page = await b.context.newPage();
    await page.goto(`${server.url}?v=1&lesson=unroll&lang=${lang}`, { waitUntil: "load" });
    const button = page.locator('[data-testid="export-svg"]').first();
    await button.waitFor();
    const [svg] = await Promise.all([page.waitForEvent("download"), button.click()]);
    const text = readFileSync(await svg.path(), "utf8");
    if (lang === "en") {
      const png = page.locator('[data-testid="export-png"]').first();
      const [dl] = await Promise.all([page.waitForEvent("download"), png.click()]);
      copyFileSync(await dl.path(), join(OUT, "export-png-en.png"));
    }
    const view = await b.context.newPage();
    await view.setContent(`<body style="margin:0;background:#888">${text.replace(/^<\?xml[^>]*>/, "")}</body>`);
    await screenshot(view, `export-svg-${lang}`, { fullPage: true });
    await view.close();
    await page.close();
  }
} finally {
  await b.close();
  await server.close();
}
console.log(`screenshots in ${OUT}`);
