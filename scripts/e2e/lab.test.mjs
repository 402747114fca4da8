// End-to-end tests of the training lab, CPU backend, headless Chromium (the fixture's small
// data set, the real names data where a run must learn): the configuration controls keep the URL canonical; the same URL trains to
// the same validation accuracy twice; the confusion matrix sums to the validation size and its
// diagonal gives the reported accuracy; compare mode trains RNN, LSTM and GRU, draws three curves
// and lists PyTorch's parameter counts.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/lab.test.mjs`
// (after `trunk build --release`). UNROLL_E2E_TRAIN_TIMEOUT_MS (default 900000) bounds each wait.
// Runs alone: with a second file beside it on a loaded 2-core machine (load 20), Pause stayed
// disabled for 30 s after the run reported "running" (the controls test); alone it passes. Kept
// out of the shared lanes until that is understood (it is 14 s of the suite).

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { records } from "./lib.mjs";

const TRAIN_TIMEOUT = Number(process.env.UNROLL_E2E_TRAIN_TIMEOUT_MS || 900_000);

// The controls, compare mode and Stop are wiring: the small test data set. The same-URL run,
// whose first epoch must beat the majority baseline, trains on the real data.
const app = e2e();

test("configuration controls write canonical URL keys and lock while training", async () => {
  // Each test in a fresh profile: nothing saved by another test's run.
  const page = await app.names("?v=1&lesson=names&backend=cpu&hidden_size=16&batch_size=1&epochs=100", { fresh: true });
  const params = () => page.params();
  try {
    // 100 epochs of one name a step (30,400 steps on the small data set): the run must still
    // be going when the test pauses it.
    await page.dataReady();
    const { page: pw } = page;
    // A typed value is clamped by the codec, as the same value in a link would be.
    await pw.fill('[data-testid="cfg-num_layers"]', "9");
    await pw.press('[data-testid="cfg-num_layers"]', "Tab");
    await page.until(async () => params().get("num_layers") === "4", 5000, "num_layers=4 in the URL");
    assert.equal(await pw.inputValue('[data-testid="cfg-num_layers"]'), "4");
    await pw.fill('[data-testid="cfg-num_layers"]', "1");
    await pw.press('[data-testid="cfg-num_layers"]', "Tab");
    await page.until(async () => !params().has("num_layers"), 5000, "num_layers back at its default");

    await pw.check('[data-testid="cfg-bidirectional"]');
    await page.until(async () => params().get("bidirectional") === "1", 5000, "bidirectional=1");
    await pw.fill('[data-testid="cfg-max_norm"]', "5");
    await pw.press('[data-testid="cfg-max_norm"]', "Tab");
    await page.until(async () => params().get("max_norm") === "5", 5000, "max_norm=5");
    await pw.selectOption('[data-testid="cfg-head"]', "padded");
    await page.until(async () => params().get("head") === "padded", 5000, "head=padded");
    const helpPadded = await pw.textContent('[data-testid="head-help"]');
    await pw.selectOption('[data-testid="cfg-head"]', "last");
    await page.until(async () => !params().has("head"), 5000, "head back at its default");
    assert.notEqual(await pw.textContent('[data-testid="head-help"]'), helpPadded, "the head's explanation follows the choice");
    await pw.uncheck('[data-testid="cfg-bidirectional"]');
    await pw.fill('[data-testid="cfg-max_norm"]', "0");
    await pw.press('[data-testid="cfg-max_norm"]', "Tab");

    // Canonical: the keys in the table's order, defaults left out.
    await page.until(
      async () => page.search() === "?v=1&lesson=names&hidden_size=16&batch_size=1&epochs=100&backend=cpu",
      5000,
      `the canonical URL (now ${pw.url()})`,
    );

    // While training every control is disabled.
    await pw.click('[data-testid="train-start"]');
    await page.waitStatus("running", 30_000);
    const locked = ["cfg-num_layers", "cfg-bidirectional", "cfg-max_norm", "cfg-head", "cfg-cell", "compare-start", "data-upload", "weights-upload"];
    for (const id of locked) {
      assert.ok(await pw.isDisabled(`[data-testid="${id}"]`), `${id} is disabled while training`);
    }
    // Paused is still the session's: nothing that changes data or model, and no comparison.
    await pw.click('[data-testid="train-pause"]');
    await page.waitStatus("paused", 10_000);
    for (const id of locked) {
      assert.ok(await pw.isDisabled(`[data-testid="${id}"]`), `${id} is disabled while paused`);
    }
    await pw.click('[data-testid="train-reset"]');
    await page.until(async () => !(await pw.isDisabled('[data-testid="cfg-head"]')), 10_000, "controls enabled after reset");
    page.noErrors();
  } finally {
    await page.close();
  }
});

