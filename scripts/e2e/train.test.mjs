// End-to-end test of the training page: builds the app with Trunk (release), serves
// dist/ on 127.0.0.1, opens it in headless Chromium and trains on the real names data, once on
// WebGPU (SwiftShader, --enable-unsafe-webgpu) and once on the CPU path (no adapter).
//
// Run: `npm run e2e` (or `node --test --test-concurrency=1 scripts/e2e/`).
// Environment: UNROLL_E2E_SKIP_BUILD=1 reuses dist/; UNROLL_E2E_HIDDEN (default 32) sets
// hidden_size; UNROLL_E2E_TRAIN_TIMEOUT_MS (default 900000) bounds each training wait;
// UNROLL_E2E_MAX_TASK_MS (default 100) is the longest main-thread task allowed while training.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { value, num, until, settled, records, msPerStep, maxLongTask, screenshot } from "./lib.mjs";

const HIDDEN = Number(process.env.UNROLL_E2E_HIDDEN || 32);
const TRAIN_TIMEOUT = Number(process.env.UNROLL_E2E_TRAIN_TIMEOUT_MS || 900_000);
// A loose regression guard on the page's main thread (the engine trains in a Web Worker; the
// 50 ms target is the benchmark's to report): it catches a freeze of a second or more (training
// or parsing on the page), never the frame-long tasks a loaded 2-core machine stretches to
// ~0.5 s (measured at load average 9).
const MAX_TASK_MS = Number(process.env.UNROLL_E2E_MAX_TASK_MS || 1000);
const LN_18 = Math.log(18);
const LANGUAGES = new Set([
  "Arabic", "Chinese", "Czech", "Dutch", "English", "French", "German", "Greek", "Irish",
  "Italian", "Japanese", "Korean", "Polish", "Portuguese", "Russian", "Scottish", "Spanish", "Vietnamese",
]);

// Learning on the real data (the loss, the accuracy, the predictions); each test in a browser of
// its own, as the WebGPU and CPU runs need.
const app = e2e({ data: "real" });

/** Types `name` into the predict box and returns [{label, p}] of the predict-top list. */
async function predict(page, name) {
  await page.fill('[data-testid="predict-input"]', name);
  await page.waitForSelector('[data-testid="predict-top"] li', { timeout: 30_000 });
  return page.$$eval('[data-testid="predict-top"] li', (lis) =>
    lis.map((li) => ({ label: li.getAttribute("data-label"), p: Number(li.getAttribute("data-value")) })),
  );
}

/**
 * Opens the page with autostart, checks the backend and the learning criteria, and
 * returns the probe records. Shared by the WebGPU and the CPU run.
 */
