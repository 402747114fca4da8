// Screenshots of the training lab for people: the metrics panel (class counts, baseline,
// per-class accuracy, confusion matrix) after training, and compare mode after RNN / LSTM / GRU
// trained, in English and Chinese. PNGs go to scripts/e2e/out/lab-*.png.
//
// Run after `trunk build --release`: `node scripts/e2e/lab-screenshots.mjs`. Environment:
// UNROLL_SHOT_HIDDEN (default 32), UNROLL_SHOT_EPOCHS (default 2) for the metrics shot;
// the compare shot uses hidden_size 16 and UNROLL_SHOT_COMPARE_EPOCHS (default 2).

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { OUT, serveDist, launch, openPage, num, value, until, screenshot } from "./lib.mjs";

/** PNG of one element (scrolled into view) at scripts/e2e/out/<name>.png. */
async function elementShot(el, name) {
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `${name}.png`);
  await el.screenshot({ path });
  return path;
}

const hidden = Number(process.env.UNROLL_SHOT_HIDDEN || 32);
const epochs = Number(process.env.UNROLL_SHOT_EPOCHS || 2);
const compareEpochs = Number(process.env.UNROLL_SHOT_COMPARE_EPOCHS || 2);
const langs = (process.env.UNROLL_SHOT_LANGS || "en,zh").split(",");

const server = await serveDist();
const shots = [];
try {
  for (const lang of langs) {
    const b = await launch({ webgpu: false, viewport: { width: 1440, height: 1000 } });
    try {
      const { page, consoleErrors } = await openPage(
        b.context,
        server.url,
        `?v=1&lesson=names&cell=gru&hidden_size=${hidden}&epochs=${epochs}&seed=3&backend=cpu&autostart=1&lang=${lang}`,
      );
      await until(async () => ["finished", "error"].includes(await value(page, "train-status")), 30 * 60_000, "training", 1000);
      await page.waitForTimeout(800);
      shots.push(await screenshot(page, `lab-training-${lang}`));
      const metrics = await page.$('[data-testid="metrics"]');
      if (metrics) shots.push(await elementShot(metrics, `lab-metrics-${lang}`));
      if (consoleErrors.length) console.log(lang, "console errors:", consoleErrors);
    } finally {
      await b.close();
    }
  }
  for (const lang of langs) {
    const b = await launch({ webgpu: false, viewport: { width: 1440, height: 1000 } });
    try {
      const { page, consoleErrors } = await openPage(
        b.context,
        server.url,
        `?v=1&lesson=names&hidden_size=16&epochs=${compareEpochs}&seed=1&backend=cpu&lang=${lang}`,
      );
      await until(async () => (await num(page, "data-val")) > 0, 120_000, "data");
      await page.click('[data-testid="compare-start"]');
      // A shot while the second cell trains, then the finished comparison.
      await until(async () => (await page.getAttribute('[data-testid="compare-status"]', "data-cell")) === "lstm", 30 * 60_000, "LSTM", 500);
      const panel = await page.$('[data-testid="compare"]');
      await page.waitForTimeout(500);
      shots.push(await elementShot(panel, `lab-compare-running-${lang}`));
      await until(async () => (await value(page, "compare-status")) === "finished", 30 * 60_000, "the comparison", 1000);
      await page.waitForTimeout(800);
      shots.push(await elementShot(panel, `lab-compare-${lang}`));
      if (consoleErrors.length) console.log(lang, "console errors:", consoleErrors);
    } finally {
      await b.close();
    }
  }
} finally {
  await server.close();
}
console.log(shots.join("\n"));
