// End-to-end tests of "As PyTorch" on the names page: the script follows the form and the data
// in use (the built-in languages, then an uploaded TSV's), downloads as the text shown, parses as
// Python, and speaks Chinese in lang=zh. Running it under PyTorch is the native suite's
// core/tests/python/test_as_pytorch.py (where torch is installed).
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/as-pytorch.test.mjs`

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT, buildDist, serveDist, launch, openPage, value, num, until } from "./lib.mjs";

const PAGE = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=256&epochs=1&seed=3&backend=cpu";
const LANGUAGES = ["Arabic", "Chinese", "Czech", "Dutch", "English", "French", "German", "Greek", "Irish",
  "Italian", "Japanese", "Korean", "Polish", "Portuguese", "Russian", "Scottish", "Spanish", "Vietnamese"];

let server;
let tmp;

before(async () => {
  buildDist();
  server = await serveDist();
  tmp = mkdtempSync(join(tmpdir(), "unroll-as-pytorch-"));
});

after(async () => {
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const script = (page) => page.textContent('[data-testid="as-pytorch-script"]');
const line = (text, start) => text.split("\n").find((l) => l.startsWith(start));

async function ready(page) {
  await until(async () => (await num(page, "data-classes")) > 0, 120_000, "the data set");
  await page.waitForSelector('[data-testid="as-pytorch-script"]', { state: "attached", timeout: 10_000 });
}

test("the script follows the form and the data, and downloads as shown", { timeout: 300_000 }, async () => {
  const b = await launch({});
  try {
    const { page, consoleErrors } = await openPage(b.context, server.url, PAGE);
    await ready(page);
    let text = await script(page);
    for (const l of ['    cell="gru",', "    hidden_size=8,", "    batch_size=256,", "    epochs=1,", "    seed=3,", '    head="last",']) {
      assert.ok(text.split("\n").includes(l), `the script has ${l}`);
    }
    assert.equal(line(text, "CLASSES = "), `CLASSES = [${LANGUAGES.map((l) => `"${l}"`).join(", ")}]  # the languages in label order (fc's rows)`);
    assert.match(line(text, "DATA = "), /^DATA = "data\/names"/);
    assert.match(line(text, "PAGE = "), /\?v=1&lesson=names&cell=gru&hidden_size=8/);
    assert.equal(await page.getAttribute('[data-testid="as-pytorch"]', "data-file"), "unroll-names-gru-h8.py");

    // Downloaded: the same text, a Python program.
    const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="as-pytorch-download"]')]);
    assert.equal(download.suggestedFilename(), "unroll-names-gru-h8.py");
    const file = join(tmp, download.suggestedFilename());
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
    const langs = ["Greek", "Japanese", "Polish"];
    const tsv = langs.flatMap((lang) => readFileSync(join(ROOT, "www", "data", "names", `${lang}.txt`), "utf8")
      .split("\n").filter((n) => n.trim()).map((n) => `${n.trim()}\t${lang}`)).join("\n") + "\n";
    await page.setInputFiles('[data-testid="data-upload"]', { name: "three.tsv", mimeType: "text/tab-separated-values", buffer: Buffer.from(tsv) });
    await until(async () => (await value(page, "data-source")) === "upload", 30_000, "the upload");
    await until(async () => line(await script(page), "CLASSES = ").startsWith('CLASSES = ["Greek", "Japanese", "Polish"]'), 5_000, "the upload's classes");
    assert.match(line(await script(page), "DATA = "), /^DATA = "three\.tsv"  # your file/);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("the script's panel is Chinese in lang=zh", { timeout: 180_000 }, async () => {
  const b = await launch({});
  try {
    const { page, consoleErrors } = await openPage(b.context, server.url, `${PAGE}&lang=zh`);
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