async function trainRun(t, { webgpu, backend, shot }) {
  const browser = await app.launch({ webgpu });
  try {
    // WebGPU is forced (`auto` would take the faster path, on SwiftShader often the CPU);
    // without an adapter `auto` falls back to the CPU.
    const force = webgpu ? "&backend=gpu" : "";
    const query = `?v=1&lesson=names&hidden_size=${HIDDEN}&autostart=1${force}`;
    const { page, errors: consoleErrors } = await app.open(query, { browser });

    // The data set loads and the session reports its backend.
    await until(async () => (await value(page, "backend")) || (await value(page, "train-status")) === "error", 120_000, "the backend");
    assert.equal(await value(page, "train-status"), "running", `training did not start: ${await page.textContent("body")}`);
    assert.equal(await value(page, "backend"), backend);
    const backendText = await page.textContent('[data-testid="backend"]');
    assert.match(backendText, backend === "webgpu" ? /WebGPU/ : /CPU/);
    if (backend === "cpu") {
      assert.ok(await page.isVisible('[data-testid="backend-notice"]'), "the CPU backend shows a notice why");
    }
    assert.equal(await num(page, "data-raw-lines"), 20074);
    assert.equal(await num(page, "data-classes"), 18);

    // Train until the 20-step mean loss is below 2.0 or 300 steps have passed.
    await until(
      async () => {
        const step = await num(page, "train-step");
        const loss = await num(page, "train-loss");
        if ((await value(page, "train-status")) === "error") throw new Error(await page.textContent('[data-testid="train-error"]'));
        return step >= 300 || (step >= 20 && loss < 2.0);
      },
      TRAIN_TIMEOUT,
      "the loss to fall below 2.0 or 300 steps",
      500,
    );
    const rec = await records(page);
    const first = rec.losses[0];
    t.diagnostic(`${backend}: first reported train-loss ${first?.loss} at step ${first?.step}`);
    // The page shows the mean of the last (up to) 20 steps, updated once per report batch: when
    // the first value arrives within 20 steps it is the untrained model's, near ln 18; on the
    // fast CPU path of a quiet machine the first batch can hold 70+ steps, by when the mean may
    // already be below 2.0, so only the upper bound holds (the start at ln(classes) is checked on
    // step 1 of the loss CSV in export.test).
    const [lo, hi] = first && first.step <= 20 ? [2.6, 3.0] : [0, 3.0];
    assert.ok(first && first.loss >= lo && first.loss <= hi, `first train-loss ${first?.loss} at step ${first?.step} not in [${lo}, ${hi}] (ln 18 = ${LN_18.toFixed(3)})`);
    const below = rec.losses.find((l) => l.loss < 2.0);
    t.diagnostic(`${backend}: train-loss first below 2.0 at step ${below?.step ?? "never"}; at step ${await num(page, "train-step")}: ${await num(page, "train-loss")}`);
    assert.ok(below && below.step <= 300, "train-loss falls below 2.0 within 300 steps");

    // Train on through the first epoch's validation (and at least 10 s in all), so the
    // long-task measurement covers steps and validation.
    await until(
      async () => {
        if ((await value(page, "train-status")) === "error") throw new Error(await page.textContent('[data-testid="train-error"]'));
        const r = await records(page);
        if (!(await value(page, "val-acc")) || r.trainingSince === null) return false;
        return (await page.evaluate(() => performance.now())) - r.trainingSince >= 10_000;
      },
      TRAIN_TIMEOUT,
      "the first epoch's validation",
      500,
    );
    const valAcc = await num(page, "val-acc");
    t.diagnostic(`${backend}: after epoch ${await num(page, "epoch")}: val-acc ${valAcc}, val-loss ${await num(page, "val-loss")}, ${await num(page, "epoch-sec")} s/epoch`);
    assert.ok(valAcc > 0 && valAcc <= 1, `val-acc ${valAcc} is a fraction`);
    assert.ok((await num(page, "chart-val")) >= 1, "the validation chart has a point");
    assert.ok((await num(page, "chart-train-loss")) > 0, "the loss chart has points");
    // The predict box now uses weights read back after that epoch, not the initialisation.
    assert.ok((await num(page, "predict-weights-step")) > 0 || !(await page.$('[data-testid="predict-weights-step"]')));

    const rec2 = await records(page);
    const ms = msPerStep(rec2);
    const longest = maxLongTask(rec2);
    const trainedFor = (await page.evaluate(() => performance.now())) - rec2.trainingSince;
    t.diagnostic(`${backend}: ${ms.toFixed(1)} ms/step (hidden_size ${HIDDEN}, batch 64, incl. validation), longest main-thread task over ${(trainedFor / 1000).toFixed(1)} s of training: ${longest.toFixed(0)} ms (${rec2.longtasks.length} long tasks over 50 ms in the whole page life)`);

    // Predictions from the current weights: 3 known languages, probabilities in [0, 1] summing to at most 1.
    const top = await predict(page, "Nguyen");
    t.diagnostic(`${backend}: Nguyen → ${top.map((x) => `${x.label} ${x.p.toFixed(3)}`).join(", ")}`);
    assert.equal(top.length, 3);
    for (const { label, p } of top) {
      assert.ok(LANGUAGES.has(label), `unknown language ${label}`);
      assert.ok(p >= 0 && p <= 1, `probability ${p}`);
    }
    assert.equal(new Set(top.map((x) => x.label)).size, 3, "three different languages");
    assert.ok(top[0].p >= top[1].p && top[1].p >= top[2].p, "sorted by probability");
    assert.ok(top.reduce((s, x) => s + x.p, 0) <= 1 + 1e-6, "probabilities sum to at most 1");

    // A name with no usable letters gets a message, not a prediction.
    await page.fill('[data-testid="predict-input"]', "123 !?");
    await page.waitForSelector('[data-testid="predict-message"]', { timeout: 5000 });
    assert.equal(await page.$('[data-testid="predict-top"]'), null);
    await page.fill('[data-testid="predict-input"]', "Schmidt");
    await page.waitForSelector('[data-testid="predict-top"] li', { timeout: 30_000 });

    if (shot) t.diagnostic(`screenshot: ${await screenshot(page, shot)}`);
    assert.ok(longest < MAX_TASK_MS, `longest main-thread task while training: ${longest.toFixed(0)} ms (limit ${MAX_TASK_MS} ms)`);
    assert.deepEqual(consoleErrors, [], "no console errors");
    return rec;
  } finally {
    await browser.close();
  }
}

