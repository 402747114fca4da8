// Screenshots of the delay-copy page at 1440 and 375 px, in English and Chinese: a finished
// delay-8 sweep (3 seeds per cell, kept in the browser and restored on opening), then a
// delay-32 sweep running with the same settings (the summary keeps the delay-8 row). Also an
// invalid delay. PNGs go to scripts/e2e/out/delay/ (look at them).
//
// Run: `node scripts/e2e/delay-screenshots.mjs` after `trunk build --release`.
// UNROLL_DELAY_SHOT_QUERY sets the run's size (default `hidden_size=32&steps=400`, so the
// delay-8 sweep finishes in a short while); UNROLL_DELAY_SHOT_SECONDS (default 8) is how long
// the delay-32 sweep runs before its shot. Then the Resume offer after a reload during the
// first seed of a sweep (with its checkpoint), at both widths in both languages.
// UNROLL_DELAY_SHOT_ONLY=resume takes only the Resume offer's shots.

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { OUT, buildDist, serveDist, launch, openPage, num, value, until, screenshot } from "./lib.mjs";

const size = process.env.UNROLL_DELAY_SHOT_QUERY || "hidden_size=32&steps=400";
const seconds = Number(process.env.UNROLL_DELAY_SHOT_SECONDS || 8);
if (process.env.UNROLL_E2E_SKIP_BUILD === undefined) process.env.UNROLL_E2E_SKIP_BUILD = "1";
buildDist();
mkdirSync(join(OUT, "delay"), { recursive: true });
const server = await serveDist();
const b = await launch({ webgpu: false, viewport: { width: 1440, height: 1200 } });

async function open(query, width) {
  const { page, consoleErrors } = await openPage(b.context, server.url, query);
  await page.setViewportSize({ width, height: width < 500 ? 800 : 1200 });
  await page.waitForSelector('[data-testid="delay-page"]', { timeout: 60_000 });
  return { page, consoleErrors };
}

const only = process.env.UNROLL_DELAY_SHOT_ONLY;

try {
  if (only !== "resume") {
    // The delay-8 sweep, once: kept in IndexedDB for every later page of this browser.
    {
      const { page, consoleErrors } = await open(`?v=1&lesson=delay&${size}`, 1440);
      await page.click('[data-testid="delay-start"]');
      await until(async () => (await value(page, "delay-status")) === "finished", 900_000, "the delay-8 sweep", 1000);
      console.log("delay 8 finished in", await num(page, "delay-elapsed"), "s; held-out accuracy",
        await num(page, "delay-heldout-acc-rnn"), await num(page, "delay-heldout-acc-lstm"));
      if (consoleErrors.length) console.log("console errors:", consoleErrors);
      await page.close();
    }
    for (const width of [1440, 375]) {
      for (const lang of ["en", "zh"]) {
        const { page, consoleErrors } = await open(`?v=1&lesson=delay&${size}&lang=${lang}`, width);
        await until(async () => (await value(page, "delay-status")) === "finished", 20_000, "the kept delay-8 runs");
        await page.waitForTimeout(800);
        await page.evaluate(() => window.scrollTo(0, 0));
        console.log(await screenshot(page, join("delay", `delay8-finished-${width}-${lang}`)));
        await page.click('[data-testid="delay-preset-32"]');
        await page.click('[data-testid="delay-start"]');
        await page.waitForTimeout(seconds * 1000);
        await page.evaluate(() => window.scrollTo(0, 0));
        console.log("delay 32 running: steps", await num(page, "delay-step-rnn"), await num(page, "delay-step-lstm"),
          "time left", await num(page, "delay-time-left"));
        console.log(await screenshot(page, join("delay", `delay32-running-${width}-${lang}`)));
        await page.click('[data-testid="delay-reset"]');
        if (consoleErrors.length) console.log("console errors:", consoleErrors);
        await page.close();
      }
    }
    for (const [name, query] of [
      ["invalid-en", "?v=1&lesson=delay&delay=100&lang=en"],
      ["invalid-zh", "?v=1&lesson=delay&delay=0&lang=zh"],
    ]) {
      const { page } = await open(query, 1440);
      console.log(await screenshot(page, join("delay", name)));
      await page.close();
    }
  }
  // The Resume offer: a sweep reloaded while its first seed trains, after a checkpoint.
  {
    const query = "?v=1&lesson=delay&hidden_size=16&steps=3000&seeds=3&seed=40";
    const { page, consoleErrors } = await open(query, 1440);
    await page.click('[data-testid="delay-start"]');
    await until(async () => (await num(page, "delay-checkpoint")) > 0, 120_000, "a checkpoint");
    console.log(await screenshot(page, join("delay", "checkpoint-saved-1440-en")));
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector('[data-testid="delay-resume-offer"]', { timeout: 20_000 });
    for (const lang of ["en", "zh"]) {
      await page.goto(`${server.url}${query}&lang=${lang}`, { waitUntil: "load" });
      await page.waitForSelector('[data-testid="delay-resume-offer"]', { timeout: 20_000 });
      for (const width of [1440, 375]) {
        await page.setViewportSize({ width, height: width < 500 ? 800 : 1200 });
        await page.waitForTimeout(500);
        await page.evaluate(() => window.scrollTo(0, 0));
        console.log(await screenshot(page, join("delay", `resume-offer-${width}-${lang}`), { fullPage: false }));
      }
    }
    if (consoleErrors.length) console.log("console errors:", consoleErrors);
    await page.close();
  }
} finally {
  await b.close();
  await server.close();
}
