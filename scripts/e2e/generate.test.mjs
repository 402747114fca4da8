// End-to-end test of the generation lab (`?v=1&lesson=generate`) on the small names data set,
// CPU path: builds the app with Trunk (release) unless UNROLL_E2E_SKIP_BUILD=1.
//
// - Bidirectional leakage: a short unidirectional + bidirectional pair (Train both directions)
//   gives a verdict computed from both runs, and it goes both ways: the bidirectional run's
//   teacher-forced held-out loss is lower, and its samples are worse (higher bigram loss of their
//   letters, shorter); the quality panel has one row per language for each.
// - The sampler: each step's softmax bars are probabilities that sum to at most 1 (the top 10 of
//   a distribution), the chosen symbol is among them; the URL carries the request, and the same
//   URL trained again writes the same name.
// - Nothing lost: a finished run is shown again after a reload (kept from an earlier visit) with
//   its held-out loss and weights (the sampler writes the same greedy name, the quality panel
//   measures again); a run reloaded mid-training offers to resume from its kept checkpoint and
//   ends with the held-out loss and greedy name of a run that never stopped; Reset forgets it.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/generate.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { until } from "./lib.mjs";

const app = e2e();
const SHORT = "?v=1&lesson=generate&hidden_size=32&steps=120";

test("a bidirectional pair: its teacher-forced loss is lower and its samples worse", async () => {
  const page = await app.generate(SHORT);
  await page.compareBoth();
  const v = await page.verdict();
  assert.ok(v.lossBidir < v.lossUni, `bidirectional loss ${v.lossBidir} vs ${v.lossUni}`);
  assert.ok(v.bigramBidir > v.bigramUni, `samples' bigram loss ${v.bigramBidir} vs ${v.bigramUni}`);
  assert.ok(v.lengthBidir < v.lengthUni, `mean length ${v.lengthBidir} vs ${v.lengthUni}`);
  assert.equal(v.key, "leak");
  assert.match(v.text, new RegExp(v.lossBidir.toFixed(3)));
  // The quality panel shows the direction the switch names: one row per language.
  assert.equal(await page.num("gen-quality"), app.data.classes.length);
  assert.equal(await page.attr("gen-quality", "data-model"), "unidirectional");
  assert.ok(Number.isFinite(await page.num("gen-baseline-bigram")));
  page.noErrors();
  await page.close();
});

test("the sampler's bars are a distribution and a sample URL writes the same name again", async () => {
  const query = `${SHORT}&language=1&temperature=0.8&top_k=5&sample_seed=7`;
  const written = async () => {
    const page = await app.generate(query);
    await page.dataLoaded();
    await page.start();
    await page.finished();
    await page.waitFor("gen-sample", { timeout: 30_000 });
    return page;
  };
  const page = await written();
  assert.equal(await page.value("gen-temperature"), "0.8");
  const { full } = await page.sample();
  assert.ok(full.length > 0);
  const steps = (await page.sample()).full.length;
  for (let i = 0; i < Math.min(steps, 4); i++) {
    await page.click("gen-step");
    const bars = await page.softmaxBars();
    assert.ok(bars.length > 0 && bars.length <= 5, `${bars.length} bars with top_k=5`);
    const sum = bars.reduce((s, b) => s + b.p, 0);
    assert.ok(sum <= 1 + 1e-6 && sum > 0, `bars sum to ${sum}`);
    assert.equal(bars.filter((b) => b.chosen).length, 1);
    assert.ok(bars.every((b, k) => k === 0 || b.p <= bars[k - 1].p));
  }
  const url = page.page.url();
  assert.match(url, /lesson=generate/);
  assert.match(url, /sample_seed=7/);
  page.noErrors();
  await page.close();
  const again = await written();
  assert.equal((await again.sample()).full, full);
  again.noErrors();
  await again.close();
});

test("a reload keeps a finished run, and resumes one it stopped with the numbers of a run never stopped", { timeout: 600_000 }, async () => {
  // A recipe of its own (the file's browser keeps every run it trains), written greedily.
  const query = "?v=1&lesson=generate&hidden_size=24&steps=300&greedy=1&language=1";
  const page = await app.generate(query);
  await page.dataLoaded();
  await page.start();
  await page.finished();
  const whole = await page.outcome();
  assert.equal(whole.step, "300");
  assert.ok(Number(whole.heldout) > 0 && whole.name.length > 0);

  // After a reload: the finished run, as kept, not trained again.
  await page.reload();
  await page.waitFor("generate-kept", { timeout: 60_000 });
  assert.equal(await page.status(), "finished");
  assert.equal(await page.num("generate-kept"), 300);
  assert.deepEqual(await page.outcome(), whole, "the kept run's held-out loss and greedy name");
  await until(async () => (await page.num("gen-quality")) === app.data.classes.length, 120_000, "the quality measured with the kept weights");

  // Reset forgets it: a reload shows nothing.
  await page.reset();
  await page.reload();
  await page.dataLoaded();
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await page.status(), "idle");
  assert.equal(await page.has("generate-heldout"), false, "nothing kept after Reset");

  // Again, reloaded mid-run once a checkpoint after step 0 is kept; Resume goes on from it.
  await page.start();
  const saved = await until(
    async () => (await page.status()) === "running" && (await page.num("generate-saved")) > 0 && page.num("generate-saved"),
    240_000,
    "a checkpoint after step 0",
    25,
  );
  await page.reload();
  await page.waitFor("generate-interrupted", { timeout: 60_000 });
  assert.equal(await page.status(), "paused");
  const from = Number(await page.attr("generate-interrupted", "data-step"));
  assert.ok(from >= saved && from < 300, `resumes at step ${from} (kept at ${saved})`);
  assert.ok(Number(await page.attr("generate-heldout", "data-step")) <= from, "the curve as far as the checkpoint");
  await page.goOn();
  await page.finished();
  assert.deepEqual(await page.outcome(), whole, "the resumed run's held-out loss and greedy name");
  page.noErrors();
  await page.close();
});