test("trains on WebGPU (SwiftShader) in headless Chromium", { timeout: TRAIN_TIMEOUT + 300_000 }, async (t) => {
  await trainRun(t, { webgpu: true, backend: "webgpu", shot: "training-webgpu" });
});

test("falls back to the CPU path without a WebGPU adapter and trains", { timeout: TRAIN_TIMEOUT + 300_000 }, async (t) => {
  await trainRun(t, { webgpu: false, backend: "cpu", shot: "training-cpu" });
});

test("pause, resume and reset", { timeout: 300_000 }, async () => {
  const browser = await app.launch({ webgpu: false });
  try {
    // Enough epochs that the run is still going when the test pauses it (two epochs at
    // hidden 16 can end before the click on a fast CPU path); the reset below ends it.
    const { page } = await app.open(`?v=1&lesson=names&hidden_size=16&epochs=20`, { browser });
    await page.waitForSelector('[data-testid="train-start"]:not([disabled])', { timeout: 120_000 });
    assert.equal(await value(page, "train-status"), "idle");
    assert.ok(await page.isDisabled('[data-testid="train-pause"]'), "pause is disabled before start");
    await page.click('[data-testid="train-start"]');
    await until(async () => (await num(page, "train-step")) >= 5, 120_000, "5 steps");
    assert.ok(await page.isDisabled('[data-testid="train-start"]'), "start is disabled while running");
    assert.ok(await page.isDisabled('[data-testid="cfg-hidden_size"]'), "settings are locked while running");

    await page.click('[data-testid="train-pause"]');
    assert.equal(await value(page, "train-status"), "paused");
    const paused = await settled(page, "train-step"); // steps finished before the pause still arrive
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(await num(page, "train-step"), paused, "no steps while paused");

    await page.click('[data-testid="train-resume"]');
    assert.equal(await value(page, "train-status"), "running");
    await until(async () => (await num(page, "train-step")) > paused, 60_000, "steps after resume");

    await page.click('[data-testid="train-reset"]');
    assert.equal(await value(page, "train-status"), "idle");
    assert.equal(await num(page, "train-step"), 0);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await num(page, "train-step"), 0, "a reset session reports no more steps");
    assert.ok(await page.isEnabled('[data-testid="cfg-hidden_size"]'), "settings unlock after reset");
  } finally {
    await browser.close();
  }
});

/** Every button's accessible name (aria-label, else its text) by test id, and the names used twice. */
async function buttonNames(page) {
  const names = await page.evaluate(() =>
    [...document.querySelectorAll("button")].map((b) => [b.getAttribute("data-testid"), (b.getAttribute("aria-label") || b.textContent).trim()]),
  );
  const counts = {};
  for (const [, n] of names) counts[n] = (counts[n] ?? 0) + 1;
  return { byId: Object.fromEntries(names), twice: Object.entries(counts).filter(([, c]) => c > 1).map(([n]) => n) };
}

/** The status pill: [status, data-resumable, text]. */
async function pill(page) {
  const sel = '[data-testid="train-status"]';
  return [await value(page, "train-status"), await page.getAttribute(sel, "data-resumable"), (await page.textContent(sel)).trim()];
}