test("the same URL trains to the same validation accuracy twice; the confusion matrix sums to the validation size", async () => {
  const query = "?v=1&lesson=names&cell=gru&hidden_size=32&epochs=1&seed=3&backend=cpu&autostart=1";
  const runs = [];
  for (let i = 0; i < 2; i++) {
    // A fresh browser profile each time: nothing carries over between the two runs.
    const b = await app.launch();
    try {
      const page = await app.names(query, { browser: b, data: "real" });
      await page.dataReady();
      await page.finished(TRAIN_TIMEOUT);
      // Before training, the baseline came from the split (the page's probe saw each baseline
      // shown: the run, started by the link, may end before a test could read it).
      const baselines = (await records(page.page)).baselines;
      assert.equal(baselines[0]?.source, "split", JSON.stringify(baselines));
      const splitBaseline = baselines[0].value;
      assert.equal(await page.attr("majority-baseline", "data-source"), "report");
      assert.equal(await page.value("backend"), "cpu");
      const valSize = await page.num("data-val");
      const valAcc = await page.num("val-acc");
      // The epoch's one smaller batch (the training names left over by batches of 64) is
      // marked on the loss curve and explained under it.
      const trainSize = await page.num("data-train");
      if (trainSize % 64 !== 0) {
        assert.equal(await page.num("small-batch-note"), 1);
        assert.match(await page.text("small-batch-note"), new RegExp(`the names left over: ${trainSize % 64}\\)`));
      }
      const m = await page.confusion();
      const rows = await page.perClass();
      runs.push({ valAcc, valSize, m });

      // 18 × 18, summing to the validation size the data summary shows.
      assert.equal(m.rows, await page.num("data-classes"));
      assert.equal(m.cols, m.rows);
      const sum = m.counts.flat().reduce((a, b) => a + b, 0);
      assert.equal(sum, m.total);
      assert.equal(m.total, valSize);
      // Row sums are the validation names per class (the table's column); every class present.
      assert.equal(rows.length, m.rows);
      m.counts.forEach((row, r) => {
        const rowSum = row.reduce((a, b) => a + b, 0);
        assert.equal(rowSum, rows[r].val, `row ${rows[r].label}`);
        assert.ok(rowSum > 0, `${rows[r].label} has validation names`);
        // Per-class accuracy = diagonal / row sum.
        assert.ok(Math.abs(Number(rows[r].acc) - row[r] / rowSum) < 1e-6, `accuracy of ${rows[r].label}`);
      });
      // The diagonal gives the accuracy the session reports.
      const diag = m.counts.reduce((a, row, r) => a + row[r], 0);
      assert.ok(Math.abs(diag / valSize - valAcc) < 1e-6, `diagonal ${diag}/${valSize} vs val-acc ${valAcc}`);
      assert.equal(await page.num("metrics-val-acc"), valAcc);
      // Majority baseline: the largest row's share, the same from the report as from the split.
      const largest = Math.max(...m.counts.map((row) => row.reduce((a, b) => a + b, 0)));
      assert.ok(Math.abs((await page.num("majority-baseline")) - largest / valSize) < 1e-6);
      assert.ok(Math.abs(splitBaseline - largest / valSize) < 1e-6);
      // One epoch of a GRU beats always answering the largest class.
      assert.ok(valAcc > largest / valSize, `val-acc ${valAcc} vs baseline ${largest / valSize}`);
      page.noErrors();
    } finally {
      await b.close();
    }
  }
  assert.equal(runs[0].valAcc, runs[1].valAcc, "same URL, same final validation accuracy");
  assert.deepEqual(runs[0].m.counts, runs[1].m.counts, "same URL, same confusion matrix");
});

