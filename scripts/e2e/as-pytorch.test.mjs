// End-to-end tests of "As PyTorch" on the names page and the long-memory lab: the script follows the form and the data
// in use (the built-in languages, then an uploaded TSV's), downloads as the text shown, parses as
// Python, and speaks Chinese in lang=zh. Running it under PyTorch is the native suite's
// core/tests/python/test_as_pytorch.py (where torch is installed).
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/as-pytorch.test.mjs`

import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { e2e } from "./fixture.mjs";
import { value, num, until } from "./lib.mjs";

// The script is the page's configuration and classes as text: the small test data set (its
// classes are the script's), a fresh profile per test as before.
const app = e2e();
const PAGE = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=256&epochs=1&seed=3&backend=cpu";
let tmpDir;
const tmp = () => (tmpDir ??= app.tmp("unroll-as-pytorch-"));

const script = (page) => page.textContent('[data-testid="as-pytorch-script"]');
const line = (text, start) => text.split("\n").find((l) => l.startsWith(start));

async function ready(page) {
  await until(async () => (await num(page, "data-classes")) > 0, 120_000, "the data set");
  await page.waitForSelector('[data-testid="as-pytorch-script"]', { state: "attached", timeout: 10_000 });
}

test("the script follows the form and the data, and downloads as shown", { timeout: 300_000 }, async () => {
  const b = await app.launch();
  try {
    const { page, errors: consoleErrors } = await app.open(PAGE, { browser: b });
    await ready(page);
    let text = await script(page);
    for (const l of ['    cell="gru",', "    hidden_size=8,", "    batch_size=256,", "    epochs=1,", "    seed=3,", '    head="last",']) {
      assert.ok(text.split("\n").includes(l), `the script has ${l}`);
    }
    assert.ok(text.includes("    python3 unroll-names-gru-h8.py "), "its usage lines name the offered file");
    assert.equal(line(text, "CLASSES = "), `CLASSES = [${app.data.classes.map((l) => `"${l}"`).join(", ")}]  # the languages in label order (fc's rows)`);
    assert.match(line(text, "DATA = "), /^DATA = "data\/names"/);
    assert.match(line(text, "PAGE = "), /\?v=1&lesson=names&cell=gru&hidden_size=8/);
    assert.equal(await page.getAttribute('[data-testid="as-pytorch"]', "data-file"), "unroll-names-gru-h8.py");

    // Downloaded: the same text, a Python program.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="as-pytorch-download"]')]);
    assert.equal(download.suggestedFilename(), "unroll-names-gru-h8.py");
    const file = join(tmp(), download.suggestedFilename());
    await download.saveAs(file);
    assert.equal(readFileSync(file, "utf8"), text);
    assert.equal(await value(page, "as-pytorch-message"), "ok");
    const py = spawnSync("python3", ["-c", "import ast, sys; ast.parse(open(sys.argv[1], encoding='utf-8').read())", file]);
    if (py.error) console.log(`# python3 not found: the script's syntax is not checked (${py.error.message})`);
    else assert.equal(py.status, 0, `the script parses as Python: ${py.stderr}`);

    // The form: hidden_size 16 and clipping at 1.5.
    await page.fill('[data-testid="cfg-hidden_size"]', "16");
    await page.dispatchEvent('[data-testid="cfg-hidden_size"]', "change");
    await page.fill('[data-testid="cfg-max_norm"]', "1.5");
    await page.dispatchEvent('[data-testid="cfg-max_norm"]', "change");
    await until(async () => (await script(page)).includes("    max_norm=1.5,"), 5_000, "the script to follow the form");
    text = await script(page);
    assert.ok(text.split("\n").includes("    hidden_size=16,"));
    assert.equal(await page.getAttribute('[data-testid="as-pytorch"]', "data-file"), "unroll-names-gru-h16.py");
    assert.equal(await page.$('[data-testid="as-pytorch-message"]'), null, "the old download's message is gone");

    // Own data: its languages and its file.
    const langs = ["German", "Irish", "Japanese"];
    const tsv = langs.flatMap((lang) => app.data.names[lang].filter((n) => n.trim()).map((n) => `${n.trim()}\t${lang}`)).join("\n") + "\n";
    await page.setInputFiles('[data-testid="data-upload"]', { name: "three.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(tsv) });
    await until(async () => (await value(page, "data-source")) === "upload", 30_000, "the upload");
    await until(async () => line(await script(page), "CLASSES = ").startsWith('CLASSES = ["German", "Irish", "Japanese"]'), 5_000, "the upload's classes");
    assert.match(line(await script(page), "DATA = "), /^DATA = "three\.tsv"  # your file/);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("the script's panel is Chinese in lang=zh", { timeout: 180_000 }, async () => {
  const b = await app.launch();
  try {
    const { page, errors: consoleErrors } = await app.open(`${PAGE}&lang=zh`, { browser: b });
    await ready(page);
    const panel = await page.textContent('[data-testid="as-pytorch"]');
    assert.match(panel, /PyTorch 脚本/);
    assert.match(panel, /下载 \.py/);
    assert.match(panel, /随机|random/);
    assert.doesNotMatch(panel.split("cell=")[0], /Download|Show the script/);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

// The long-memory lab's script: the settings shown, downloaded as shown; where torch imports, the
// downloaded file runs a short trial and prints held-out figures.
const DELAY_PAGE = "?v=1&lesson=delay&cell=all&delay=16&length=40&hidden_size=16&steps=700&seed=5&seeds=2";
const delayScript = (page) => page.textContent('[data-testid="delay-as-pytorch-script"]');

test("the long-memory lab's script follows its settings, downloads and runs", { timeout: 240_000 }, async () => {
  const b = await app.launch();
  try {
    const { page, errors: consoleErrors } = await app.open(DELAY_PAGE, { browser: b });
    await page.waitForSelector('[data-testid="delay-as-pytorch-script"]', { state: "attached", timeout: 30_000 });
    const text = await delayScript(page);
    for (const l of ['    cells=["rnn", "lstm", "gru"],', "    delay=16,", "    length=40,", "    hidden_size=16,", "    steps=700,", "    seed=5,", "    seeds=2,", "    forget_bias=1.0,"]) {
      assert.ok(text.split("\n").includes(l), `the script has ${l}`);
    }
    assert.ok(text.includes("    python3 unroll-delay16-all.py "), "its usage lines name the offered file");
    assert.match(line(text, "PAGE = "), /\?v=1&lesson=delay&cell=all&delay=16&length=40&hidden_size=16/);
    assert.equal(await page.getAttribute('[data-testid="delay-as-pytorch"]', "data-file"), "unroll-delay16-all.py");
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="delay-as-pytorch-download"]')]);
    assert.equal(download.suggestedFilename(), "unroll-delay16-all.py");
    const file = join(tmp(), download.suggestedFilename());
    await download.saveAs(file);
    assert.equal(readFileSync(file, "utf8"), text);
    assert.equal(await value(page, "delay-as-pytorch-message"), "ok");

    const torch = await app.torch();
    if (!torch) {
      console.log("# torch not importable: the downloaded script is not run");
    } else {
      const run = await torch.run({ file, args: ["--steps", "4", "--seeds", "1", "--cell", "lstm"] });
      assert.equal(run.status, 0, run.stderr);
      const rows = run.stdout.trim().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(rows.map((r) => r.step), [0, 1, 2, 3, 4], "evaluated before the first step and at every step of a 4-step budget");
      assert.ok(rows.every((r) => r.cell === "lstm" && r.seed === 5));
      assert.ok(Math.abs(rows[0].heldout_loss - Math.log(10)) < 0.05, `chance at the start: ${rows[0].heldout_loss}`);
    }

    // The form: another delay, another script.
    await page.fill('[data-testid="cfg-delay"]', "8");
    await page.dispatchEvent('[data-testid="cfg-delay"]', "change");
    await until(async () => (await delayScript(page)).includes("    delay=8,\n"), 5_000, "the script to follow the form");
    assert.equal(await page.$('[data-testid="delay-as-pytorch-message"]'), null, "the old download's message is gone");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("the long-memory lab's script panel is Chinese in lang=zh", { timeout: 120_000 }, async () => {
  const b = await app.launch();
  try {
    const { page, errors: consoleErrors } = await app.open(`${DELAY_PAGE}&lang=zh`, { browser: b });
    await page.waitForSelector('[data-testid="delay-as-pytorch-script"]', { state: "attached", timeout: 30_000 });
    const panel = await page.textContent('[data-testid="delay-as-pytorch"]');
    assert.match(panel, /对应的 PyTorch 代码/);
    assert.match(panel, /下载 \.py/);
    assert.doesNotMatch(panel.split("#!/usr/bin/env")[0], /Download|Show the script|As PyTorch/);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

// The templates are files of the build, fetched when a panel opens: one that cannot be fetched is
// said in the page's language, the download stays disabled, and "Try again" fetches it.
test("a template that cannot be fetched is said, and Try again fetches it (en, zh)", { timeout: 240_000 }, async () => {
  for (const [lang, failed, retry] of [["en", /The script's template \(delay_copy\.py\) could not be fetched/, "Try again"], ["zh", /无法获取脚本模板（delay_copy\.py）/, "重试"]]) {
    // A fresh profile each time, from a server whose service worker never installs: the page's
    // own fetches reach the test's route.
    const b = await app.launch({ webgpu: false });
    const url = await app.networkUrl();
    try {
      const page = await b.context.newPage();
      let blocked = true;
      await page.route("**/templates/delay_copy.py", (route) => (blocked ? route.abort() : route.continue()));
      await page.goto(`${url}${DELAY_PAGE}&lang=${lang}`, { waitUntil: "load" });
      await page.waitForSelector('[data-testid="delay-as-pytorch-template-error"]', { timeout: 60_000 });
      assert.equal(await value(page, "delay-as-pytorch-template-error"), "delay_copy.py");
      assert.match(await page.textContent('[data-testid="delay-as-pytorch-template-error"]'), failed);
      assert.equal((await page.textContent('[data-testid="delay-as-pytorch-retry"]')).trim(), retry);
      assert.ok(await page.isDisabled('[data-testid="delay-as-pytorch-download"]'), "no script, no download");
      assert.equal(await page.$('[data-testid="delay-as-pytorch-script"]'), null);
      blocked = false;
      await page.click('[data-testid="delay-as-pytorch-retry"]');
      await page.waitForSelector('[data-testid="delay-as-pytorch-script"]', { state: "attached", timeout: 30_000 });
      assert.ok((await delayScript(page)).split("\n").includes("    delay=16,"), "the script, once fetched");
      assert.equal(await page.$('[data-testid="delay-as-pytorch-template-error"]'), null);
      assert.ok(!(await page.isDisabled('[data-testid="delay-as-pytorch-download"]')));
    } finally {
      await b.close();
    }
  }
});
