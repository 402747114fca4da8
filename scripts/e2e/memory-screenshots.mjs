// Screenshots of the long-memory tasks, each trained to the end at its default T, budget and
// 3 seeds (a few minutes in all; MEMORY_SMALL=1 uses small sizes instead), at 1440 px and
// 375 px, in English and Chinese: scripts/e2e/out/memory-<task>-<width>-<lang>.png. Each task
// trains once; the other widths and languages show the sweep the page kept. Prints each
// task's outcome key (`memory-outcome`) and sentence. Serves dist/ as built (run
// `trunk build --release` first).
//
// Run: `node scripts/e2e/memory-screenshots.mjs`.

import { serveDist, launch, openPage, value, until, screenshot } from "./lib.mjs";

const SMALL = { adding: "&hidden_size=8&seeds=2&length=10&steps=60", copy: "&hidden_size=8&seeds=2&length=5&steps=60", order: "&hidden_size=8&seeds=2&length=62&steps=30" };
const SIZES = process.env.MEMORY_SMALL ? SMALL : { adding: "", copy: "", order: "" };

const server = await serveDist();
const browser = await launch({ webgpu: false, viewport: { width: 1440, height: 900 } });
try {
  for (const [task, size] of Object.entries(SIZES)) {
    const base = `?v=1&lesson=delay&task=${task}${size}`;
    const { page } = await openPage(browser.context, server.url, base);
    await page.waitForSelector('[data-testid="memory-page"]', { timeout: 60_000 });
    await page.click('[data-testid="memory-start"]');
    await until(async () => (await value(page, "memory-status")) === "finished", 600_000, `${task} finished`, 1000);
    console.log(task, await value(page, "memory-outcome"), await page.textContent('[data-testid="memory-outcome"]'));
    await page.close();
    for (const width of [1440, 375]) {
      for (const lang of ["en", "zh"]) {
        const { page, consoleErrors } = await openPage(browser.context, server.url, `${base}&lang=${lang}`);
        await page.setViewportSize({ width, height: 900 });
        await page.waitForSelector('[data-testid="memory-page"]', { timeout: 60_000 });
        await until(async () => (await value(page, "memory-status")) === "finished", 10_000, `${task} kept`);
        const path = await screenshot(page, `memory-${task}-${width}-${lang}`);
        console.log(path, consoleErrors.length ? consoleErrors : "");
        await page.close();
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
}