test("compare mode trains RNN, LSTM and GRU: three curves and a table with PyTorch's parameter counts", async () => {
  const H = 16;
  // Batches of 4 for 5 epochs: each cell trains for 380 steps on the small data set, long
  // enough for the polls below to see it running.
  const EPOCHS = 5;
  const lab = await app.names(`?v=1&lesson=names&hidden_size=${H}&batch_size=4&epochs=${EPOCHS}&seed=1&backend=cpu`, { fresh: true });
  const { page } = lab;
  try {
    await lab.dataReady();
    assert.equal(await lab.value("compare-status"), "idle");
    // Every cell the progress names while running, recorded in the page as it changes (a
    // small cell's epoch can end between two polls).
    await page.evaluate(() => {
      window.__compareCells = [];
      const note = () => {
        const el = document.querySelector('[data-testid="compare-status"]');
        const cell = el?.getAttribute("data-cell");
        if (el?.getAttribute("data-value") === "running" && cell && !window.__compareCells.includes(cell)) window.__compareCells.push(cell);
      };
      new MutationObserver(note).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ["data-cell", "data-value"] });
    });
    await lab.click("compare-start");
    // Progress names the cell that trains; the page's own Start and the form are locked.
    const seen = new Set();
    await lab.until(
      async () => {
        // One snapshot of the page, so status and disabled states are read together.
        const snap = await page.evaluate(() => {
          const q = (id) => document.querySelector(`[data-testid="${id}"]`);
          return {
            status: q("compare-status").getAttribute("data-value"),
            cell: q("compare-status").getAttribute("data-cell"),
            trainDisabled: q("train-start").disabled,
            formDisabled: q("cfg-hidden_size").disabled,
            uploadDisabled: q("data-upload").disabled,
            weightsDisabled: q("weights-upload").disabled,
          };
        });
        if (snap.status === "running") {
          seen.add(snap.cell);
          assert.ok(snap.trainDisabled, "train-start is disabled during a comparison");
          assert.ok(snap.formDisabled, "the form is locked during a comparison");
          assert.ok(snap.uploadDisabled, "Load your own data is locked during a comparison");
          assert.ok(snap.weightsDisabled, "Load weights is locked during a comparison");
        }
        return snap.status === "finished";
      },
      TRAIN_TIMEOUT,
      "the comparison to finish",
      100,
    );
    assert.ok(seen.size > 0, "the poll saw the comparison running");
    const named = await page.evaluate(() => window.__compareCells);
    assert.deepEqual(named, ["rnn", "lstm", "gru"], `progress named the cells in order: ${named}`);
    assert.equal(await lab.num("compare-progress"), 1);

    const chart = await page.$eval('[data-testid="chart-compare"]', (el) => ({
      series: Number(el.getAttribute("data-series")),
      points: Number(el.getAttribute("data-points")),
    }));
    assert.deepEqual(chart, { series: 3, points: 3 * EPOCHS }, "one point per cell and epoch");

    const table = await page.$eval('[data-testid="compare-table"]', (t) => ({
      input: Number(t.getAttribute("data-input-size")),
      classes: Number(t.getAttribute("data-classes")),
      rows: [...t.querySelectorAll("tbody tr[data-cell]")].map((tr) => {
        const v = (id) => tr.querySelector(`[data-testid="${id}"]`).getAttribute("data-value");
        return { cell: tr.getAttribute("data-cell"), params: Number(v("compare-params")), sec: Number(v("compare-sec")), best: v("compare-best") };
      }),
    }));
    assert.equal(table.classes, await lab.num("data-classes"));
    assert.equal(table.classes, app.data.classes.length);
    assert.ok(table.input > 26, `input_size ${table.input}`);
    assert.deepEqual(table.rows.map((r) => r.cell), ["rnn", "lstm", "gru"]);
    // PyTorch: gates·(H·I + H·H + 2·H) for the recurrent layer (two bias vectors), C·H + C for nn.Linear.
    const gates = { rnn: 1, lstm: 4, gru: 3 };
    for (const r of table.rows) {
      const g = gates[r.cell];
      const expected = g * (H * table.input + H * H + 2 * H) + table.classes * H + table.classes;
      assert.equal(r.params, expected, `${r.cell} parameters`);
      assert.ok(r.sec > 0, `${r.cell} sec/epoch ${r.sec}`);
      assert.ok(Number(r.best) > 0 && Number(r.best) <= 1, `${r.cell} best accuracy ${r.best}`);
    }
    assert.ok(!(await page.isDisabled('[data-testid="train-start"]')), "train-start is enabled again");
    assert.ok(!(await page.isDisabled('[data-testid="data-upload"]')), "data-upload is enabled again");
    assert.ok(!(await page.isDisabled('[data-testid="weights-upload"]')), "weights-upload is enabled again");
    // The comparison's models are not the page's: no weights for the predict box, nothing saved.
    assert.equal(await lab.num("train-step"), 0);
    assert.equal(await lab.value("predict-weights-step"), null, "no weights published to the page");
    assert.ok(await page.isDisabled('[data-testid="forget-saved"]'), "nothing saved in IndexedDB");
    lab.noErrors();
  } finally {
    await lab.close();
  }
});

test("Stop ends a comparison", async () => {
  // 100 epochs of one name a step: far more than the test waits for.
  const page = await app.names("?v=1&lesson=names&hidden_size=16&batch_size=1&epochs=100&backend=cpu", { fresh: true });
  try {
    await page.dataReady();
    await page.click("compare-start");
    await page.until(async () => (await page.num("compare-progress")) > 0, 60_000, "the first steps");
    await page.click("compare-stop");
    assert.equal(await page.value("compare-status"), "stopped");
    // A step already under way may still report; after that nothing moves.
    await page.page.waitForTimeout(500);
    const p = await page.num("compare-progress");
    await page.page.waitForTimeout(1500);
    assert.equal(await page.num("compare-progress"), p, "no step after Stop");
    assert.equal(await page.value("compare-status"), "stopped");
    assert.ok(!(await page.isDisabled("compare-start")));
    assert.ok(!(await page.isDisabled("train-start")));
    page.noErrors();
  } finally {
    await page.close();
  }
});
