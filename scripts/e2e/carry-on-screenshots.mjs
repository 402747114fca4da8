// Screenshots of "Train on from these weights" and "As PyTorch" on the names page after a short
// run, at 1440 px and 375 px in English and Chinese, for people to look at. Writes
// scripts/e2e/out/carry-on-*.png.
//
// Run: `node scripts/e2e/carry-on-screenshots.mjs` after `trunk build --release`.

import { join } from "node:path";
import { ROOT, buildDist, serveDist, launch, openPage, num, value, until } from "./lib.mjs";

if (process.env.UNROLL_E2E_SKIP_BUILD === undefined) process.env.UNROLL_E2E_SKIP_BUILD = "1";
buildDist();
const server = await serveDist();
const TINY = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=256&epochs=1&seed=3&backend=cpu";
const out = (name) => join(ROOT, "scripts", "e2e", "out", `${name}.png`);

try {
  for (const width of [1440, 375]) {
    for (const lang of ["en", "zh"]) {
      const b = await launch({ viewport: { width, height: 900 } });
      try {
        const { page } = await openPage(b.context, server.url, `${TINY}&lang=${lang}`);
        await until(async () => (await num(page, "data-classes")) > 0, 120_000, "data");
        await page.click('[data-testid="train-start"]');
        await until(async () => (await value(page, "train-status")) === "finished", 600_000, "training", 500);
        await page.locator(".config-panel").screenshot({ path: out(`carry-on-controls-${width}-${lang}`) });
        await page.click('[data-testid="as-pytorch"] summary');
        await page.locator('[data-testid="as-pytorch"]').screenshot({ path: out(`carry-on-pytorch-${width}-${lang}`) });
        console.log(`carry-on-*-${width}-${lang}`);
      } finally {
        await b.close();
      }
    }
  }
} finally {
  await server.close();
}
