// End-to-end test of a reload in the middle of a run, for each lab: the names classifier, a
// delay-copy sweep and a long-memory sweep (the adding problem), each small (the small names
// data set, short budgets, the CPU path). Each lab's run is trained once without a stop, in a
// browser of its own (its own store), and once reloaded after a checkpoint of its training
// seed was kept in IndexedDB while it trained; after the reload the page offers to go on
// (Resume, or Go on) and the run ends with the same numbers, bit for bit (the pages' raw
// `data-value`s, equal as strings), as the one never interrupted.
//
// Every lab speaks the same protocol through its page object (scripts/e2e/pages.mjs):
// `start()`, `keptCheckpoint()`, `reload()`, `goOn()`, `finished()`, `results()`.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/resume.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";

const app = e2e();

const LABS = [
  // One name a step: about 300 steps an epoch, a checkpoint at each epoch's end.
  { lab: "names", open: app.names, query: "?v=1&lesson=names&cell=gru&hidden_size=16&batch_size=1&epochs=40&seed=5&backend=cpu" },
  // Long enough a seed (seconds) for a checkpoint after step 0 to be kept while it trains: one
  // comes after a held-out evaluation at least a second after the last.
  { lab: "delay-copy", open: app.delay, query: "?v=1&lesson=delay&hidden_size=32&steps=400&seeds=2&seed=21&backend=cpu" },
  // T = 50 and 1,500 steps (the task's defaults): seconds a seed, so the reload comes mid-sweep.
  { lab: "adding", open: app.memory, query: "?v=1&lesson=delay&task=adding&hidden_size=8&seeds=2&seed=2&backend=cpu" },
];

for (const { lab, open, query } of LABS) {
  test(`${lab}: a reload mid-seed goes on and ends with the numbers of a run never interrupted`, { timeout: 600_000 }, async (t) => {
    const whole = await open(query, { fresh: true });
    await whole.start();
    await whole.finished();
    const reference = await whole.results();
    whole.noErrors();
    await whole.close();

    const page = await open(query, { fresh: true });
    await page.start();
    const step = await page.keptCheckpoint();
    await page.reload();
    // A run that ended before the reload offers nothing to go on with: the status says so.
    await page.goOn().catch(async (e) => {
      throw new Error(`${e.message} (status after the reload: ${await page.status()}; checkpoint at step ${step})`);
    });
    await page.finished();
    const resumed = await page.results();
    t.diagnostic(`${lab}: reloaded after the checkpoint of step ${step}; ${JSON.stringify(resumed).slice(0, 300)}`);
    assert.deepEqual(resumed, reference, "the numbers of the run never interrupted");
    page.noErrors();
    await page.close();
  });
}
