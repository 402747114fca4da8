// End-to-end test of one names run split across Web Workers (the small names data set, the
// CPU path, `workers=2`): the page says how the run is split (in English and in Chinese), the
// first worker hands each batch's second share to a helper worker and no share passes through
// the page (the helper answers one share a step); the run trains to its end with the same numbers, bit for bit, as another split run
// of the same settings, and a reload mid-run resumes, split as its checkpoint says, to the
// numbers of the run never interrupted. `workers=1` trains unsplit and shows no line; `auto`
// on a machine of 2 cores, or on 4 cores for a step smaller than the one measured to pay,
// keeps one worker and says why.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/split.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { until } from "./lib.mjs";

const app = e2e();

// Four names a step (two shares of two), about 80 steps an epoch; the reloaded run is held in
// the engine at step HOLD, in its sixth epoch (`window.unrollDebug.holdAt`: the page still shows
// it running and a checkpoint of that step is kept), so the reload is certainly mid-run: on a
// loaded machine the whole run can otherwise end between the checkpoint seen and the reload.
const HOLD = 400;
const SPLIT = "?v=1&lesson=names&cell=lstm&hidden_size=16&batch_size=4&epochs=30&seed=3&backend=cpu&workers=2";

test("a split run says so, trains, and a reload mid-run resumes to the numbers of a run never interrupted", { timeout: 600_000 }, async (t) => {
  const whole = await app.names(SPLIT, { fresh: true });
  await whole.start();
  const line = await whole.workers();
  assert.deepEqual([line.used, line.shares, line.failed], ["2", "2", "0"], line.text);
  assert.match(line.text, /split across 2 workers \(2 shares/);
  // Two engine workers: the first and its helper (the browser reports a new worker a moment
  // after the page has started it: on a loaded machine after the line above said so).
  const engineWorkers = () => whole.page.workers().filter((w) => w.url().endsWith("engine-worker.js"));
  await until(() => engineWorkers().length >= 2, 10_000, "the helper's engine worker").catch(() => {});
  const engines = engineWorkers();
  assert.equal(engines.length, 2);
  // The helper computes with the page's CPU kernels (relaxed SIMD or simd128), as the first does
  // (a worker names its kernels once its module has loaded: wait for both to have).
  const kernel = await whole.page.getAttribute("html", "data-cpu-kernel");
  const kernels = () => Promise.all(engines.map((w) => w.evaluate(() => self.unrollCpuKernel)));
  await until(async () => (await kernels()).every((k) => k !== undefined), 10_000, "both engine workers' kernels").catch(() => {});
  assert.deepEqual(await kernels(), [kernel, kernel]);
  await whole.setLang("zh");
  assert.match(await whole.text("workers"), /每批拆分到 2 个 Web Worker/);
  await whole.setLang("en");
  await whole.finished();
  const reference = await whole.results();
  assert.ok(Number(reference.steps) > 1000, `steps ${reference.steps}`);
  // Every step's second share was computed by the helper.
  const served = await Promise.all(engines.map((w) => w.evaluate(() => self.unrollSharesServed ?? 0)));
  assert.deepEqual(served.sort((a, b) => a - b), [0, Number(reference.steps)], "shares answered by each engine worker");
  whole.noErrors();
  await whole.close();

  const page = await app.names(SPLIT, { fresh: true });
  await page.startHeldAt(HOLD);
  const step = await page.keptCheckpoint(HOLD);
  await page.reload();
  await page.goOn().catch(async (e) => {
    throw new Error(`${e.message} (status after the reload: ${await page.status()}; checkpoint at step ${step})`);
  });
  const resumedLine = await page.workers();
  assert.equal(resumedLine.shares, "2");
  await page.finished();
  const resumed = await page.results();
  t.diagnostic(`reloaded after the checkpoint of step ${step}; ${JSON.stringify(resumed).slice(0, 200)}`);
  assert.deepEqual(resumed, reference, "the numbers of the split run never interrupted");
  page.noErrors();
  await page.close();
});

test("one worker trains unsplit, and auto on 2 cores, or for a small step, says why it keeps one", { timeout: 300_000 }, async () => {
  const one = await app.names("?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=4&epochs=1&seed=3&backend=cpu&workers=1", { fresh: true });
  await one.start();
  await one.finished();
  assert.equal(await one.has("workers"), false, "no line for the one worker asked for");
  one.noErrors();
  await one.close();

  // Auto, on a machine of `cores` cores as the browser reports them: one worker, the line
  // saying why, no helper started.
  const autoOn = async (cores, lang) => {
    const page = await app.names(`?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=4&epochs=1&seed=3&backend=cpu&lang=${lang}`, { fresh: true });
    await page.page.addInitScript((n) => Object.defineProperty(navigator, "hardwareConcurrency", { get: () => n }), cores);
    await page.reload();
    await page.start();
    const line = await page.workers();
    assert.deepEqual([line.used, line.shares], ["1", "1"]);
    assert.equal(page.page.workers().filter((w) => w.url().endsWith("engine-worker.js")).length, 1, "no helper started");
    return { page, line };
  };
  const auto = await autoOn(2, "en");
  assert.match(auto.line.text, /on 2 cores the page and the browser need them too; splitting each batch across workers is faster on an otherwise idle machine and slower on a busy one \(workers=2 in the link splits it; auto splits from 3 cores\)/);
  await auto.page.finished();
  auto.page.noErrors();
  await auto.page.close();

  // On 4 cores, for a step smaller than the one measured to pay.
  const small = await autoOn(4, "zh");
  assert.equal(small.line.text, "1 个 Web Worker：隐藏层 8、每步 4 个序列，这一步太小，拆分到多个 Worker 的消息开销大于节省的时间（自动：隐藏层 128 起、每份至少 32 个序列才拆分；链接中加 workers=2 即拆分）");
  small.page.noErrors();
  await small.page.close();
});
