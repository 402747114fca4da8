// Screenshots of the generation lab (`?lesson=generate`): a short run trained, the sampler
// stepped through a name, at 1440 px and 375 px, in English and Chinese:
// scripts/e2e/out/generate-<width>-<lang>.png. Prints the name written and the softmax bars.
// Serves dist/ as built (run `trunk build --release` first).
//
// Run: `node scripts/e2e/generate-screenshots.mjs` (GEN_STEPS=… for a longer run).

import { serveDist, launch, openPage, value, until, screenshot } from "./lib.mjs";

const STEPS = process.env.GEN_STEPS || "150";
const server = await serveDist();
const browser = await launch({ webgpu: false, viewport: { width: 1440, height: 900 } });
try {
  for (const lang of ["en", "zh"]) {
    for (const width of [1440, 375]) {
      const q = `?v=1&lesson=generate&steps=${STEPS}&language=9&temperature=0.5&sample_seed=3&lang=${lang}`;
      const { page, consoleErrors } = await openPage(browser.context, server.url, q);
      await page.setViewportSize({ width, height: 900 });
      await page.waitForSelector('[data-testid="generate-page"]', { timeout: 60_000 });
      await until(async () => (await value(page, "generate-data")) !== null, 60_000, "data loaded");
      await page.click('[data-testid="generate-start"]');
      await until(async () => ["finished", "error"].includes(await value(page, "generate-status")), 600_000, "trained", 1000);
      console.log("status", await value(page, "generate-status"), "heldout", await value(page, "generate-heldout"), "url", page.url());
      await page.waitForSelector('[data-testid="gen-sample"]', { timeout: 30_000 });
      for (let i = 0; i < 3; i++) await page.click('[data-testid="gen-step"]');
      console.log("sample", await page.getAttribute('[data-testid="gen-sample"]', "data-value"), await page.getAttribute('[data-testid="gen-sample"]', "data-full"));
      console.log("softmax", await value(page, "gen-softmax"));
      const path = await screenshot(page, `generate-${width}-${lang}`);
      console.log(path, consoleErrors.length ? consoleErrors : "");
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
