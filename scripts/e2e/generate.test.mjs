// End-to-end test of the generation lab (`?v=1&lesson=generate`) on the small names data set,
// CPU path: builds the app with Trunk (release) unless UNROLL_E2E_SKIP_BUILD=1.
//
// - Bidirectional leakage: the question ("will the bidirectional model write better names?") is
//   answered before the pair runs; a short unidirectional + bidirectional pair (Train both
//   directions) keeps the verdict off the page until the answer is revealed, then gives a verdict
//   computed from both runs, and it goes both ways: the bidirectional run's teacher-forced
//   held-out loss is lower, and its samples are worse (higher bigram loss of their letters,
//   shorter); the reveal is "no" and quotes the same figures; the quality panel has one row per
//   language for each.
// - The sampler: each step's softmax bars are probabilities that sum to at most 1 (the top 10 of
//   a distribution), the chosen symbol is among them; the URL carries the request, and the same
//   URL trained again writes the same name.
// - Nothing lost: a finished run is shown again after a reload (kept from an earlier visit) with
//   its held-out loss and weights (the sampler writes the same greedy name, the quality panel
//   measures again); a run reloaded mid-training offers to resume from its kept checkpoint and
//   ends with the held-out loss and greedy name of a run that never stopped; Reset forgets it.
//
// - The classifier on the samples: without a names classifier kept in the browser the quality
//   panel says so; after the names lab has trained (and kept) one in the same browser, every
//   language's row has the share of its samples the classifier assigns to it, the panel's figure
//   is their mean, and the CSV carries the column.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/generate.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { until, rustFixed } from "./lib.mjs";

const app = e2e();
const SHORT = "?v=1&lesson=generate&hidden_size=32&steps=120";

