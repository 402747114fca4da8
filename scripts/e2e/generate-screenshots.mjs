// Screenshots of the generation lab (`?lesson=generate`) on the built-in names: the question
// answered ("no"), both directions trained (Train both directions, GEN_STEPS steps each, 300 by
// default) and measured, before the reveal (scripts/e2e/out/generate-asked-<width>-<lang>.png:
// no verdict) and after it with the sampler stepped through a name, at 1440 px and 375 px, in
// English and Chinese: scripts/e2e/out/generate-<width>-<lang>.png, and the bidirectional
// sampler: generate-bidir-1440-en.png. First a names classifier is trained for one epoch on the
// names page and kept in the browser, so the quality panel judges the samples with it
// (GEN_CLASSIFIER=0 leaves it out). Prints the figures the page computed (held-out loss, bigram,
// the verdict, the name written). Serves dist/ as built (run `trunk build --release` first).
// With GEN_RELOAD=1 only the first page (English, 1440 px) trains; the others are later visits
// that show the runs and the answer kept in the browser: generate-reload-<width>-<lang>.png.
//
// Run: `node scripts/e2e/generate-screenshots.mjs`.

import { serveDist, launch, openPage, value, until, screenshot } from "./lib.mjs";

const STEPS = process.env.GEN_STEPS || "300";
const RELOAD = process.env.GEN_RELOAD === "1";
const server = await serveDist();
const browser = await launch({ webgpu: false, viewport: { width: 1440, height: 900 } });
const attr = (page, id, a) => page.getAttribute(`[data-testid="${id}"]`, a);
try {
  // A names classifier kept in this browser (one epoch on the names page) judges the samples.
  if (process.env.GEN_CLASSIFIER !== "0") {
    const { page } = await openPage(browser.context, server.url, "?v=1&lesson=names&cell=gru&hidden_size=32&epochs=1&backend=cpu");
    await until(async () => !(await page.isDisabled('[data-testid="train-start"]')), 120_000, "names start");
    await page.click('[data-testid="train-start"]');
    await until(async () => !(await page.isDisabled('[data-testid="forget-saved"]')), 600_000, "the kept classifier");
    await page.close();
  }
  for (const lang of ["en", "zh"]) {
    for (const width of [1440, 375]) {
      const q = `?v=1&lesson=generate&steps=${STEPS}&language=9&sample_seed=3&lang=${lang}`;
      const { page, consoleErrors } = await openPage(browser.context, server.url, q);
      await page.setViewportSize({ width, height: 900 });
      await page.waitForSelector('[data-testid="generate-page"]', { timeout: 60_000 });
      await until(async () => (await value(page, "generate-data")) !== null, 60_000, "data loaded");
      const fresh = !RELOAD || (lang === "en" && width === 1440);
      if (!fresh) {
        await page.waitForSelector('[data-testid="generate-kept"]', { timeout: 60_000 });
        await page.waitForSelector('[data-testid="gen-bidir-verdict"]', { timeout: 300_000 });
        console.log("kept", await value(page, "generate-kept"), await value(page, "generate-status"));
      } else {
        await until(async () => !(await page.isDisabled('[data-testid="gen-compare"]')), 60_000, "compare enabled");
        // The answer is kept in this browser: the next page asks again after "Try again".
        await page.waitForTimeout(1000);
        if ((await page.getAttribute('[data-testid="question"]', "data-state")) !== "open") await page.click('[data-testid="question-again"]');
        if (width === 1440) console.log(await screenshot(page, `generate-open-${width}-${lang}`));
        await page.click('[data-testid="question-choice-1"]');
        await page.click('[data-testid="question-lock"]');
        await page.click('[data-testid="gen-compare"]');
        await page.waitForSelector('[data-testid="gen-bidir-hidden"]', { timeout: 900_000 });
        await until(async () => !(await page.isDisabled('[data-testid="question-reveal"]')), 60_000, "reveal enabled");
        console.log(await screenshot(page, `generate-asked-${width}-${lang}`));
        await page.click('[data-testid="question-reveal"]');
        await page.waitForSelector('[data-testid="gen-bidir-verdict"]', { timeout: 10_000 });
      }
      console.log("verdict", await value(page, "gen-bidir-verdict"), await page.textContent('[data-testid="gen-bidir-verdict"]'));
      console.log("versus bigram", await value(page, "gen-versus-bigram"), "bigram", await value(page, "gen-baseline-bigram"));
      console.log("quality", await page.textContent('[data-testid="gen-quality-mean"]'));
      if (await page.$('[data-testid="gen-classifier"]')) console.log("classifier", await page.textContent('[data-testid="gen-classifier"]'));
      for (let i = 0; i < 3; i++) await page.click('[data-testid="gen-step"]');
      console.log("sample", await attr(page, "gen-sample", "data-value"), await attr(page, "gen-sample", "data-full"));
      console.log("softmax", await value(page, "gen-softmax"));
      console.log(await screenshot(page, `generate-${fresh ? "" : "reload-"}${width}-${lang}`), consoleErrors.length ? consoleErrors : "");
      if (width === 1440 && lang === "en") {
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
