// End-to-end tests of the two builds of the CPU path: relaxed SIMD (`f32x4.relaxed_madd`, the
// module Trunk built) where the browser has it, and `simd128` (the module without relaxed
// SIMD, `<name>.simd128.wasm`) where it has not or where `localStorage["unroll-wasm-simd"]` is
// "simd128" (www/boot.js). Each path in turn, in the tab: the module the page downloads, the
// kernels the page and its engine worker report, and one training run's numbers, which must
// agree between the paths within the PyTorch fixtures' tolerance (|d| ≤ 1e-5 + 1e-4·|ref|).
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/wasm-simd.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";

const app = e2e();
const RUN = "?v=1&lesson=names&cell=lstm&hidden_size=24&batch_size=16&epochs=2&seed=4&backend=cpu";

/** Reloads `page` with `simd` forced ("simd128") or the browser's choice (null), trains RUN to its end. */
async function trainOn(page, simd) {
  await page.page.evaluate((s) => (s ? localStorage.setItem("unroll-wasm-simd", s) : localStorage.removeItem("unroll-wasm-simd")), simd);
  const modules = [];
  page.page.context().on("request", (r) => {
    // The service worker's precache fetches the build this browser runs, not the page's choice.
    if (r.serviceWorker()) return;
    const path = new URL(r.url()).pathname;
    if (path.endsWith(".wasm")) modules.push(path.slice(path.lastIndexOf("/") + 1));
  });
  await page.reload();
  await page.trainToEnd();
  const engine = page.page.workers().find((w) => w.url().endsWith("/engine-worker.js"));
  assert.ok(engine, "the engine's worker runs");
  return {
    page: await page.page.getAttribute("html", "data-cpu-kernel"),
    worker: await engine.evaluate(() => self.unrollCpuKernel),
    modules,
    valLoss: await page.num("val-loss"),
    valAcc: await page.num("val-acc"),
    steps: await page.num("train-step"),
  };
}

const close = (a, b) => Math.abs(a - b) <= 1e-5 + 1e-4 * Math.abs(b);

test("the tab runs relaxed SIMD where Chromium has it and simd128 when forced, with the same training numbers", { timeout: 600_000 }, async (t) => {
  const results = {};
  for (const simd of [null, "simd128"]) {
    const page = await app.names(RUN, { fresh: true });
    try {
      results[simd ?? "auto"] = await trainOn(page, simd);
      page.noErrors();
    } finally {
      await page.close();
    }
  }
  const { auto, simd128 } = results;
  t.diagnostic(JSON.stringify(results));
  assert.equal(auto.page, "relaxed-simd", "Chromium has relaxed SIMD: the page runs its kernels");
  assert.equal(auto.worker, "relaxed-simd", "and so does the engine's worker");
  assert.equal(auto.modules.length, 1, `one module download: ${auto.modules}`);
  assert.match(auto.modules[0], /^unroll-[0-9a-f]+_bg\.wasm$/, "the module with relaxed SIMD");
  assert.equal(simd128.page, "simd128", "forced: the page runs the simd128 kernels");
  assert.equal(simd128.worker, "simd128", "and so does the engine's worker");
  assert.deepEqual(simd128.modules, [auto.modules[0].replace(/\.wasm$/, ".simd128.wasm")], "the module without relaxed SIMD");
  assert.equal(auto.steps, simd128.steps, "the same run");
  assert.ok(Number.isFinite(auto.valLoss) && auto.valLoss > 0, `val-loss ${auto.valLoss}`);
  assert.ok(close(auto.valLoss, simd128.valLoss), `val-loss ${auto.valLoss} (relaxed SIMD) vs ${simd128.valLoss} (simd128)`);
  assert.ok(close(auto.valAcc, simd128.valAcc), `val-acc ${auto.valAcc} vs ${simd128.valAcc}`);
});
