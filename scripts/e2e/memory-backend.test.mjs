// End-to-end test of the training backend of the sequence lab's tasks, in headless Chromium with
// SwiftShader's WebGPU adapter, at a small size (hidden 8, one seed, a short T, one step where only the first is compared):
// - for each task of one table (adding, copy memory, temporal order; names generation,
//   unidirectional, conditioned on the input, on the small names data set), `backend=gpu` and
//   `backend=cpu` train the same sweep from the same seed: every cell's step-1 training loss
//   agrees to 1e-5 (relative), and each cell's backend line names the path;
// - names generation conditioned on the initial state, asked for WebGPU, trains on the CPU and its
//   backend line says the GPU path does not train that model yet (en, zh);
// - `backend=auto` measures both paths for each cell, trains on the faster and its backend line
//   shows both figures (en; after the language switch, the same figures in Chinese),
//   screenshots at 1440 and 375 px in both languages;
// - a lost device (`window.unrollDebug.loseDevice()`) hands the runs to the CPU from the step
//   they reached, says so, and the sweep finishes;
// - the form's backend select writes the URL key `backend`.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/memory-backend.test.mjs`
// (UNROLL_E2E_SKIP_BUILD=1 reuses dist/).

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { screenshot, rustFixed } from "./lib.mjs";

const app = e2e({ webgpu: true });

const CELLS = ["rnn", "lstm", "gru"];
const query = (task, length, rest) => `?v=1&lesson=delay&task=${task}&hidden_size=8&length=${length}&seeds=1&seed=3&${rest}`;
const generation = (rest) => `?v=1&lesson=generate&hidden_size=8&steps=3&seed=3&${rest}`;
const rel = (a, b) => Math.abs(a - b) / Math.abs(b);

// Each task's sweep, opened with `backend`: its name, its page and the cells it trains.
const TASKS = [
  ...[
    ["adding", 5],
    ["copy", 3],
    ["order", 62],
    // One step: its loss is all the test compares.
  ].map(([task, length]) => ({ task, cells: CELLS, open: (backend) => app.memory(query(task, length, `steps=1&backend=${backend}`)) })),
  ...["gru", "lstm"].map((cell) => ({
    task: `generation (${cell}, conditioning=input)`,
    cells: [cell],
    open: (backend) => app.generate(generation(`cell=${cell}&conditioning=input&backend=${backend}`)),
  })),
];

for (const { task, cells, open } of TASKS) {
  test(`${task}: step 1 on WebGPU agrees with the CPU path to 1e-5; the page names the path`, { timeout: 300_000 }, async (t) => {
    const first = {};
    for (const backend of ["gpu", "cpu"]) {
      const page = await open(backend);
      await page.start();
      await page.finished();
      first[backend] = {};
      for (const cell of cells) {
        const b = await page.backend(cell);
        assert.equal(b.path, backend === "gpu" ? "webgpu" : "cpu", `${cell} on ${backend}`);
        assert.match(b.text, backend === "gpu" ? /^Backend: WebGPU$/ : /^Backend: CPU$/);
        first[backend][cell] = await page.firstLoss(cell);
      }
      page.noErrors();
      await page.close();
    }
    for (const cell of cells) {
      const [g, c] = [first.gpu[cell], first.cpu[cell]];
      t.diagnostic(`${task} ${cell}: step 1 WebGPU ${g} CPU ${c} (relative ${rel(g, c).toExponential(2)})`);
      assert.ok(Number.isFinite(c) && c > 0, `${cell}: a step-1 loss`);
      assert.ok(rel(g, c) <= 1e-5, `${task} ${cell}: step 1 agrees to 1e-5 (${g} vs ${c})`);
    }
  });
}

