// Screenshots of the keep panels ("Your data and model", the restored model, an upload error,
// the device-lost notice) in English and Chinese, for people to look at. Writes
// scripts/e2e/out/keep-*.png.
//
// Run: `node scripts/e2e/keep-screenshots.mjs` after `trunk build --release`.
// UNROLL_SHOT_DEVICE=0 skips the WebGPU device-loss shots (SwiftShader is slow).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT, buildDist, serveDist, launch, openPage, num, value, until, screenshot } from "./lib.mjs";

if (process.env.UNROLL_E2E_SKIP_BUILD === undefined) process.env.UNROLL_E2E_SKIP_BUILD = "1";
buildDist();
const server = await serveDist();
const shots = [];
const TINY = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=256&epochs=1&seed=3&backend=cpu";

function tsvOf(languages, limit) {
  const lines = [];
  for (const lang of languages) {
    const text = readFileSync(join(ROOT, "www", "data", "names", `${lang}.txt`), "utf8");
    for (const name of text.split("\n").slice(0, limit)) if (name.trim()) lines.push(`${name.trim()}\t${lang}`);
  }
  return lines.join("\n") + "\n";
}

const panel = (page) => page.locator('[data-testid="keep-panel"]');

try {
  for (const lang of ["en", "zh"]) {
    const b = await launch({ viewport: { width: 1440, height: 1400 } });
    try {
      const { page } = await openPage(b.context, server.url, `${TINY}&lang=${lang}`);
      await until(async () => (await num(page, "data-classes")) > 0, 120_000, "data");
      await page.click('[data-testid="train-start"]');
      await until(async () => (await value(page, "train-status")) === "finished", 600_000, "training", 500);
      await until(async () => !(await page.isDisabled('[data-testid="forget-saved"]')), 30_000, "saved");
      await page.reload({ waitUntil: "load" });
      await until(async () => (await value(page, "restored")) !== null, 60_000, "restored");
      await page.fill('[data-testid="predict-input"]', "Nguyen");
      await page.waitForTimeout(500);
      shots.push(await screenshot(page, `keep-restored-${lang}`));
      shots.push(await panel(page).screenshot({ path: join(ROOT, "scripts", "e2e", "out", `keep-panel-restored-${lang}.png`) }).then(() => `keep-panel-restored-${lang}`));
      // A TSV with a missing tab on line 7.
      const bad = tsvOf(["Greek", "Japanese"], 5).split("\n");
      bad[6] = bad[6].replace("\t", " ");
      await page.setInputFiles('[data-testid="data-upload"]', { name: "bad.tsv", mimeType: "text/plain", buffer: Buffer.from(bad.join("\n")) });
      await until(async () => (await value(page, "data-upload-message")) === "error", 30_000, "error");
      await panel(page).screenshot({ path: join(ROOT, "scripts", "e2e", "out", `keep-panel-error-${lang}.png`) });
      shots.push(`keep-panel-error-${lang}`);
      // A good 3-class TSV.
      await page.setInputFiles('[data-testid="data-upload"]', { name: "three.tsv", mimeType: "text/plain", buffer: Buffer.from(tsvOf(["Greek", "Japanese", "Polish"], 1e9)) });
      await until(async () => (await value(page, "data-upload-message")) === "ok", 30_000, "ok");
      shots.push(await screenshot(page, `keep-upload-${lang}`));
    } finally {
      await b.close();
    }
    if (process.env.UNROLL_SHOT_DEVICE !== "0") {
      const g = await launch({ webgpu: true, viewport: { width: 1440, height: 1100 } });
      try {
        const q = `?v=1&lesson=names&cell=gru&hidden_size=16&batch_size=64&epochs=1&backend=gpu&autostart=1&lang=${lang}`;
        const { page } = await openPage(g.context, server.url, q);
        await until(async () => (await num(page, "train-step")) >= 15, 300_000, "gpu steps", 250);
        await page.evaluate(() => window.unrollDebug.loseDevice());
        await page.waitForSelector('[data-testid="device-lost-notice"]', { timeout: 60_000 });
        const at = await num(page, "train-step");
        await until(async () => (await num(page, "train-step")) >= at + 15, 300_000, "cpu steps", 250);
        shots.push(await screenshot(page, `keep-device-lost-${lang}`, { fullPage: false }));
      } finally {
        await g.close();
      }
    }
  }
} finally {
  await server.close();
}
console.log(shots.join("\n"));