test("a bidirectional pair: its teacher-forced loss is lower and its samples worse", async () => {
  const page = await app.generate(SHORT);
  await page.waitFor('[data-testid="question"][data-key="generate-bidir"]', { timeout: 30_000 });
  await page.lockQuestion({ choice: 0 });
  assert.equal(await page.has("gen-bidir-verdict"), false);
  await page.compareBoth();
  // Both runs are measured, the answer is not revealed yet: no verdict, its place says why.
  assert.equal(await page.has("gen-bidir-verdict"), false);
  assert.equal(await page.has("gen-bidir-hidden"), true);
  assert.equal(await page.questionState(), "locked");
  await page.revealQuestion(30_000);
  await page.waitFor("gen-bidir-verdict", { timeout: 10_000 });
  assert.equal(await page.attr("question", "data-value"), "1");
  assert.equal(await page.attr("question-gap", "data-correct"), "wrong");
  const v = await page.verdict();
  const why = await page.text("question-why");
  assert.ok(why.includes(rustFixed(v.bigramBidir, 3)) && why.includes(rustFixed(v.lossUni, 3)), why);
  assert.ok(v.lossBidir < v.lossUni, `bidirectional loss ${v.lossBidir} vs ${v.lossUni}`);
  assert.ok(v.bigramBidir > v.bigramUni, `samples' bigram loss ${v.bigramBidir} vs ${v.bigramUni}`);
  assert.ok(v.lengthBidir < v.lengthUni, `mean length ${v.lengthBidir} vs ${v.lengthUni}`);
  assert.equal(v.key, "leak");
  assert.match(v.text, new RegExp(rustFixed(v.lossBidir, 3)));
  // The quality panel shows the direction the switch names: one row per language.
  assert.equal(await page.num("gen-quality"), app.data.classes.length);
  assert.equal(await page.attr("gen-quality", "data-model"), "unidirectional");
  assert.ok(Number.isFinite(await page.num("gen-baseline-bigram")));
  // The curves: training loss per character beside the held-out loss.
  assert.ok((await page.num("chart-generate-train")) > 0);
  assert.equal(Number(await page.attr("gen-train-loss", "data-step")), 120);
  assert.ok(Number.isFinite(await page.num("gen-train-loss")));
  // As PyTorch trains the page's steps; the files carry the run's tag.
  assert.equal(await page.attr("generate-as-pytorch", "data-file"), "unroll-generate-gru-h32-input.py");
  const script = await page.page.textContent('[data-testid="generate-as-pytorch-script"]');
  assert.match(script, /^ {4}steps=120,$/m);
  assert.match(script, /^ {4}hidden_size=32,$/m);
  // Answered: the CSV has both directions, one row per language each.
  const csv = await page.csv("unroll-generate-quality-gru-h32-input.csv");
  assert.equal(csv.rows, 2 * app.data.classes.length);
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

test("a names classifier kept in this browser judges the samples; without one the page says so", async () => {
  const browser = await app.launch();
  const measured = async () => {
    const page = await app.generate(SHORT, { browser });
    await page.dataLoaded();
    await page.start();
    await page.finished();
    await until(async () => (await page.num("gen-quality")) === app.data.classes.length, 60_000, "every language measured");
    return page;
  };
  const before = await measured();
  assert.equal(await before.value("gen-no-classifier"), "none");
  assert.equal(await before.has("gen-classifier"), false);
  before.noErrors();
  await before.close();

  const names = await app.names("?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=64&epochs=1&seed=3&backend=cpu", { browser });
  await names.trainToEnd();
  await names.saved();
  await names.close();

  const page = await measured();
  await page.waitFor("gen-classifier", { timeout: 10_000 });
  const share = await page.num("gen-classifier");
  const rows = await page.page.$$eval('[data-testid="gen-quality-row"]', (rs) => rs.map((r) => Number(r.dataset.recognised)));
  assert.equal(rows.length, app.data.classes.length);
  assert.ok(rows.every((r) => r >= 0 && r <= 1), `shares ${rows}`);
  assert.equal(Number(await page.attr("gen-classifier", "data-languages")), rows.length);
  assert.ok(Math.abs(share - rows.reduce((a, b) => a + b, 0) / rows.length) < 1e-12, `${share} vs ${rows}`);
  const csv = await page.csv("unroll-generate-quality-gru-h32-input.csv");
  assert.ok(csv.lines[0].endsWith(",recognised"));
  assert.deepEqual(csv.lines.slice(1).map((l) => Number(l.split(",").at(-1))), rows);
  page.noErrors();
  await page.close();
});

test("a reload keeps a finished run, and resumes one it stopped with the numbers of a run never stopped", { timeout: 600_000 }, async () => {
  // A recipe of its own (the file's browser keeps every run it trains), written greedily.
  const query = "?v=1&lesson=generate&hidden_size=24&steps=2000&greedy=1&language=1";
  const page = await app.generate(query);
  await page.dataLoaded();
  await page.start();
  await page.finished();
  const whole = await page.outcome();
  assert.equal(whole.step, "2000");
  assert.ok(Number(whole.heldout) > 0 && whole.name.length > 0);

  // After a reload: the finished run, as kept, not trained again.
  await page.reload();
  await page.waitFor("generate-kept", { timeout: 60_000 });
  assert.equal(await page.status(), "finished");
  assert.equal(await page.num("generate-kept"), 2000);
  assert.deepEqual(await page.outcome(), whole, "the kept run's held-out loss and greedy name");
  await until(async () => (await page.num("gen-quality")) === app.data.classes.length, 120_000, "the quality measured with the kept weights");

  // Reset forgets it: a reload shows nothing.
  await page.reset();
  await page.reload();
  await page.dataLoaded();
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await page.status(), "idle");
  assert.equal(await page.has("generate-heldout"), false, "nothing kept after Reset");

  // Again, held in the engine at step 1,000 (the page shows it running), reloaded once that
  // checkpoint is kept; Resume goes on from it.
  await page.startHeldAt(1000);
  const saved = await page.keptCheckpoint(1000);
  await page.reload();
  await page.waitFor("generate-interrupted", { timeout: 60_000 });
  assert.equal(await page.status(), "paused");
  const from = Number(await page.attr("generate-interrupted", "data-step"));
  assert.ok(from >= saved && from < 2000, `resumes at step ${from} (kept at ${saved})`);
  assert.ok(Number(await page.attr("generate-heldout", "data-step")) <= from, "the curve as far as the checkpoint");
  await page.goOn();
  await page.finished();
  assert.deepEqual(await page.outcome(), whole, "the resumed run's held-out loss and greedy name");
  page.noErrors();
  await page.close();
});