test("generation conditioned on the initial state, asked for WebGPU, trains on the CPU and says why (en, zh)", { timeout: 300_000 }, async () => {
  const page = await app.generate(generation("conditioning=state&backend=gpu"));
  await page.start();
  // The run's first step is taken on the CPU once the GPU path has refused the model.
  await page.firstLoss("gru");
  const b = await page.backend("gru");
  assert.equal(b.path, "cpu");
  assert.equal(b.notice, "fallback");
  assert.match(b.detail, /initial state/);
  assert.match(b.text, /^Backend: CPU — The GPU path does not train this model yet \(not supported on the GPU path yet: an initial state computed from each sequence's condition\); training runs on the CPU\.$/);
  await page.finished();
  // The same line in Chinese after the language switch.
  await page.setLang("zh");
  const zh = await page.backend("gru");
  assert.deepEqual([zh.path, zh.notice], ["cpu", "fallback"]);
  assert.equal(zh.text, "后端：CPU — GPU 路径尚不能训练这个模型，训练在 CPU 上进行。");
  page.noErrors();
  await page.close();
});

test("backend=auto measures both paths for each cell and trains on the faster (en, zh)", { timeout: 300_000 }, async (t) => {
  const page = await app.memory(query("adding", 50, "steps=5000"));
  await page.start();
  const lines = {};
  for (const cell of CELLS) {
    const b = await page.backend(cell);
    t.diagnostic(`${cell}: WebGPU ${rustFixed(b.gpuMs, 1)} ms/step, CPU ${rustFixed(b.cpuMs, 1)} ms/step → ${b.path}`);
    assert.equal(b.notice, "measured");
    assert.ok(b.gpuMs > 0 && b.cpuMs > 0, "both figures");
    assert.equal(b.path, b.gpuMs < b.cpuMs ? "webgpu" : "cpu");
    const [path, using] = b.path === "webgpu" ? ["WebGPU", "WebGPU"] : ["CPU", "the CPU"];
    assert.match(b.text, new RegExp(`^Backend: ${path} — WebGPU ${rustFixed(b.gpuMs, 1)} ms/step, CPU ${rustFixed(b.cpuMs, 1)} ms/step: using ${using}$`));
    lines[cell] = b;
  }
  // A sweep this small may already have ended.
  if ((await page.status()) === "running") {
    await page.click("memory-pause");
    await page.waitValue("memory-status", "paused");
  }
  // The same measured lines in each language (the switch keeps the sweep), at 1440 and 375 px.
  for (const lang of ["en", "zh"]) {
    if (lang === "zh") {
      const status = await page.status();
      await page.setLang("zh");
      assert.equal(await page.status(), status, "the sweep kept across the switch");
      for (const cell of CELLS) {
        const b = lines[cell];
        const text = (await page.backend(cell)).text;
        assert.match(text, new RegExp(`^后端：${b.path === "webgpu" ? "WebGPU" : "CPU"} — WebGPU 每步 ${rustFixed(b.gpuMs, 1)} 毫秒，CPU 每步 ${rustFixed(b.cpuMs, 1)} 毫秒`));
      }
    }
    for (const width of [1440, 375]) {
      await page.page.setViewportSize({ width, height: width === 375 ? 800 : 1000 });
      await page.page.evaluate(() => document.querySelector('[data-testid="memory-backend-rnn"]').scrollIntoView({ block: "center" }));
      await screenshot(page.page, `memory-backend-${lang}-${width}`, { fullPage: false });
      const overflow = await page.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `${lang}: no sideways scrolling at ${width} px (${overflow} px)`);
    }
  }
  await page.click("memory-reset");
  page.noErrors();
  await page.close();
});

test("a lost device hands the runs to the CPU from the step they reached; the sweep finishes", { timeout: 300_000 }, async () => {
  const page = await app.memory(query("copy", 3, "steps=60&backend=gpu"));
  await page.start();
  await page.firstLoss("rnn");
  assert.equal(await page.page.evaluate(() => window.unrollDebug.loseDevice()), true);
  await page.waitFor('[data-notice="lost"]', { timeout: 120_000 });
  const lost = await page.page.$eval('[data-notice="lost"]', (e) => ({ path: e.dataset.value, text: e.textContent }));
  assert.equal(lost.path, "cpu");
  assert.match(lost.text, /^Backend: CPU — The GPU device was lost \(.*\); training continues on the CPU from step \d+\.$/);
  await page.finished();
  const rows = await page.summaryRows();
  assert.equal(rows.length, 3);
  for (const r of rows) assert.ok(Number.isFinite(Number(r.loss)) && r.done === "true", `${r.cell}: finished with a loss after the fallback`);
  // The browser reports the destroyed device on the console; nothing else fails.
  page.noErrors(/destroy|lost|Device/i);
  await page.close();
});

test("the form's backend select writes the URL key and is locked while training", { timeout: 120_000 }, async () => {
  const page = await app.memory(query("order", 62, "steps=2000"));
  assert.equal(await page.input("mcfg-backend"), "auto");
  await page.select("mcfg-backend", "cpu");
  await page.until(() => page.params().get("backend") === "cpu", 5000, "backend=cpu in the URL");
  await page.start();
  assert.equal((await page.backend("rnn")).path, "cpu");
  assert.equal(await page.isDisabled("mcfg-backend"), true);
  await page.click("memory-reset");
  page.noErrors();
  await page.close();
});
