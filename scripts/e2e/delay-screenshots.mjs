// Screenshots of the delay-copy page in English and Chinese: the delay-8 preset after some
// training, the delay-64 preset after some training, and an invalid delay. PNGs go to
// tests/e2e/out/delay/ (look at them); then the delay-64 page at 1280 and 375 px in both
// languages (the example strip).
//
// Run: `node scripts/e2e/delay-screenshots.mjs` after `trunk build --release`.
// UNROLL_DELAY_SHOT_SECONDS (default 25) is how long each page trains before its shot.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { OUT, buildDist, serveDist, launch, openPage, num, screenshot } from "./lib.mjs";

const seconds = Number(process.env.UNROLL_DELAY_SHOT_SECONDS || 25);
if (process.env.UNROLL_E2E_SKIP_BUILD === undefined) process.env.UNROLL_E2E_SKIP_BUILD = "1";
buildDist();
mkdirSync(join(OUT, "delay"), { recursive: true });
const server = await serveDist();
const b = await launch({ webgpu: false, viewport: { width: 1440, height: 1200 } });
async function page_at(width, height) {
  for (const lang of ["en", "zh"]) {
    const { page, consoleErrors } = await openPage(b.context, server.url, `?v=1&lesson=delay&delay=64&lang=${lang}`);
    await page.setViewportSize({ width, height });
    await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
    await page.click('[data-testid="delay-start"]');
    await page.waitForTimeout(Math.min(seconds, 5) * 1000);
    await page.click('[data-testid="delay-pause"]');
    await page.waitForTimeout(600);
    console.log(await screenshot(page, join("delay", `strip-${width}-${lang}`)));
    if (consoleErrors.length) console.log("console errors:", consoleErrors);
    await page.close();
  }
}

try {
  for (const [name, query, train] of [
    ["delay8-en", "?v=1&lesson=delay&lang=en", true],
    ["delay8-zh", "?v=1&lesson=delay&lang=zh", true],
    ["delay64-en", "?v=1&lesson=delay&delay=64&lang=en", true],
    ["invalid-en", "?v=1&lesson=delay&delay=100&lang=en", false],
    ["invalid-zh", "?v=1&lesson=delay&delay=0&lang=zh", false],
  ]) {
    const { page, consoleErrors } = await openPage(b.context, server.url, query);
    await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
    if (train) {
      await page.click('[data-testid="delay-start"]');
      await page.waitForTimeout(seconds * 1000);
      await page.click('[data-testid="delay-pause"]');
      console.log(name, "steps", await num(page, "delay-step-rnn"), await num(page, "delay-step-lstm"),
        "loss", await num(page, "delay-loss-rnn"), await num(page, "delay-loss-lstm"),
        "acc", await num(page, "delay-acc-rnn"), await num(page, "delay-acc-lstm"));
      await page.waitForTimeout(600);
    }
    console.log(await screenshot(page, join("delay", name)));
    if (consoleErrors.length) console.log("console errors:", consoleErrors);
    await page.close();
  }
  // The example strip wraps into blocks: the whole sequence at 1280 px, blocks scrolling
  // sideways at 375 px (trained a little so the prediction rows show).
  for (const [width, height] of [[1280, 1000], [375, 800]]) {
    await page_at(width, height);
  }
} finally {
  await b.close();
  await server.close();
}
