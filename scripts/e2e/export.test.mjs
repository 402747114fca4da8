// End-to-end checks of the CSV downloads (`data-testid="export-csv"`) in headless Chromium:
// after one short epoch on the names page, the loss curve (one row per step taken), the
// validation curve (one row per epoch), the confusion matrix (one row per language, each row's
// counts summing to that language's validation names) and the per-class table (its validation
// names and accuracy as shown); after short runs, the delay page's held-out curves (one row per
// evaluation, as many as the charts' points) and sweep summary (one row per finished run), and
// the long-memory page's held-out curves; lessons 1 and 4's worked tables (held while their
// question is open, the numbers shown once it is answered). Each has its header row and the
// right row count; its name carries the page's configuration (cell and size, delay and cells,
// task and T), and the two curves' buttons say which curve they hold (in English and Chinese).
//
// Run: `node --test --test-concurrency=1 scripts/e2e/export.test.mjs` (UNROLL_E2E_SKIP_BUILD=1
// reuses dist/).

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { until } from "./lib.mjs";

// The small test data set: the files' shapes and row counts, not what is learnt, are checked.
const app = e2e();
const TINY = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=64&epochs=1&seed=3&backend=cpu";
const lines = (text) => text.split("\n").filter((l) => l !== "");

test("names page: the curves and the confusion matrix download as CSV", async () => {
  const page = await app.names(TINY);
  try {
    await page.dataReady();
    const classes = await page.num("data-classes");
    assert.equal(classes, app.data.classes.length);
    // Nothing to export before a run.
    assert.ok(await page.isDisabled('[data-testid="export-csv"][data-file="unroll-names-loss-gru-h8.csv"]'));
    // The two curves' buttons say which curve they hold.
    assert.equal(await page.text('[data-testid="export-csv"][data-file="unroll-names-loss-gru-h8.csv"]'), "Loss per step CSV");
    assert.equal(await page.text('[data-testid="export-csv"][data-file="unroll-names-val-gru-h8.csv"]'), "Validation per epoch CSV");
    await page.trainToEnd();
    const steps = await page.num("train-step");
    assert.ok(steps > 0);

    const loss = await page.csv("unroll-names-loss-gru-h8.csv");
    assert.equal(loss.name, "unroll-names-loss-gru-h8.csv");
    const lossLines = lines(loss.text);
    assert.equal(lossLines[0], "step,loss,mean_loss_20");
    assert.equal(lossLines.length - 1, steps);
    assert.equal(loss.rows, steps);
    const [first, last] = [lossLines[1].split(","), lossLines.at(-1).split(",")];
    assert.equal(first[0], "1");
    assert.equal(Number(last[0]), steps);
    // A chance-level start: ln(classes) nats, within a wide margin.
    assert.ok(Math.abs(Number(first[1]) - Math.log(classes)) < 0.5, `first loss ${first[1]}`);

    const val = await page.csv("unroll-names-val-gru-h8.csv");
    const valLines = lines(val.text);
    assert.equal(valLines[0], "epoch,train_loss,val_loss,val_acc");
    assert.equal(valLines.length, 2);
    const acc = Number(valLines[1].split(",")[3]);
    const shown = await page.num("metrics-val-acc");
    assert.ok(Math.abs(acc - shown) < 1e-3, `val_acc ${acc} vs the page's ${shown}`);

    const confusion = await page.csv("unroll-names-confusion-e1-gru-h8.csv");
    const rows = lines(confusion.text).map((l) => l.split(","));
    assert.equal(rows[0][0], "true \\ predicted");
    assert.equal(rows[0].length, classes + 1);
    assert.equal(rows.length, classes + 1);
    // Each row's counts are that language's validation names; the total is the matrix's.
    const total = rows.slice(1).reduce((s, r) => s + r.slice(1).reduce((a, n) => a + Number(n), 0), 0);
    assert.equal(total, Number(await page.attr("confusion", "data-total")));
    const perClass = (await page.perClass()).map((r) => [r.label, r.val]);
    for (const [label, count] of perClass) {
      const row = rows.find((r) => r[0] === label);
      assert.ok(row, `row of ${label}`);
      assert.equal(row.slice(1).reduce((a, n) => a + Number(n), 0), count, label);
    }

    // The per-class table: one row per language, its validation names and accuracy as shown.
    const classes_ = await page.csv("unroll-names-classes-gru-h8.csv");
    const classRows = lines(classes_.text).map((l) => l.split(","));
    assert.deepEqual(classRows[0], ["language", "lines", "distinct_names", "val_names", "val_acc"]);
    assert.equal(classRows.length - 1, classes);
    assert.equal(classes_.rows, classes);
    for (const [label, count] of perClass) {
      const row = classRows.find((r) => r[0] === label);
      assert.ok(row, `class row of ${label}`);
      assert.equal(Number(row[3]), count, label);
      const shownAcc = await page.attr(`[data-testid="per-class-acc"][data-label="${label}"]`, "data-value");
      if (shownAcc) assert.ok(Math.abs(Number(row[4]) - Number(shownAcc)) < 1e-6, `${label}: ${row[4]} vs ${shownAcc}`);
    }
    page.noErrors();
  } finally {
    await page.close();
  }
});

