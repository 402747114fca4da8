// End-to-end tests of the training lab on the real names data, CPU backend,
// headless Chromium: the configuration controls keep the URL canonical; the same URL trains to
// the same validation accuracy twice; the confusion matrix sums to the validation size and its
// diagonal gives the reported accuracy; compare mode trains RNN, LSTM and GRU, draws three curves
// and lists PyTorch's parameter counts.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/lab.test.mjs`
// (after `trunk build --release`). UNROLL_E2E_TRAIN_TIMEOUT_MS (default 900000) bounds each wait.

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { buildDist, serveDist, launch, openPage, value, num, until } from "./lib.mjs";

const TRAIN_TIMEOUT = Number(process.env.UNROLL_E2E_TRAIN_TIMEOUT_MS || 900_000);

let server;

before(async () => {
  buildDist();
  server = await serveDist();
});

after(async () => {
  await server?.close();
});

/** Waits for the data set (the summary's validation size is shown). */
async function dataReady(page) {
  await until(async () => (await num(page, "data-val")) > 0, 120_000, "the data set");
}

/** Waits until `train-status` is finished; fails with the page's error when it is error. */
async function trained(page) {
  await until(
    async () => {
      const s = await value(page, "train-status");
      if (s === "error") throw new Error(await page.textContent('[data-testid="train-error"]'));
      return s === "finished";
    },
    TRAIN_TIMEOUT,
    "training to finish",
    500,
  );
}

/** The confusion matrix: { total, epoch, counts[r][c] } from the heatmap's data attributes. */
async function confusion(page) {
  return page.$eval('[data-testid="confusion"]', (svg) => {
    const rows = Number(svg.getAttribute("data-rows"));
    const cols = Number(svg.getAttribute("data-cols"));
    const counts = Array.from({ length: rows }, () => new Array(cols).fill(NaN));
    for (const r of svg.querySelectorAll("rect[data-row]")) {
      counts[Number(r.getAttribute("data-row"))][Number(r.getAttribute("data-col"))] = Number(r.getAttribute("data-value"));
    }
    return { rows, cols, total: Number(svg.getAttribute("data-total")), counts };
  });
}

/** Per-language rows of the metrics table: [{ label, acc, val }]. */
async function perClass(page) {
  return page.$$eval('[data-testid="per-class-acc"]', (trs) =>
    trs.map((tr) => ({
      label: tr.getAttribute("data-label"),
      acc: tr.getAttribute("data-value"),
      val: Number(tr.querySelector('[data-testid="class-val"]').getAttribute("data-value")),
    })),
  );
}

/** The URL's query parameters of the page. */
async function params(page) {
  return new URL(page.url()).searchParams;
}

