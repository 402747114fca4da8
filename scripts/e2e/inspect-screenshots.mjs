// Screenshots of "inside the trained model" and the gradient-flow chart, in English and Chinese:
// trains an RNN and then an LSTM (one epoch each, CPU path, same seed) in one tab, so the
// gradient-flow chart holds both curves; then types a name, pins the LSTM's forget gate, and
// switches the language. PNGs go to scripts/e2e/out/inspect-*.png.
//
// Run: `node scripts/e2e/inspect-screenshots.mjs` after `trunk build --release`.
// Options (environment): UNROLL_SHOT_HIDDEN (default 32), UNROLL_SHOT_NAME (default Nguyen).

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { OUT, buildDist, serveDist, launch, openPage, value, until } from "./lib.mjs";

const hidden = Number(process.env.UNROLL_SHOT_HIDDEN || 32);
const name = process.env.UNROLL_SHOT_NAME || "Nguyen";

if (process.env.UNROLL_E2E_SKIP_BUILD === undefined) process.env.UNROLL_E2E_SKIP_BUILD = "1";
buildDist();
const server = await serveDist();
const shots = [];

async function trainToEnd(page) {
  await until(
    async () => {
      const s = await value(page, "train-status");
      if (s === "error") throw new Error(await page.textContent('[data-testid="train-error"]'));
      return s === "finished";
    },
    20 * 60_000,
    "training to finish",
    500,
  );
}

async function shoot(page, id, file) {
  const el = await page.$(`[data-testid="${id}"]`) ?? (await page.$(`.${id}`));
  await el.scrollIntoViewIfNeeded();
  await page.waitForTimeout(400);
  mkdirSync(OUT, { recursive: true });
  const path = join(OUT, `${file}.png`);
  await el.screenshot({ path });
  shots.push(path);
}

try {
  const b = await launch({ webgpu: false, viewport: { width: 1440, height: 1400 } });
  try {
    const query = `?v=1&lesson=names&cell=rnn&hidden_size=${hidden}&epochs=1&backend=cpu&seed=1&lang=en&autostart=1`;
    const { page, consoleErrors } = await openPage(b.context, server.url, query);
    await trainToEnd(page);
    await page.selectOption('[data-testid="cfg-cell"]', "lstm");
    await page.click('[data-testid="train-start"]');
    await until(async () => (await value(page, "train-status")) === "running", 10_000, "the LSTM run");
    await trainToEnd(page);
    await page.fill('[data-testid="inspect-input"]', name);
    await page.waitForSelector('[data-testid="inspect-top"] li');
    await shoot(page, "inspector", "inspect-en");
    await shoot(page, "gradflow-panel", "inspect-gradflow-en");
    // Pin f = 0 at every step.
    await page.selectOption('[data-testid="pin-gate"]', "f");
    await page.check('[data-testid="pin-enable"]');
    await until(async () => (await value(page, "pin-status")) === "on", 5_000, "the pin");
    await shoot(page, "inspector", "inspect-pinned-en");
    // 中文
    await page.click('[data-testid="lang-zh"]');
    await page.waitForTimeout(500);
    await shoot(page, "inspector", "inspect-pinned-zh");
    await page.click('[data-testid="pin-clear"]');
    await shoot(page, "inspector", "inspect-zh");
    await shoot(page, "gradflow-panel", "inspect-gradflow-zh");
    if (consoleErrors.length) console.log("console errors:", consoleErrors);
  } finally {
    await b.close();
  }
  // A phone-sized window, GRU with two layers and two directions (weights from the start).
  const n = await launch({ webgpu: false, viewport: { width: 375, height: 812 } });
  try {
    const q = `?v=1&lesson=names&cell=gru&hidden_size=16&num_layers=2&bidirectional=1&backend=cpu&lang=en&autostart=1`;
    const { page } = await openPage(n.context, server.url, q);
    await page.fill('[data-testid="inspect-input"]', name);
    await page.waitForSelector('[data-testid="inspect-top"] li', { timeout: 120_000 });
    await page.click('[data-testid="train-pause"]');
    await shoot(page, "inspector", "inspect-gru-375");
    await page.check('[data-testid="pin-enable"]');
    await until(async () => (await value(page, "pin-status")) === "on", 5_000, "the pin");
    await shoot(page, "inspector", "inspect-gru-pinned-375");
    await page.click('[data-testid="lang-zh"]');
    await page.waitForTimeout(500);
    await shoot(page, "inspector", "inspect-gru-pinned-375-zh");
  } finally {
    await n.close();
  }
  for (const s of shots) console.log(s);
} finally {
  await server.close();
}