test("delay page: the held-out curves and the sweep summary download as CSV", { timeout: 300_000 }, async () => {
  const page = await app.delay("?v=1&lesson=delay&hidden_size=8&length=20&delay=4&steps=20&seeds=1&backend=cpu");
  try {
    assert.ok(await page.isDisabled('[data-testid="export-csv"][data-file="unroll-delay-sweep-both.csv"]'));
    await page.start();
    await page.finished(240_000);
    const curves = await page.csv("unroll-delay-heldout-d4-both.csv");
    const rows = lines(curves.text).map((l) => l.split(","));
    assert.deepEqual(rows[0], ["cell", "seed", "step", "heldout_loss", "heldout_acc"]);
    // Both cells, evaluated at step 0, every 2 steps and at the end: the charts' points.
    assert.equal(rows.length - 1, await page.num("chart-delay-loss"));
    assert.equal(curves.rows, rows.length - 1);
    assert.deepEqual([...new Set(rows.slice(1).map((r) => r[0]))], ["rnn", "lstm"]);
    const lastLstm = rows.filter((r) => r[0] === "lstm").at(-1);
    assert.equal(Number(lastLstm[2]), 20);
    assert.ok(Math.abs(Number(lastLstm[4]) - (await page.num("delay-heldout-acc-lstm"))) < 1e-9, "the last LSTM accuracy as shown");
    const sweep = await page.csv("unroll-delay-sweep-both.csv");
    const sweepRows = lines(sweep.text).map((l) => l.split(","));
    assert.deepEqual(sweepRows[0], ["delay", "cell", "seed", "step", "heldout_acc", "heldout_loss"]);
    assert.equal(sweepRows.length - 1, await page.num("delay-summary"));
    for (const r of sweepRows.slice(1)) assert.equal(r[0], "4");
    page.noErrors();
  } finally {
    await page.close();
  }
});

test("long-memory page: the held-out curves download as CSV", { timeout: 300_000 }, async () => {
  const page = await app.open("?v=1&lesson=delay&task=adding&hidden_size=8&length=5&steps=20", { wait: "memory-page" });
  try {
    await page.click("memory-start");
    await page.waitValue("memory-status", "finished", 240_000, 500);
    const curves = await page.csv("unroll-memory-heldout-adding-t5.csv");
    const rows = lines(curves.text).map((l) => l.split(","));
    assert.deepEqual(rows[0], ["cell", "seed", "step", "sequences", "heldout_loss", "heldout_acc", "solved"]);
    assert.equal(rows.length - 1, await page.num("chart-memory-loss"));
    assert.deepEqual([...new Set(rows.slice(1).map((r) => r[0]))], ["rnn", "lstm", "gru"]);
    page.noErrors();
  } finally {
    await page.close();
  }
});

test("the names page's two curve buttons are named in Chinese too", async () => {
  const { page, errors: consoleErrors } = await app.open(`${TINY}&lang=zh`);
  try {
    await page.waitForSelector('[data-testid="export-csv"][data-file="unroll-names-loss-gru-h8.csv"]', { timeout: 60_000 });
    assert.equal(await page.textContent('[data-testid="export-csv"][data-file="unroll-names-loss-gru-h8.csv"]'), "每步损失 CSV");
    assert.equal(await page.textContent('[data-testid="export-csv"][data-file="unroll-names-val-gru-h8.csv"]'), "每轮验证 CSV");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await page.close();
  }
});

for (const lang of ["en", "zh"]) {
  test(`${lang}: lessons 1 and 4 offer their worked tables as CSV once the question is answered`, async () => {
    const held = lang === "zh" ? /此表包含答案/ : /This table holds the answer/;
    // A profile of its own: the answers given here are kept in it.
    const fresh = await app.launch();
    try {
    for (const [query, file, cols, id] of [
      ["?v=1&lesson=unroll&x=1,2,-1,0.5", "unroll-rnn-table.csv", "t,x,input_term,recurrent_term,bias,z,h,from_x1", (t) => `unroll-h-${t}`],
      ["?v=1&lesson=lstm&mode=weights&x=1,2,-1", "unroll-lstm-weights-table.csv", "t,x,f,i,g,o,c_prev,f_c_prev,i_g,c,h", (t) => `lstm-h-${t}`],
    ]) {
      const lessonPage = await app.open(`${query}&lang=${lang}`, { browser: fresh });
      const { page, errors: consoleErrors } = lessonPage;
      try {
        const button = `[data-testid="export-csv"][data-file="${file}"]`;
        await page.waitForSelector(button, { timeout: 60_000 });
        assert.ok(await page.isDisabled(button), `${file}: waits while the question is open`);
        assert.match(await page.textContent('.export-row:has([data-file="' + file + '"]) [data-testid="export-held"]'), held);
        await page.click('[data-testid="question-skip"]');
        await until(async () => !(await page.isDisabled(button)), 5000, `${file} offered after the reveal`);
        const table = await lessonPage.csv(file);
        const rows = lines(table.text).map((l) => l.split(","));
        assert.equal(rows[0].join(","), cols);
        const steps = query.match(/x=([^&]*)/)[1].split(",").length;
        assert.equal(rows.length - 1, steps);
        assert.equal(table.rows, steps);
        const hCol = rows[0].indexOf("h");
        for (let t = 1; t <= steps; t++) {
          const shown = Number((await page.getAttribute(`[data-testid="${id(t)}"]`, "data-value")).split(",")[0]);
          assert.ok(Math.abs(Number(rows[t][hCol]) - shown) < 1e-6, `${file}: h_${t} ${rows[t][hCol]} vs the page's ${shown}`);
        }
        assert.deepEqual(consoleErrors, []);
      } finally {
        await page.close();
      }
    }
    } finally {
      await fresh.close();
    }
  });
}
