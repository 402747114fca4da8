// Screenshots of the generation lab (`?lesson=generate`) on the built-in names: both directions
// trained (Train both directions, GEN_STEPS steps each, 300 by default) and measured, the
// sampler stepped through a name, at 1440 px and 375 px, in English and Chinese:
// scripts/e2e/out/generate-<width>-<lang>.png, and the bidirectional sampler:
// generate-bidir-1440-en.png. Prints the figures the page computed (held-out loss, bigram,
// the verdict, the name written). Serves dist/ as built (run `trunk build --release` first).
// With GEN_RELOAD=1 both directions are trained once, and each screenshot is a later visit that
// shows the runs kept in the browser (generate-reload-<width>-<lang>.png).
//
// Run: `node scripts/e2e/generate-screenshots.mjs`.

import { serveDist, launch, openPage, value, until, screenshot } from "./lib.mjs";

const STEPS = process.env.GEN_STEPS || "300";
const RELOAD = process.env.GEN_RELOAD === "1";
const server = await serveDist();
const browser = await launch({ webgpu: false, viewport: { width: 1440, height: 900 } });
const attr = (page, id, a) => page.getAttribute(`[data-testid="${id}"]`, a);
const query = (lang) => `?v=1&lesson=generate&steps=${STEPS}&language=9&sample_seed=3&lang=${lang}`;
/** Opens the lab at `width` px and trains both directions until the verdict. */
async function compared(lang, width) {
  const { page, consoleErrors } = await openPage(browser.context, server.url, query(lang));
  if (width) await page.setViewportSize({ width, height: 900 });
  await page.waitForSelector('[data-testid="generate-page"]', { timeout: 60_000 });
  await until(async () => (await value(page, "generate-data")) !== null, 60_000, "data loaded");
  if (!RELOAD || width === 0) {
    await until(async () => !(await page.isDisabled('[data-testid="gen-compare"]')), 60_000, "compare enabled");
    await page.click('[data-testid="gen-compare"]');
  }
  await page.waitForSelector('[data-testid="gen-bidir-verdict"]', { timeout: 900_000 });
  return { page, consoleErrors };
}
try {
  if (RELOAD) await (await compared("en", 0)).page.close();
  for (const lang of ["en", "zh"]) {
    for (const width of [1440, 375]) {
      const { page, consoleErrors } = await compared(lang, width);
      if (RELOAD) console.log("kept", await value(page, "generate-kept"), await value(page, "generate-status"));
      console.log("verdict", await value(page, "gen-bidir-verdict"), await page.textContent('[data-testid="gen-bidir-verdict"]'));
      console.log("versus bigram", await value(page, "gen-versus-bigram"), "bigram", await value(page, "gen-baseline-bigram"));
      console.log("quality", await page.textContent('[data-testid="gen-quality-mean"]'));
      for (let i = 0; i < 3; i++) await page.click('[data-testid="gen-step"]');
      console.log("sample", await attr(page, "gen-sample", "data-value"), await attr(page, "gen-sample", "data-full"));
      console.log("softmax", await value(page, "gen-softmax"));
      console.log(await screenshot(page, `generate-${RELOAD ? "reload-" : ""}${width}-${lang}`), consoleErrors.length ? consoleErrors : "");
      if (width === 1440 && lang === "en" && !RELOAD) {
        await page.click('[data-testid="gen-bidirectional"]');
        await page.waitForSelector('[data-testid="gen-sample"]', { timeout: 30_000 });
        await page.click('[data-testid="gen-play"]');
        await page.waitForTimeout(1500);
        console.log("bidir sample", await attr(page, "gen-sample", "data-full"));
        console.log(await screenshot(page, "generate-bidir-1440-en"));
      }
      await page.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