test("the run's and the pin's reset have their own names; the status says a run can be resumed after a reload mid-run, not before; the loss chart says why it swings (en, zh)", { timeout: 600_000 }, async () => {
  const browser = await app.launch({ webgpu: false });
  try {
    // A long run (it does not end during the test); its checkpoints are saved every few seconds.
    const query = "?v=1&lesson=names&cell=gru&hidden_size=32&batch_size=16&epochs=50&seed=5&backend=cpu";
    const { page, errors: consoleErrors } = await app.open(`${query}&lang=en`, { browser });
    await page.waitForSelector('[data-testid="train-start"]:not([disabled])', { timeout: 120_000 });
    // A fresh profile: nothing to resume.
    assert.deepEqual(await pill(page), ["idle", "false", "Ready"]);
    assert.match(await page.textContent('[data-testid="loss-swing-note"]'), /^Each batch holds names of one length .*the curve jumps from step to step\. Read the trend from the mean of the last 20 steps and the validation curve\.$/);
    const below = await page.evaluate(() => {
      const chart = document.querySelector('[data-testid="chart-train-loss"]');
      const note = document.querySelector('[data-testid="loss-swing-note"]');
      return chart.closest(".panel") === note.closest(".panel") && note.getBoundingClientRect().top >= chart.getBoundingClientRect().bottom;
    });
    assert.ok(below, "the note is under the loss chart");

    await page.click('[data-testid="train-start"]');
    const saved = await until(async () => (await num(page, "checkpoint-saved")) || 0, 120_000, "a saved checkpoint", 100);
    // Running, with a checkpoint saved: the pill says it trains, not that it can be resumed.
    assert.deepEqual(await pill(page), ["running", "false", "Training"]);
    await page.click('[data-testid="train-pause"]');
    assert.deepEqual(await pill(page), ["paused", "false", "Paused"]);

    // A reload mid-run: the run comes back and waits for Resume, and the pill says so.
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector('[data-testid="restored"]', { timeout: 120_000 });
    assert.ok((await num(page, "restored")) >= saved, "restored from the saved checkpoint or a later one");
    await until(async () => !(await page.isDisabled('[data-testid="train-resume"]')), 30_000, "Resume offered");
    assert.deepEqual(await pill(page), ["idle", "true", "Can be resumed"]);

    // The run's Reset and the inspector's pin reset: each name once, in both languages.
    await page.fill('[data-testid="inspect-input"]', "Nguyen");
    await page.waitForSelector('[data-testid="pin-clear"]', { timeout: 60_000 });
    const names = {};
    for (const lang of ["en", "zh"]) {
      await page.click(`[data-testid="lang-${lang}"]`);
      await until(async () => (await page.evaluate(() => document.documentElement.lang)).startsWith(lang), 5000, `the ${lang} page`);
      const { byId, twice } = await buttonNames(page);
      assert.deepEqual(twice, [], `${lang}: buttons sharing a name`);
      for (const id of ["train-reset", "pin-clear"]) {
        assert.equal(await page.getByRole("button", { name: byId[id], exact: true }).count(), 1, `${lang}: ${id} found by its name`);
      }
      names[lang] = [byId["train-reset"], byId["pin-clear"]];
    }
    assert.deepEqual(names, { en: ["Reset run", "Reset the pin"], zh: ["重置训练", "重置固定设置"] });
    // The Chinese pill and note.
    assert.deepEqual(await pill(page), ["idle", "true", "可以继续训练"]);
    assert.match(await page.textContent('[data-testid="loss-swing-note"]'), /^每个批次只含同一长度的名字（因此几乎不用填充）.*趋势请看最近 20 步的平均值和验证曲线。$/);

    // Resume takes the run on: the pill says it trains.
    await page.click('[data-testid="train-resume"]');
    assert.deepEqual(await pill(page), ["running", "false", "训练中"]);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await browser.close();
  }
});