test("configuration controls write canonical URL keys and lock while training", async () => {
  const b = await launch({ webgpu: false });
  try {
    // 50 epochs: the run must still be going when the test pauses it (one epoch of this small
    // model takes about a second).
    const { page, consoleErrors } = await openPage(b.context, server.url, "?v=1&lesson=names&backend=cpu&hidden_size=16&epochs=50");
    await dataReady(page);
    // A typed value is clamped by the codec, as the same value in a link would be.
    await page.fill('[data-testid="cfg-num_layers"]', "9");
    await page.press('[data-testid="cfg-num_layers"]', "Tab");
    await until(async () => (await params(page)).get("num_layers") === "4", 5000, "num_layers=4 in the URL");
    assert.equal(await page.inputValue('[data-testid="cfg-num_layers"]'), "4");
    await page.fill('[data-testid="cfg-num_layers"]', "1");
    await page.press('[data-testid="cfg-num_layers"]', "Tab");
    await until(async () => !(await params(page)).has("num_layers"), 5000, "num_layers back at its default");

    await page.check('[data-testid="cfg-bidirectional"]');
    await until(async () => (await params(page)).get("bidirectional") === "1", 5000, "bidirectional=1");
    await page.fill('[data-testid="cfg-max_norm"]', "5");
    await page.press('[data-testid="cfg-max_norm"]', "Tab");
    await until(async () => (await params(page)).get("max_norm") === "5", 5000, "max_norm=5");
    await page.selectOption('[data-testid="cfg-head"]', "padded");
    await until(async () => (await params(page)).get("head") === "padded", 5000, "head=padded");
    const helpPadded = await page.textContent('[data-testid="head-help"]');
    await page.selectOption('[data-testid="cfg-head"]', "last");
    await until(async () => !(await params(page)).has("head"), 5000, "head back at its default");
    assert.notEqual(await page.textContent('[data-testid="head-help"]'), helpPadded, "the head's explanation follows the choice");
    await page.uncheck('[data-testid="cfg-bidirectional"]');
    await page.fill('[data-testid="cfg-max_norm"]', "0");
    await page.press('[data-testid="cfg-max_norm"]', "Tab");

    // Canonical: the keys in the table's order, defaults left out.
    await until(
      async () => new URL(page.url()).search === "?v=1&lesson=names&hidden_size=16&epochs=50&backend=cpu",
      5000,
      `the canonical URL (now ${page.url()})`,
    );

    // While training every control is disabled.
    await page.click('[data-testid="train-start"]');
    await until(async () => (await value(page, "train-status")) === "running", 30_000, "training to start");
    const locked = ["cfg-num_layers", "cfg-bidirectional", "cfg-max_norm", "cfg-head", "cfg-cell", "compare-start", "data-upload", "weights-upload"];
    for (const id of locked) {
      assert.ok(await page.isDisabled(`[data-testid="${id}"]`), `${id} is disabled while training`);
    }
    // Paused is still the session's: nothing that changes data or model, and no comparison.
    await page.click('[data-testid="train-pause"]');
    await until(async () => (await value(page, "train-status")) === "paused", 10_000, "training to pause");
    for (const id of locked) {
      assert.ok(await page.isDisabled(`[data-testid="${id}"]`), `${id} is disabled while paused`);
    }
    await page.click('[data-testid="train-reset"]');
    await until(async () => !(await page.isDisabled('[data-testid="cfg-head"]')), 10_000, "controls enabled after reset");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("the same URL trains to the same validation accuracy twice; the confusion matrix sums to the validation size", async () => {
  const query = "?v=1&lesson=names&cell=gru&hidden_size=32&epochs=1&seed=3&backend=cpu&autostart=1";
  const runs = [];
  for (let i = 0; i < 2; i++) {
    // A fresh browser profile each time: nothing carries over between the two runs.
    const b = await launch({ webgpu: false });
    try {
      const { page, consoleErrors } = await openPage(b.context, server.url, query);
      await dataReady(page);
      // Before training, the baseline comes from the split.
      const splitBaseline = await num(page, "majority-baseline");
      assert.equal(await page.getAttribute('[data-testid="majority-baseline"]', "data-source"), "split");
      await trained(page);
      assert.equal(await value(page, "backend"), "cpu");
      const valSize = await num(page, "data-val");
      const valAcc = await num(page, "val-acc");
      // The epoch's one smaller batch (the training names left over by batches of 64) is
      // marked on the loss curve and explained under it.
      const trainSize = await num(page, "data-train");
      if (trainSize % 64 !== 0) {
        assert.equal(await num(page, "small-batch-note"), 1);
        assert.match(await page.textContent('[data-testid="small-batch-note"]'), new RegExp(`the names left over: ${trainSize % 64}\\)`));
      }
      const m = await confusion(page);
      const rows = await perClass(page);
      runs.push({ valAcc, valSize, m });

      // 18 × 18, summing to the validation size the data summary shows.
      assert.equal(m.rows, await num(page, "data-classes"));
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
      assert.equal(await num(page, "metrics-val-acc"), valAcc);
      // Majority baseline: the largest row's share, the same from the report as from the split.
      const largest = Math.max(...m.counts.map((row) => row.reduce((a, b) => a + b, 0)));
      assert.ok(Math.abs((await num(page, "majority-baseline")) - largest / valSize) < 1e-6);
      assert.ok(Math.abs(splitBaseline - largest / valSize) < 1e-6);
      // One epoch of a GRU beats always answering the largest class.
      assert.ok(valAcc > largest / valSize, `val-acc ${valAcc} vs baseline ${largest / valSize}`);
      assert.deepEqual(consoleErrors, []);
    } finally {
      await b.close();
    }
  }
  assert.equal(runs[0].valAcc, runs[1].valAcc, "same URL, same final validation accuracy");
  assert.deepEqual(runs[0].m.counts, runs[1].m.counts, "same URL, same confusion matrix");
});

test("compare mode trains RNN, LSTM and GRU: three curves and a table with PyTorch's parameter counts", async () => {
  const H = 16;
  const b = await launch({ webgpu: false });
  try {
    // Batches of 16: each cell's epoch lasts a few seconds (at 64 names a step, a cell of this
    // size can train between two polls of the progress).
    const { page, consoleErrors } = await openPage(b.context, server.url, `?v=1&lesson=names&hidden_size=${H}&batch_size=16&epochs=1&seed=1&backend=cpu`);
    await dataReady(page);
    assert.equal(await value(page, "compare-status"), "idle");
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
    await page.click('[data-testid="compare-start"]');
    // Progress names the cell that trains; the page's own Start and the form are locked.
    const seen = new Set();
    await until(
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
    assert.equal(await num(page, "compare-progress"), 1);

    const chart = await page.$eval('[data-testid="chart-compare"]', (el) => ({
      series: Number(el.getAttribute("data-series")),
      points: Number(el.getAttribute("data-points")),
    }));
    assert.deepEqual(chart, { series: 3, points: 3 });

    const table = await page.$eval('[data-testid="compare-table"]', (t) => ({
      input: Number(t.getAttribute("data-input-size")),
      classes: Number(t.getAttribute("data-classes")),
      rows: [...t.querySelectorAll("tbody tr[data-cell]")].map((tr) => {
        const v = (id) => tr.querySelector(`[data-testid="${id}"]`).getAttribute("data-value");
        return { cell: tr.getAttribute("data-cell"), params: Number(v("compare-params")), sec: Number(v("compare-sec")), best: v("compare-best") };
      }),
    }));
    assert.equal(table.classes, await num(page, "data-classes"));
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
    assert.equal(await num(page, "train-step"), 0);
    assert.equal(await value(page, "predict-weights-step"), null, "no weights published to the page");
    assert.ok(await page.isDisabled('[data-testid="forget-saved"]'), "nothing saved in IndexedDB");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("Stop ends a comparison", async () => {
  const b = await launch({ webgpu: false });
  try {
    const { page, consoleErrors } = await openPage(b.context, server.url, "?v=1&lesson=names&hidden_size=16&epochs=2&backend=cpu");
    await dataReady(page);
    await page.click('[data-testid="compare-start"]');
    await until(async () => (await num(page, "compare-progress")) > 0, 60_000, "the first steps");
    await page.click('[data-testid="compare-stop"]');
    assert.equal(await value(page, "compare-status"), "stopped");
    // A step already under way may still report; after that nothing moves.
    await page.waitForTimeout(500);
    const p = await num(page, "compare-progress");
    await page.waitForTimeout(1500);
    assert.equal(await num(page, "compare-progress"), p, "no step after Stop");
    assert.equal(await value(page, "compare-status"), "stopped");
    assert.ok(!(await page.isDisabled('[data-testid="compare-start"]')));
    assert.ok(!(await page.isDisabled('[data-testid="train-start"]')));
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});
