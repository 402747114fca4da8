// End-to-end test: a Chinese page shows no English. With `lang=zh`, a URL notice with clamped
// ranges (the training page, and a lesson whose range is negative or set by another key), a
// repeated gate list and a value clamped twice (one notice each), the error of a run whose loss
// became non-finite (`window.unrollDebug.diverge()`: the running session's learning rate becomes
// far too large), the notice of a lost WebGPU device (`window.unrollDebug.loseDevice()`), the
// own-data messages (a file without a usable line; a file with five bad lines, whose count the
// data panel shows too), the error of a renamed PNG loaded as weights, the restore offer of a
// saved model, the notices of the model kept in this browser (a damaged record, a browser
// without storage), the built-in data set's loading errors (a missing manifest, a class file
// the server refuses), the gradient-flow note, every stage of the slow-motion training step and
// lesson 8 contain no run of three or more ASCII letters outside an allowlist: the URL keys and
// values of docs/url.md, RNN/LSTM/GRU, WebGPU/GPU/CPU, NaN, the file formats the panels name
// (safetensors, zip, txt, tsv, UTF-8), the proper names lesson 8 uses (Transformer, WebAssembly,
// Rust) and the optimiser's (Adam).
// The user's file names are their data and are left out of the check, as are the data's URLs and
// the commands that fetch it (code), and, in the slow-motion step, the names offered and the
// parameters' PyTorch names. The same texts in English are caught by the check
// (it can fail).
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test --test-concurrency=1 scripts/e2e/zh-text.test.mjs`
// (without UNROLL_E2E_SKIP_BUILD it builds dist/ first). Real data: www/data/names.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { openPage, value, num, until, renderAllPanels, zhAllowlist } from "./lib.mjs";

/** The data's URLs and the commands that fetch it, shown as given in both languages. */
const DATA_CODE = ["data/names/manifest.json", "data/names/Arabic.txt", "node scripts/fetch-data.mjs", "trunk build"];

const TIMEOUT = Number(process.env.UNROLL_E2E_TRAIN_TIMEOUT_MS || 600_000);

/**
 * Words a Chinese page may show in Latin letters: every URL key and choice value of
 * docs/url.md (the key column, the backticked defaults, and value columns that are a list of
 * lowercase words), the cells' and the platform's names, and NaN.
 */
const ALLOWED = zhAllowlist();

/**
 * The words of `text` with a run of ≥ 3 ASCII letters that the allowlist does not hold, after
 * removing `data` (the user's file names, shown as given).
 */
function english(text, data = []) {
  for (const d of data) text = text.split(d).join(" ");
  const words = text.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? [];
  return words.filter((w) => /[A-Za-z]{3}/.test(w) && !ALLOWED.has(w));
}

// The real data set: the built-in data's notices and counts are what the texts are about.
const app = e2e({ data: "real" });

test("the allowlist holds the URL keys and values, and the check finds English", () => {
  for (const w of ["hidden_size", "max_norm", "forget_bias", "lstm", "padded", "delay", "length"]) assert.ok(ALLOWED.has(w), w);
  assert.deepEqual(english("hidden_size：“99999”超出范围 8–256，已改用 256"), []);
  assert.deepEqual(english("hidden_size: “99999” is outside 8–256; using 256"), ["outside", "using"]);
});

test("URL notices with clamped ranges are Chinese in lang=zh", { timeout: 180_000 }, async () => {
  const b = await app.launch({ webgpu: false });
  try {
    const pages = [
      // The training page: integer, float and negative ranges.
      ["?v=1&lesson=names&hidden_size=99999&lr=5&forget_bias=-9", ["8–256", "0.00001–1", "-5 至 5"]],
      // A lesson: a negative range, and `t` clamped to the number of inputs (a range another key sets).
      ["?v=1&lesson=unroll&w_hh=9&x=1,2&t=12", ["-3 至 3", "1–2"]],
    ];
    for (const [query, ranges] of pages) {
      const texts = {};
      for (const lang of ["zh", "en"]) {
        const { page, consoleErrors } = await openPage(b.context, app.url, `${query}&lang=${lang}`);
        await page.waitForSelector('[data-testid="url-notice"]', { timeout: 60_000 });
        texts[lang] = await page.textContent('[data-testid="url-notice"]');
        assert.deepEqual(consoleErrors, []);
        await page.close();
      }
      const zh = texts.zh;
      assert.deepEqual(english(zh), [], `${query}: ${zh}`);
      assert.match(zh, /超出范围/, zh);
      for (const r of ranges) assert.ok(zh.includes(r), `${query}: “${r}” in ${zh}`);
      assert.ok(english(texts.en).includes("outside"), texts.en);
    }
  } finally {
    await b.close();
  }
});

test("the error of a run whose loss became non-finite is Chinese in lang=zh", { timeout: TIMEOUT }, async () => {
  const b = await app.launch({ webgpu: false });
  try {
    // Enough epochs that the run is still going when the request lands, however slow the machine.
    const query = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=64&epochs=40&seed=3&backend=cpu&autostart=1&lang=zh";
    const { page, consoleErrors } = await openPage(b.context, app.url, query);
    await until(async () => (await num(page, "train-step")) >= 3, TIMEOUT, "3 steps", 100);
    assert.equal(await page.evaluate(() => window.unrollDebug.diverge()), true, "a running session took the request");
    await until(async () => {
      const status = await value(page, "train-status");
      assert.notEqual(status, "finished", "the run ended before the request reached it");
      return status === "error";
    }, TIMEOUT, "the error", 100);
    const text = await page.textContent('[data-testid="train-error"]');
    assert.deepEqual(english(text), [], text);
    // The failing step is the one after the last step reported.
    const bad = (await num(page, "train-step")) + 1;
    assert.ok(text.includes(`第 ${bad} 步`), `step ${bad} in ${text}`);
    assert.match(text, /损失/);
    assert.match(text, /max_norm/, "clipping was off, so it is suggested");
    // The same error in English (the page's language switch re-renders it).
    await page.click('[data-testid="lang-en"]');
    await until(async () => /loss became/.test(await page.textContent('[data-testid="train-error"]')), 5000, "the English error");
    const en = await page.textContent('[data-testid="train-error"]');
    assert.ok(en.includes(`step ${bad}`), en);
    assert.ok(english(en).length > 0, en);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("the device-loss notice is Chinese in lang=zh", { timeout: TIMEOUT }, async () => {
  const b = await app.launch({ webgpu: true });
  try {
    const query = "?v=1&lesson=names&cell=gru&hidden_size=16&batch_size=64&epochs=40&seed=5&backend=gpu&autostart=1&lang=zh";
    const { page, consoleErrors } = await openPage(b.context, app.url, query);
    await until(async () => (await value(page, "backend")) || (await value(page, "train-status")) === "error", 120_000, "the backend");
    assert.equal(await value(page, "backend"), "webgpu", `no WebGPU: ${await page.textContent("body")}`);
    await until(async () => (await num(page, "train-step")) >= 5, TIMEOUT, "5 steps on the GPU", 250);
    assert.equal(await page.evaluate(() => window.unrollDebug.loseDevice()), true);
    await page.waitForSelector('[data-testid="device-lost-notice"]', { timeout: 60_000 });
    await until(async () => (await value(page, "backend")) === "cpu", 30_000, "the CPU backend", 100);
    const text = await page.textContent('[data-testid="device-lost-notice"]');
    assert.deepEqual(english(text), [], text);
    assert.match(text, /GPU 设备/);
    // The GPU's own words stay available as the detail's tooltip.
    assert.ok((await page.getAttribute('[data-testid="device-lost-notice"] .keep-detail', "title")).length > 0);
    await page.click('[data-testid="lang-en"]');
    await until(async () => /was lost/.test(await page.textContent('[data-testid="device-lost-notice"]')), 5000, "the English notice");
    assert.ok(english(await page.textContent('[data-testid="device-lost-notice"]')).length > 0);
    await page.click('[data-testid="train-pause"]');
    assert.deepEqual(consoleErrors.filter((e) => !/device|lost|destroy/i.test(e)), []);
  } finally {
    await b.close();
  }
});

test("a repeated list and a value clamped twice give one notice each, in words that fit", { timeout: 180_000 }, async () => {
  const b = await app.launch({ webgpu: false });
  try {
    const cases = [
      // f has one value where the other gates have two: repeated, not out of range.
      ["?v=1&lesson=lstm&f=0.5", /“0\.5”只有 1 个值，而共有 2 步，已循环重复为“0\.5,0\.5”/, /has 1 value for 2 steps; repeated to “0\.5,0\.5”/],
      // t=99 on a lesson with three inputs: past its own range (12) and past the inputs (3).
      ["?v=1&lesson=unroll&t=99", /^t：“99”超出范围 1–3（每个输入一步），已改用 3$/, /^t: “99” is outside 1–3 \(one per input\); using 3$/],
    ];
    for (const [query, zhPattern, enPattern] of cases) {
      for (const [lang, pattern] of [["zh", zhPattern], ["en", enPattern]]) {
        const { page, consoleErrors } = await openPage(b.context, app.url, `${query}&lang=${lang}`);
        await page.waitForSelector('[data-testid="url-notice"] li', { timeout: 60_000 });
        const items = await page.$$eval('[data-testid="url-notice"] li', (lis) => lis.map((li) => li.textContent.trim()));
        assert.equal(items.length, 1, `${query}: ${items.join(" | ")}`);
        assert.match(items[0], pattern);
        assert.doesNotMatch(items[0], /超出范围 每步|outside one value/);
        if (lang === "zh") assert.deepEqual(english(items[0]), [], items[0]);
        assert.deepEqual(consoleErrors, []);
        await page.close();
      }
    }
  } finally {
    await b.close();
  }
});

/** The first bytes of a real 1×1 PNG, to load as weights under a .safetensors name. */
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000" + "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");

test("own-data and weights errors, the data panel's counts and the restore offer are Chinese in lang=zh", { timeout: TIMEOUT }, async () => {
  const b = await app.launch({ webgpu: false });
  try {
    const TINY = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=256&epochs=1&seed=3&backend=cpu";
    const { page, consoleErrors } = await openPage(b.context, app.url, `${TINY}&lang=zh`);
    await until(async () => (await num(page, "data-classes")) > 0, 120_000, "the data set");
    const text = (id) => page.textContent(`[data-testid="${id}"]`);
    const upload = async (name, body) => {
      await page.setInputFiles('[data-testid="data-upload"]', { name, mimeType: "text/tab-separated-values", buffer: Buffer.from(body, "utf8") });
      await until(async () => ["ok", "error"].includes(await value(page, "data-upload-message")), 30_000, `the message for ${name}`);
    };

    // A file without a usable line: rejected, naming its first line, in Chinese.
    await upload("名单.tsv", "Abe Japanese\nSato Japanese\n");
    assert.equal(await value(page, "data-upload-message"), "error");
    let msg = await text("data-upload-message");
    assert.deepEqual(english(msg, ["名单.tsv"]), [], msg);
    assert.match(msg, /名单\.tsv 第 1 行：没有制表符/);
    // A file with five bad lines of 36: the message and the data panel give the same counts.
    const lines = [];
    for (let i = 0; i < 36; i++) lines.push(i % 2 ? `Muller${"x".repeat(i)}\tGerman` : `Sato${"o".repeat(i)}\tJapanese`);
    lines[5] = "Schmidt German";
    lines[10] = "Weber\tGerman\textra";
    lines[20] = "Wagner\t";
    lines[25] = "😀\tGerman";
    lines[30] = "Becker";
    await upload("名单.tsv", lines.join("\n") + "\n");
    assert.equal(await value(page, "data-upload-message"), "ok", await text("data-upload-message"));
    msg = await text("data-upload-message");
    assert.deepEqual(english(msg, ["名单.tsv"]), [], msg);
    assert.match(msg, /跳过了 5 行无法使用的数据（第 6,11,21,26,31 行）/);
    assert.equal(await page.getAttribute('[data-testid="data-upload-message"]', "data-skipped"), "5");
    assert.equal(await num(page, "data-raw-lines"), 36);
    assert.equal(await num(page, "data-skipped"), 5);
    assert.equal(await num(page, "data-pairs"), 31);
    const panel = await page.evaluate(() => document.querySelector('[data-testid="dataset"]').innerText);
    assert.deepEqual(english(panel, ["名单.tsv"]), [], panel);
    await page.click('[data-testid="lang-en"]');
    assert.match(await text("data-upload-message"), /Skipped 5 unusable lines \(lines 6,11,21,26,31\)/);
    await page.click('[data-testid="lang-zh"]');

    // A PNG renamed to .safetensors: not a safetensors file, in Chinese.
    await page.setInputFiles('[data-testid="weights-upload"]', { name: "图.safetensors", mimeType: "application/octet-stream", buffer: PNG });
    await until(async () => (await value(page, "weights-message")) === "error", 30_000, "the weights error");
    const werr = await text("weights-message");
    assert.deepEqual(english(werr, ["图.safetensors"]), [], werr);
    assert.match(werr, /图\.safetensors：不是 safetensors 文件/);
    assert.doesNotMatch(werr, /header/);
    await page.click('[data-testid="lang-en"]');
    await until(async () => /not a safetensors file/.test(await text("weights-message")), 5000, "the English weights error");
    assert.ok(english(await text("weights-message"), ["图.safetensors"]).length > 0);
    await page.click('[data-testid="lang-zh"]');

    // Back to the built-in data, train one tiny epoch (the model is saved), then open a link
    // with another configuration: the saved model is offered, in Chinese.
    await page.click('[data-testid="data-use-builtin"]');
    await until(async () => (await value(page, "data-source")) === "builtin", 10_000, "the built-in data");
    await until(async () => !(await page.isDisabled('[data-testid="train-start"]')), 120_000, "the start button");
    await page.click('[data-testid="train-start"]');
    await until(async () => (await value(page, "train-status")) === "finished", TIMEOUT, "training to finish", 500);
    // The gradient-flow note speaks of rounds, not epochs.
    await renderAllPanels(page);
    const grad = await page.evaluate(() => document.querySelector('[data-testid="chart-grad-flow"]').closest("section").querySelector(".panel-note").textContent);
    assert.deepEqual(english(grad), [], grad);
    await until(async () => !(await page.isDisabled('[data-testid="forget-saved"]')), 30_000, "the saved model");
    await page.goto(app.url + "?v=1&lesson=names&cell=lstm&hidden_size=16&seed=9&backend=cpu&lang=zh", { waitUntil: "load" });
    await page.waitForSelector('[data-testid="saved-offer"]', { timeout: 60_000 });
    const offer = await text("saved-offer");
    assert.deepEqual(english(offer), [], offer);
    assert.match(offer, /GRU，隐藏层大小 8，随机种子 3，训练到第 \d+ 步/);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("the built-in data set's loading errors are Chinese in lang=zh", { timeout: 300_000 }, async () => {
  // No data on the site: the manifest answers 404.
  const blocked = await app.serve({ block: ["/data/"] });
  const b = await app.launch({ webgpu: false });
  try {
    const msg = (page) => page.textContent('[data-testid="data-error-message"]');
    let { page, consoleErrors } = await openPage(b.context, blocked.url, "?v=1&lesson=names&lang=zh");
    await page.waitForSelector('[data-testid="data-error-message"]', { timeout: 60_000 });
    let zh = await msg(page);
    assert.deepEqual(english(zh, DATA_CODE), [], zh);
    assert.equal(
      zh,
      "姓名数据集缺失（data/names/manifest.json：服务器返回状态 404）。请运行 `node scripts/fetch-data.mjs`（直接运行 `trunk build` 也会获取数据），然后重新加载页面。",
    );
    assert.match(await page.textContent('[data-testid="data-error"]'), /^数据集无法加载。/);
    assert.ok(await page.isDisabled('[data-testid="train-start"]'));
    await page.click('[data-testid="lang-en"]');
    await until(async () => /^The names data set is missing/.test(await msg(page)), 5000, "the English message");
    assert.equal(
      await msg(page),
      "The names data set is missing (data/names/manifest.json: HTTP 404). Run `node scripts/fetch-data.mjs` (a plain `trunk build` does it too) and reload.",
    );
    await page.close();

    // The data is there, but the server refuses one class file.
    page = await b.context.newPage();
    consoleErrors = [];
    page.on("pageerror", (e) => consoleErrors.push(String(e)));
    await page.route("**/data/names/Arabic.txt", (route) => route.fulfill({ status: 503, body: "busy" }));
    await page.goto(`${app.url}?v=1&lesson=names&lang=zh`, { waitUntil: "load" });
    await page.waitForSelector('[data-testid="data-error-message"]', { timeout: 60_000 });
    zh = await msg(page);
    assert.deepEqual(english(zh, DATA_CODE), [], zh);
    assert.equal(zh, "无法获取 data/names/Arabic.txt（服务器返回状态 503）。");
    await page.click('[data-testid="lang-en"]');
    await until(async () => (await msg(page)) === "data/names/Arabic.txt could not be fetched (HTTP 503).", 5000, "the English message");
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
    await blocked.close();
  }
});

test("the notices of the model kept in this browser are Chinese in lang=zh", { timeout: 300_000 }, async () => {
  const b = await app.launch({ webgpu: false });
  try {
    const query = "?v=1&lesson=names&cell=gru&hidden_size=8&backend=cpu";
    const notice = (page) => page.textContent('[data-testid="persist-notice"]');
    // A damaged record (its meta is not JSON): the page says it could not read it.
    const { page, consoleErrors } = await openPage(b.context, app.url, `${query}&lang=zh`);
    await until(async () => (await num(page, "data-classes")) > 0, 120_000, "the data set");
    await page.evaluate(async () => {
      const db = await new Promise((resolve, reject) => {
        const r = indexedDB.open("unroll");
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const tx = db.transaction("saved", "readwrite");
      tx.objectStore("saved").put({ meta: "{", weights: new Blob([]), upload: [] }, "names-model");
      await new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onerror = () => reject(tx.error))));
      db.close();
    });
    await page.reload({ waitUntil: "load" });
    await page.waitForSelector('[data-testid="persist-notice"]', { timeout: 60_000 });
    assert.equal(await value(page, "persist-notice"), "read");
    let zh = await notice(page);
    assert.deepEqual(english(zh), [], zh);
    assert.equal(zh, "无法读取此浏览器中保存的模型：此浏览器中的记录已损坏或不完整。");
    // The reader's own words stay in the tooltip.
    assert.match(await page.getAttribute('[data-testid="persist-notice"] .notice-body', "title"), /saved model record/);
    await page.click('[data-testid="lang-en"]');
    await until(async () => /^The model saved in this browser could not be read/.test(await notice(page)), 5000, "the English notice");
    assert.equal(await notice(page), "The model saved in this browser could not be read: the record in this browser is damaged or incomplete.");
    // The damaged record is there: the panel does not say nothing is saved, and it can be deleted.
    assert.doesNotMatch(await page.textContent('[data-testid="keep-panel"]'), /Nothing saved yet/);
    assert.ok(await page.isEnabled('[data-testid="forget-saved"]'));
    await page.click('[data-testid="forget-saved"]');
    await until(async () => (await page.$('[data-testid="persist-notice"]')) === null, 10_000, "the notice to go");
    assert.match(await page.textContent('[data-testid="keep-panel"]'), /The saved model was deleted from this browser/);
    assert.deepEqual(consoleErrors, []);
    await page.close();

    // A browser that gives the page no storage (as in private mode): IndexedDB cannot be opened.
    const p2 = await b.context.newPage();
    const errors = [];
    p2.on("pageerror", (e) => errors.push(String(e)));
    await p2.addInitScript(() => {
      IDBFactory.prototype.open = function () {
        throw new DOMException("The user denied permission to access the database.", "SecurityError");
      };
    });
    await p2.goto(`${app.url}${query}&lang=zh`, { waitUntil: "load" });
    await p2.waitForSelector('[data-testid="persist-notice"]', { timeout: 60_000 });
    zh = await notice(p2);
    assert.deepEqual(english(zh), [], zh);
    assert.equal(zh, "无法在此浏览器中保存：此浏览器不给页面提供本地存储（例如隐私模式或禁止了网站数据）；页面不保存也能继续使用。");
    // The notice alone: no note that the model is (or will be) saved after each epoch.
    assert.doesNotMatch(await p2.evaluate(() => document.querySelector('[data-testid="keep-panel"]').innerText), /尚未保存|每个轮次后保存/);
    assert.deepEqual(errors, []);
  } finally {
    await b.close();
  }
});

test("lesson 8 is Chinese in lang=zh: the sliders' labels and the cell radios", { timeout: 180_000 }, async () => {
  const b = await app.launch({ webgpu: false });
  try {
    const { page, consoleErrors } = await openPage(b.context, app.url, "?v=1&lesson=parallel&lang=zh");
    await page.waitForSelector('[data-testid="parallel-cell-lstm"]', { timeout: 60_000 });
    const controls = await page.evaluate(() => document.querySelector(".lx-controls").innerText);
    assert.match(controls, /隐藏层大小/);
    assert.match(controls, /最长序列/);
    const radios = await page.$$eval('.lx-controls [role="radiogroup"] label', (ls) => ls.map((l) => l.textContent.trim()));
    assert.deepEqual(radios, ["RNN", "LSTM", "GRU"]);
    assert.equal(await page.getAttribute('.lx-controls [role="radiogroup"]', "aria-label"), "单元");
    const main = await page.evaluate(() => document.querySelector("main").innerText);
    assert.deepEqual(english(main), [], main);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("the diagrams' accessible names are Chinese in lang=zh (the GRU number line)", { timeout: 120_000 }, async () => {
  const b = await app.launch({ webgpu: false });
  try {
    const { page, consoleErrors } = await openPage(b.context, app.url, "?v=1&lesson=gru&lang=zh");
    await page.waitForSelector('[data-testid="gru-blend"]', { timeout: 60_000 });
    const names = await page.$$eval('main svg[role="img"]', (els) => els.map((e) => e.getAttribute("aria-label") ?? ""));
    assert.ok(names.some((n) => n.includes("数轴")), names.join(" | "));
    for (const n of names) assert.deepEqual(english(n), [], n);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});

test("the lessons' questions and the index's marks are Chinese in lang=zh, before and after the reveal", { timeout: 300_000 }, async () => {
  const b = await app.launch({ webgpu: false });
  try {
    const CP = '[data-testid="question"]';
    for (const lesson of ["unroll", "shapes", "bptt", "lstm", "gru", "bidir", "softmax", "parallel"]) {
      const { page, consoleErrors } = await openPage(b.context, app.url, `?v=1&lesson=${lesson}&lang=zh`);
      await page.waitForSelector(CP, { timeout: 60_000 });
      const open = await page.evaluate((s) => document.querySelector(s).innerText, CP);
      assert.deepEqual(english(open), [], open);
      if (await page.$(`${CP} [data-testid="question-choice-0"]`)) await page.click(`${CP} [data-testid="question-choice-0"]`);
      await page.click(`${CP} [data-testid="question-lock"]`);
      await page.waitForSelector(`${CP}[data-state="locked"]`);
      await page.click(`${CP} [data-testid="question-reveal"]`);
      await page.waitForSelector(`${CP}[data-state="revealed"]`);
      const shown = await page.evaluate((s) => document.querySelector(s).innerText, CP);
      assert.match(shown, /本页计算结果/);
      assert.deepEqual(english(shown), [], shown);
      assert.deepEqual(consoleErrors, [], lesson);
      await page.close();
    }
    const { page } = await openPage(b.context, app.url, "?v=1&lang=zh");
    await page.waitForSelector('[data-testid="question-progress-gru"][data-value="1"]', { timeout: 60_000 });
    // The index's own cards name each lesson's key (`lesson=unroll`); the question panel and the marks are checked.
    const index = await page.evaluate(() =>
      [...document.querySelectorAll('[data-testid="question-panel"], [data-testid^="question-progress-"]')].map((e) => e.textContent).join("\n"),
    );
    assert.match(index, /已作答 1\/1 个问题/);
    assert.deepEqual(english(index), [], index);
  } finally {
    await b.close();
  }
});

test("the slow-motion training step is Chinese in lang=zh, at every stage", { timeout: TIMEOUT }, async () => {
  const b = await app.launch({ webgpu: false });
  try {
    const query = "?v=1&lesson=names&cell=gru&hidden_size=8&batch_size=256&epochs=1&max_norm=1&seed=3&backend=cpu&autostart=1&lang=zh";
    const { page, consoleErrors } = await openPage(b.context, app.url, query);
    await until(async () => (await value(page, "train-status")) === "finished", TIMEOUT, "training to finish", 500);
    await page.selectOption('[data-testid="slowmo-val"]', "5");
    await page.click('[data-testid="slowmo-run"]');
    await until(async () => (await page.getAttribute('[data-testid="slowmo"]', "data-stage")) === "forward", 10_000, "the first frame");
    // The names (the validation names offered, the one picked) are data, and the parameters'
    // names are PyTorch's (code); both are shown as given in every language.
    const data = await page.$$eval('[data-testid="slowmo-val"] option', (os) => os.slice(1).map((o) => o.textContent));
    const frames = Number(await page.getAttribute('[data-testid="slowmo"]', "data-frames"));
    // The panels out of view are not laid out (content-visibility), and have no innerText then.
    await renderAllPanels(page);
    const panel = () => page.evaluate(() => document.querySelector('[data-testid="slowmo"]').innerText);
    const stages = new Set();
    for (let i = 0; i < frames; i++) {
      const stage = await page.getAttribute('[data-testid="slowmo"]', "data-stage");
      if (!stages.has(stage)) {
        stages.add(stage);
        if (stage === "backward" || stage === "adam") {
          data.push(...(await page.$$eval('[data-testid="slowmo"] li[data-name]', (xs) => xs.map((x) => x.getAttribute("data-name")))));
        }
        const text = await panel();
        assert.match(text, /第 \d 阶段（共 8 个）/, `${stage}: ${text}`);
        assert.deepEqual(english(text, data), [], `${stage}: ${text}`);
        if (stage === "clip") assert.match(text, /max_norm 1：/);
        if (stage === "adam") {
          await page.click('[data-testid="lang-en"]');
          await until(async () => english(await panel(), data).length > 0, 5000, "the same stage in English, caught");
          await page.click('[data-testid="lang-zh"]');
          await until(async () => english(await panel(), data).length === 0, 5000, "the stage in Chinese again");
        }
      }
      if (i + 1 < frames) await page.click('[data-testid="slowmo-next"]');
    }
    assert.equal(stages.size, 8);
    assert.deepEqual(consoleErrors, []);
  } finally {
    await b.close();
  }
});
