// Screenshots of the training page for people (and the README): trains for a while in headless
// Chromium, then writes PNGs to scripts/e2e/out/ at 1440 px and 375 px wide, and copies the wide
// one to docs/screenshot-training.png.
//
// Run: `npm run screenshots` after `trunk build --release` (or with UNROLL_E2E_SKIP_BUILD unset
// to build first). Options (environment): UNROLL_SHOT_WEBGPU=0 uses the CPU path;
// UNROLL_SHOT_STEPS (default: all) is how many steps to train before the wide shot;
// UNROLL_SHOT_QUERY overrides the page query.

import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, buildDist, serveDist, launch, openPage, num, value, until, screenshot } from "./lib.mjs";

const webgpu = process.env.UNROLL_SHOT_WEBGPU !== "0";
const steps = Number(process.env.UNROLL_SHOT_STEPS || 1e9);
const query = process.env.UNROLL_SHOT_QUERY || "?v=1&lesson=names&hidden_size=64&epochs=3&autostart=1";

if (process.env.UNROLL_E2E_SKIP_BUILD === undefined) process.env.UNROLL_E2E_SKIP_BUILD = "1";
buildDist();
const server = await serveDist();
const shots = [];
try {
  // Wide: after some training, with a prediction.
  {
    const b = await launch({ webgpu, viewport: { width: 1440, height: 1320 } });
    try {
      const { page, consoleErrors } = await openPage(b.context, server.url, query);
      await until(
        async () => (await num(page, "train-step")) >= steps || ["finished", "error"].includes(await value(page, "train-status")),
        30 * 60_000,
        `${steps} steps`,
        1000,
      );
      await page.fill('[data-testid="predict-input"]', process.env.UNROLL_SHOT_NAME || "Nakamura");
      await page.waitForSelector('[data-testid="predict-top"] li', { timeout: 30_000 }).catch(() => {});
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(500);
      shots.push(await screenshot(page, "training-1440"));
      shots.push(await screenshot(page, "training-1440-viewport", { fullPage: false }));
      if (consoleErrors.length) console.log("console errors:", consoleErrors);
    } finally {
      await b.close();
    }
  }
  // Narrow: a phone-sized window while training.
  {
    const b = await launch({ webgpu, viewport: { width: 375, height: 812 } });
    try {
      const { page } = await openPage(b.context, server.url, query);
      await until(async () => (await num(page, "train-step")) >= 60, 10 * 60_000, "60 steps", 500);
      await page.fill('[data-testid="predict-input"]', "Schmidt");
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(800);
      shots.push(await screenshot(page, "training-375"));
    } finally {
      await b.close();
    }
  }
  // A link with bad values: the URL notice.
  {
    const b = await launch({ webgpu: false, viewport: { width: 1440, height: 900 } });
    try {
      const { page } = await openPage(b.context, server.url, "?lesson=names&hidden_size=4096&lr=fast&colour=red");
      await page.waitForSelector('[data-testid="url-notice"]', { timeout: 60_000 });
      await page.waitForTimeout(500);
      shots.push(await screenshot(page, "url-notice", { fullPage: false }));
    } finally {
      await b.close();
    }
  }
  mkdirSync(join(ROOT, "docs"), { recursive: true });
  copyFileSync(shots[1], join(ROOT, "docs", "screenshot-training.png"));
  for (const s of shots) console.log(s);
  console.log(join(ROOT, "docs", "screenshot-training.png"));
} finally {
  await server.close();
}
