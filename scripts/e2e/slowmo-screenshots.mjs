// Screenshots of the slow-motion training step, in English and Chinese, at 1440 px and 375 px,
// every stage: trains an LSTM for one short epoch (CPU path, clipping on), takes one step on a
// validation name and captures the panel at each stage. PNGs go to scripts/e2e/out/slowmo-<width>-<lang>-<stage>.png.
//
// Run: `node scripts/e2e/slowmo-screenshots.mjs` after `trunk build --release`.
// Options (environment): UNROLL_SHOT_HIDDEN (default 32).

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { OUT, buildDist, serveDist, launch, openPage, value, until } from "./lib.mjs";

const hidden = Number(process.env.UNROLL_SHOT_HIDDEN || 32);
const ALL = ["forward", "logits", "softmax", "loss", "backward", "clip", "adam", "new"];

if (process.env.UNROLL_E2E_SKIP_BUILD === undefined) process.env.UNROLL_E2E_SKIP_BUILD = "1";
buildDist();
const server = await serveDist();
const shots = [];

async function shoot(page, file) {
  const el = await page.$('[data-testid="slowmo"]');
  await el.scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `${file}.png`);
  await el.screenshot({ path });
  shots.push(path);
}

/** Opens the stage, and for the forward and backward stages steps a few characters in. */
async function open(page, stage) {
  await page.click(`[data-testid="slowmo-stage-${stage}"]`);
  if (stage === "forward" || stage === "backward") {
    for (let i = 0; i < 2; i++) await page.click('[data-testid="slowmo-next"]');
  }
  await until(async () => (await page.getAttribute('[data-testid="slowmo"]', "data-stage")) === stage, 5000, stage);
}

async function session(width, height, stages) {
  const b = await launch({ webgpu: false, viewport: { width, height } });
  try {
    const query = `?v=1&lesson=names&cell=lstm&hidden_size=${hidden}&batch_size=256&epochs=1&max_norm=1&backend=cpu&seed=3&lang=en&autostart=1`;
    const { page, consoleErrors } = await openPage(b.context, server.url, query);
    await until(async () => (await value(page, "train-status")) === "finished", 20 * 60_000, "training to finish", 500);
    await page.selectOption('[data-testid="slowmo-val"]', "3");
    await page.click('[data-testid="slowmo-run"]');
    await until(async () => (await page.getAttribute('[data-testid="slowmo"]', "data-stage")) === "forward", 10_000, "the step");
    for (const lang of ["en", "zh"]) {
      await page.click(`[data-testid="lang-${lang}"]`);
      await page.waitForTimeout(300);
      for (const stage of stages) {
        await open(page, stage);
        await shoot(page, `slowmo-${width}-${lang}-${stage}`);
      }
    }
    if (consoleErrors.length) console.log("console errors:", consoleErrors);
  } finally {
    await b.close();
  }
}

try {
  await session(1440, 1400, ALL);
  await session(375, 812, ALL);
} finally {
  await server.close();
}
console.log(shots.join("\n"));
