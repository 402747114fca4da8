// Screenshots of the long-memory tasks, each trained to the end with small sizes, at 1440 px
// and 375 px, in English and Chinese (2 seeds per cell: the spread, the outcome): scripts/e2e/out/memory-<task>-<width>-<lang>.png.
// Serves dist/ as built (run `trunk build --release` first).
//
// Run: `node scripts/e2e/memory-screenshots.mjs`.

import { serveDist, launch, openPage, value, until, screenshot } from "./lib.mjs";

const SIZES = { adding: "length=10&steps=60", copy: "length=5&steps=60", order: "length=62&steps=30" };

const server = await serveDist();
try {
  for (const width of [1440, 375]) {
    const browser = await launch({ webgpu: false, viewport: { width, height: 900 } });
    try {
      for (const lang of ["en", "zh"]) {
        for (const [task, size] of Object.entries(SIZES)) {
          const query = `?v=1&lesson=delay&task=${task}&hidden_size=8&seeds=2&${size}&lang=${lang}`;
          const { page, consoleErrors } = await openPage(browser.context, server.url, query);
          await page.waitForSelector('[data-testid="memory-page"]', { timeout: 60_000 });
          await page.click('[data-testid="memory-start"]');
          await until(async () => (await value(page, "memory-status")) === "finished", 180_000, `${task} finished`);
          const path = await screenshot(page, `memory-${task}-${width}-${lang}`);
          console.log(path, consoleErrors.length ? consoleErrors : "");
          await page.close();
        }
      }
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}