test("bad URL values are clamped or ignored, listed in a notice, and the URL becomes canonical", { timeout: 180_000 }, async () => {
  const browser = await app.launch({ webgpu: false });
  try {
    const { page, errors: consoleErrors } = await app.open(`?lesson=names&hidden_size=99999&lr=abc&batch_size=-3&bogus=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E`, { browser });
    await page.waitForSelector('[data-testid="url-notice"]', { timeout: 60_000 });
    const notice = await page.textContent('[data-testid="url-notice"]');
    for (const key of ["hidden_size", "lr", "batch_size", "bogus"]) assert.match(notice, new RegExp(key), `notice names ${key}`);
    assert.equal(await page.$("img"), null, "a URL value is never rendered as HTML");
    assert.equal(await page.inputValue('[data-testid="cfg-hidden_size"]'), "256");
    await until(() => new URL(page.url()).searchParams.get("hidden_size") === "256", 5000, `hidden_size=256 in the URL (now ${page.url()})`);
    const search = new URL(page.url()).searchParams;
    assert.equal(search.get("lr"), null, "an unparsable value falls back to the default, which is omitted");
    assert.equal(search.get("bogus"), null);
    await page.click('[data-testid="url-notice-dismiss"]');
    assert.equal(await page.$('[data-testid="url-notice"]'), null);

    // The language switch: text changes, the choice goes into the URL, numbers stay.
    await page.waitForSelector('[data-testid="data-pairs"]', { timeout: 60_000 });
    const pairs = await value(page, "data-pairs");
    assert.ok(Number(pairs) > 0);
    await page.click('[data-testid="lang-zh"]');
    await until(async () => (await page.getAttribute("html", "lang")) === "zh-CN", 5000, "<html lang=zh-CN>");
    assert.equal(await page.title(), "Unroll：循环神经网络，在浏览器中实时运行");
    assert.equal(await page.textContent("h1"), "这个姓氏来自哪种语言？");
    await until(async () => new URL(page.url()).searchParams.get("lang") === "zh", 5000, "lang=zh in the URL");
    assert.equal(await value(page, "data-pairs"), pairs);
    await page.click('[data-testid="lang-en"]');
    await until(async () => new URL(page.url()).searchParams.get("lang") === "en", 5000, "lang=en in the URL");
    await until(async () => (await page.title()) === "Unroll: recurrent networks, live in the browser", 5000, "the English title");

    // A form change goes through the same codec and updates the URL.
    await page.fill('[data-testid="cfg-epochs"]', "7");
    await page.press('[data-testid="cfg-epochs"]', "Enter");
    await until(async () => new URL(page.url()).searchParams.get("epochs") === "7", 5000, "epochs=7 in the URL");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await browser.close();
  }
});

test("a panic shows the error panel instead of a blank page", { timeout: 120_000 }, async () => {
  const browser = await app.launch({ webgpu: false });
  try {
    const { page, errors: consoleErrors } = await app.open("?lesson=names", { browser });
    await page.waitForSelector('[data-testid="train-start"]', { timeout: 60_000 });
    await page.evaluate(() => {
      try {
        window.wasmBindings.unroll_debug_panic("test panic <b>not html</b>");
      } catch {
        // the wasm trap after the hook ran
      }
    });
    await page.waitForSelector('[data-testid="panic-panel"]', { timeout: 5000 });
    const text = await page.textContent('[data-testid="panic-panel"]');
    assert.match(text, /internal error/);
    assert.match(text, /test panic <b>not html<\/b>/, "the message is shown as text");
    assert.equal(await page.$('[data-testid="panic-panel"] b'), null);
    assert.ok(consoleErrors.some((e) => e.includes("test panic")), "the panic is logged to the console");
  } finally {
    await browser.close();
  }
});

test("Start says it prepares the data until the data set is ready (en, zh)", { timeout: 300_000 }, async () => {
  for (const [lang, preparing, start] of [["en", "Preparing the data…", "Start training"], ["zh", "正在准备数据…", "开始训练"]]) {
    // A fresh profile each time: no service worker answers before the test's route.
    const browser = await app.launch({ webgpu: false });
    try {
      const page = await browser.context.newPage();
      let release;
      const held = new Promise((r) => (release = r));
      await page.route("**/data/names/manifest.json", async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${app.url}?v=1&lesson=names&lang=${lang}`, { waitUntil: "load" });
      await page.waitForSelector('[data-testid="train-start"][data-state="preparing"]', { timeout: 60_000 });
      assert.equal((await page.textContent('[data-testid="train-start"]')).trim(), preparing);
      assert.ok(await page.isDisabled('[data-testid="train-start"]'));
      release();
      await page.waitForSelector('[data-testid="train-start"][data-state="ready"]:not([disabled])', { timeout: 120_000 });
      assert.equal((await page.textContent('[data-testid="train-start"]')).trim(), start);
    } finally {
      await browser.close();
    }
  }
});

test("a missing data set gives a clear message, not a blank page", { timeout: 120_000 }, async () => {
  const blocked = await app.serve({ block: ["/data/"] });
  const browser = await app.launch({ webgpu: false });
  try {
    const { page } = await app.open("?lesson=names", { browser, url: blocked.url });
    await page.waitForSelector('[data-testid="data-error"]', { timeout: 60_000 });
    assert.match(await page.textContent('[data-testid="data-error"]'), /fetch-data\.mjs/);
    assert.ok(await page.isDisabled('[data-testid="train-start"]'));
    assert.equal(await page.getAttribute('[data-testid="train-start"]', "data-state"), "unavailable");
    assert.equal((await page.textContent('[data-testid="train-start"]')).trim(), "Start training");
  } finally {
    await browser.close();
    await blocked.close();
  }
});
