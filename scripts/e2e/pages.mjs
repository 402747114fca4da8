// Page objects of the end-to-end tests: one class per kind of page, with the controls and
// read-outs the tests use, addressed by their `data-testid`. Numbers are read from `data-value`
// (raw, as the page computed them). A test gets these from the fixture (`app.open`,
// `app.names`, `app.delay`, `app.lesson` in scripts/e2e/fixture.mjs); `page.page` is the
// Playwright page for anything not wrapped here.

import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { openPage, records, settled, until } from "./lib.mjs";

/** `[data-testid="id"]`; a selector that already is one (starts with `[`, `.` or `#`) is kept. */
export const tid = (id) => (/^[[.#]/.test(id) ? id : `[data-testid="${id}"]`);

/** Any page of the app: the read-outs, the language switch, the URL, downloads, console errors. */
export class AppPage {
  /** Waited for after each navigation (a test id or selector), or null. */
  static ready = null;

  constructor(page, errors, app) {
    /** The Playwright page. */
    this.page = page;
    /** Console errors and uncaught exceptions of the page, in order. */
    this.errors = errors;
    this.app = app;
    /** Called after `close()` (the fixture closes a page's own browser with it). */
    this.onClose = null;
  }

  // ---- read-outs --------------------------------------------------------------------------

  /** `data-value` of the element (null when absent). */
  value(id) {
    return this.page.getAttribute(tid(id), "data-value", { timeout: 1000 }).catch(() => null);
  }
  /** Number(`data-value`), NaN when absent or empty. */
  async num(id) {
    const v = await this.value(id);
    return v === null || v === "" ? NaN : Number(v);
  }
  /** The element's text content. */
  text(id) {
    return this.page.textContent(tid(id));
  }
  /** The element's rendered text (`innerText`: what is laid out and visible). */
  innerText(id) {
    return this.page.$eval(tid(id), (el) => el.innerText);
  }
  /** An attribute of the element. */
  attr(id, name) {
    return this.page.getAttribute(tid(id), name, { timeout: 5000 });
  }
  /** The value of a form control. */
  input(id) {
    return this.page.inputValue(tid(id));
  }
  isDisabled(id) {
    return this.page.isDisabled(tid(id));
  }
  isEnabled(id) {
    return this.page.isEnabled(tid(id));
  }
  /** Whether the element is on the page. */
  async has(id) {
    return (await this.page.$(tid(id))) !== null;
  }
  /** The number of elements matching. */
  count(id) {
    return this.page.locator(tid(id)).count();
  }

  // ---- controls ---------------------------------------------------------------------------

  click(id) {
    return this.page.click(tid(id));
  }
  /** Types `v` into a field. */
  fill(id, v) {
    return this.page.fill(tid(id), String(v));
  }
  check(id) {
    return this.page.check(tid(id));
  }
  uncheck(id) {
    return this.page.uncheck(tid(id));
  }
  select(id, v) {
    return this.page.selectOption(tid(id), v);
  }
  /** Sets a range or number input to `v` and fires its `input` event (as dragging does). */
  setRange(id, v) {
    return this.page.$eval(
      tid(id),
      (el, v) => {
        el.value = String(v);
        el.dispatchEvent(new Event("input", { bubbles: true }));
      },
      v,
    );
  }

  // ---- waiting ----------------------------------------------------------------------------

  /** Waits for the element (default 60 s; `state` as Playwright's). */
  waitFor(id, { timeout = 60_000, state } = {}) {
    return this.page.waitForSelector(tid(id), { timeout, state });
  }
  /** Polls `fn` until it returns a truthy value (returned), or fails naming `what`. */
  until(fn, timeoutMs, what, every) {
    return until(fn, timeoutMs, what, every);
  }
  /** Waits until `data-value` of `id` equals `v`. */
  waitValue(id, v, timeoutMs = 30_000, every = 100) {
    return until(async () => (await this.value(id)) === v, timeoutMs, `${id} = ${v}`, every);
  }
  /** Waits until the number in `id` stops changing and returns it (see lib.mjs `settled`). */
  settled(id, quietMs, timeoutMs) {
    return settled(this.page, id, quietMs, timeoutMs);
  }
  /** The probe's records of training hooks and long tasks (lib.mjs). */
  records() {
    return records(this.page);
  }

  // ---- the page as a whole ----------------------------------------------------------------

  /** `location.search` of the page. */
  search() {
    return new URL(this.page.url()).search;
  }
  /** The page URL's query parameters. */
  params() {
    return new URL(this.page.url()).searchParams;
  }
  /** Waits until the URL's query string is `search` (with its `?`). */
  waitSearch(search, timeoutMs = 5000) {
    return until(() => this.search() === search, timeoutMs, `the URL ${search} (now ${this.page.url()})`);
  }
  /** Switches the page's language with its switch and waits for `<html lang>`. */
  async setLang(lang) {
    await this.click(`lang-${lang}`);
    await until(async () => (await this.page.evaluate(() => document.documentElement.lang)).startsWith(lang), 5000, `the ${lang} page`);
  }
  /** Opens another query in the same tab (and waits for the page's ready element). */
  async goto(query, url = this.app.url) {
    await this.page.goto(url + query, { waitUntil: "load" });
    await this.ready();
  }
  /** Reloads (and waits for the page's ready element). */
  async reload() {
    await this.page.reload({ waitUntil: "load" });
    await this.ready();
  }
  async ready() {
    const r = this.constructor.ready;
    if (r) await this.waitFor(r);
  }
  /** The page's question state: open, locked or revealed. */
  questionState() {
    return this.attr("question", "data-state");
  }
  /** Predicts on the question (`v` on a number slider, else choice `choice`) and locks it. */
  async lockQuestion({ v = 0.25, choice = 0 } = {}) {
    const cp = tid("question");
    await this.waitFor(cp, { timeout: 30_000 });
    if (await this.has(`${cp} [data-testid="question-number"]`)) await this.setRange(`${cp} [data-testid="question-number"]`, v);
    else await this.click(`${cp} [data-testid="question-choice-${choice}"]`);
    await this.click(`${cp} [data-testid="question-lock"]`);
    await this.waitFor(`${cp}[data-state="locked"]`, { timeout: 5000 });
  }
  /** Reveals the locked question once the page can answer it (Reveal enabled within `timeoutMs`). */
  async revealQuestion(timeoutMs = 5000) {
    const cp = tid("question");
    const button = `${cp} [data-testid="question-reveal"]`;
    await until(async () => (await this.has(button)) && !(await this.isDisabled(button)), timeoutMs, "the question's Reveal");
    await this.click(button);
    await this.waitFor(`${cp}[data-state="revealed"]`, { timeout: 5000 });
  }
  /** Answers the question (`v` on a number slider, else choice `choice`), locks and reveals it. */
  async answerQuestion(prediction = {}) {
    await this.lockQuestion(prediction);
    await this.revealQuestion();
  }
  /** Clicks `id` (a test id, selector or locator) and returns the download: { name, path, bytes, text }. */
  async download(id) {
    const target = typeof id === "string" ? this.page.locator(tid(id)) : id;
    const [dl] = await Promise.all([this.page.waitForEvent("download"), target.click()]);
    const path = await dl.path();
    const bytes = readFileSync(path);
    return { name: dl.suggestedFilename(), path, bytes, text: bytes.toString("utf8"), download: dl };
  }
  /** Downloads the CSV of `file` (its export button): { name, text, lines, rows (the button's data-rows) }. */
  async csv(file) {
    const button = this.page.locator(`[data-testid="export-csv"][data-file="${file}"]`);
    const rows = Number(await button.getAttribute("data-rows"));
    const d = await this.download(button);
    return { ...d, rows, lines: d.text.split("\n").filter((l) => l !== "") };
  }
  /** Asserts the page logged no error (those matching `ignore` aside). */
  noErrors(ignore) {
    assert.deepEqual(ignore ? this.errors.filter((e) => !ignore.test(e)) : this.errors, [], "console errors");
  }
  /** Closes the page (and its own browser, when it was opened `fresh`). */
  async close() {
    await this.page.close().catch(() => {});
    await this.onClose?.();
  }
}

/**
 * A lab page: a run (the names lab) or a sweep (the sequence lab's tasks) that starts, trains,
 * keeps a checkpoint of its training seed in this browser and, after a reload, goes on from it.
 * Each lab names its test ids in `static lab`: `status`, `start`, `checkpoint` (the kept
 * checkpoint's step), `offer` (what a reload offers), `goOn` (the button that goes on).
 */
export class LabPage extends AppPage {
  static lab = null;

  get ids() {
    return this.constructor.lab;
  }
  status() {
    return this.value(this.ids.status);
  }
  /** Presses Start (once enabled). */
  async start() {
    await until(async () => !(await this.isDisabled(this.ids.start)), 120_000, "the start button");
    await this.click(this.ids.start);
  }
  /**
   * Presses Start with the run held in the engine once it reaches `step`
   * (`window.unrollDebug.holdAt`): a checkpoint of that step is kept and the page goes on
   * showing the run as running, so a reload after `keptCheckpoint(step)` is certainly mid-run.
   */
  async startHeldAt(step) {
    await until(async () => !(await this.isDisabled(this.ids.start)), 120_000, "the start button");
    assert.equal(await this.page.evaluate((s) => window.unrollDebug.holdAt(s), step), true, "the hold hook took the step");
    await this.click(this.ids.start);
  }
  /** Waits for the run to finish; an `error` fails with the page's text. */
  async finished(timeoutMs = 600_000) {
    await until(
      async () => {
        const s = await this.status();
        if (s === "error") throw new Error(`the run failed: ${await this.text(this.constructor.ready)}`);
        return s === "finished";
      },
      timeoutMs,
      "the run to finish",
      250,
    );
  }
  /**
   * Waits for a checkpoint of step `atLeast` or later (after step 0 by default) of the training
   * seed (of seed `seed`, 1-based, when given: the checkpoint's `data-seed`), kept in this
   * browser while the run trains; its step. Watched inside the page (every 20 ms, one look at
   * both elements): a checkpoint of a short run may be shown for a moment only. A run that ends
   * first fails at once; one started by `startHeldAt(atLeast)` cannot.
   */
  async keptCheckpoint(atLeast = 1, timeoutMs = 120_000, { seed } = {}) {
    const seen = await this.page.waitForFunction(
      ({ status, checkpoint, atLeast, seed }) => {
        const at = (id) => document.querySelector(`[data-testid="${id}"]`);
        const s = at(status)?.getAttribute("data-value");
        if (s === "finished" || s === "error") return { ended: s };
        const kept = at(checkpoint);
        const step = Number(kept?.getAttribute("data-value"));
        const ofSeed = seed === undefined || kept?.getAttribute("data-seed") === String(seed);
        return s === "running" && ofSeed && step >= atLeast ? { step } : false;
      },
      { status: this.ids.status, checkpoint: this.ids.checkpoint, atLeast, seed },
      { polling: 20, timeout: timeoutMs },
    );
    const { ended, step } = await seen.jsonValue();
    if (ended) throw new Error(`the run ended (${ended}) before a checkpoint of step ${atLeast} or later was kept`);
    return step;
  }
  /** After a reload: waits for the offer to go on, and takes it. */
  async goOn() {
    await this.waitFor(this.ids.offer, { timeout: 120_000 });
    await until(async () => !(await this.isDisabled(this.ids.goOn)), 120_000, "the button that goes on");
    await this.click(this.ids.goOn);
  }
  /** The path `cell`'s runs train on as its backend line says (parts with cell lines, `ids.cells` their prefix): { path, notice, gpuMs, cpuMs, text, detail }. */
  async backend(cell, timeoutMs = 120_000) {
    const id = `${this.ids.cells}-backend-${cell}`;
    await this.waitFor(id, { timeout: timeoutMs });
    const n = (name) => this.attr(id, name);
    return {
      path: await this.value(id),
      notice: await n("data-notice"),
      gpuMs: Number(await n("data-gpu-ms")),
      cpuMs: Number(await n("data-cpu-ms")),
      text: await this.text(id),
      detail: await n("title"),
    };
  }
  /** The step-1 training loss of `cell`'s first seed (waits for it; parts with cell lines). */
  async firstLoss(cell, timeoutMs = 120_000) {
    const id = `${this.ids.cells}-loss-first-${cell}`;
    await this.waitFor(id, { timeout: timeoutMs });
    return this.num(id);
  }
}

/** The names lab (`lesson=names`): data, form, training, metrics, keeping the model. */
export class NamesPage extends LabPage {
  static ready = "train-start";
  static lab = { status: "train-status", start: "train-start", checkpoint: "checkpoint-saved", offer: '[data-testid="restored"][data-resumable="true"]', goOn: "train-resume" };

  /** Waits for the data set (the summary counts its classes). */
  async dataReady(timeoutMs = 120_000) {
    await until(async () => (await this.num("data-classes")) > 0, timeoutMs, "the data set");
  }
  /** Waits until Start can be pressed. */
  async startReady(timeoutMs = 120_000) {
    await until(async () => !(await this.isDisabled("train-start")), timeoutMs, "the start button");
  }
  /** Presses Start once it can be pressed. */
  async start() {
    await this.startReady();
    await this.click("train-start");
  }
  status() {
    return this.value("train-status");
  }
  /** Waits for `train-status` = `status`; a run that ends in `error` fails with the page's message. */
  async waitStatus(status, timeoutMs = 600_000, every = 250) {
    await until(
      async () => {
        const s = await this.status();
        if (s === "error" && status !== "error") throw new Error(`the run failed: ${await this.text("train-error")}`);
        return s === status;
      },
      timeoutMs,
      `train-status ${status}`,
      every,
    );
  }
  /** Waits for the run to finish (see `waitStatus`). */
  finished(timeoutMs) {
    return this.waitStatus("finished", timeoutMs, 500);
  }
  /** Start, then wait for the run to finish. */
  async trainToEnd(timeoutMs) {
    await this.start();
    await this.finished(timeoutMs);
  }
  /** Waits until `train-step` reaches `n`. */
  async steps(n, timeoutMs = 120_000) {
    await until(async () => (await this.num("train-step")) >= n, timeoutMs, `${n} steps`, 100);
  }
  /** Sets a form field `cfg-<key>` as a user does (type, then the change event). */
  async setField(key, v) {
    await this.fill(`cfg-${key}`, v);
    await this.page.dispatchEvent(tid(`cfg-${key}`), "change");
  }
  /** Waits for the model saved in this browser (Forget is enabled). */
  async saved(timeoutMs = 30_000) {
    await until(async () => !(await this.isDisabled("forget-saved")), timeoutMs, "the saved model");
  }
  /** Types `name` in the predict box; its top list as [{ label, p }] (p as the page's raw string). */
  async predict(name) {
    await this.fill("predict-input", "");
    await this.fill("predict-input", name);
    await this.waitFor('[data-testid="predict-top"] li', { timeout: 30_000 });
    return this.page.$$eval('[data-testid="predict-top"] li', (lis) => lis.map((li) => ({ label: li.getAttribute("data-label"), p: li.getAttribute("data-value") })));
  }
  /** Types `name` in the inspector; its top-k as [label, probability string]. */
  async inspectTop(name) {
    await this.fill("inspect-input", "");
    await this.fill("inspect-input", name);
    await this.waitFor('[data-testid="inspect-top"] li', { timeout: 30_000 });
    return this.page.$$eval('[data-testid="inspect-top"] li', (lis) => lis.map((li) => [li.getAttribute("data-label"), li.getAttribute("data-value")]));
  }
  /** The confusion matrix: { rows, cols, total, counts[r][c] } from the heatmap's data attributes. */
  async confusion() {
    await this.waitFor("confusion", { timeout: 30_000 });
    return this.page.$eval('[data-testid="confusion"]', (svg) => {
      const rows = Number(svg.getAttribute("data-rows"));
      const cols = Number(svg.getAttribute("data-cols"));
      const counts = Array.from({ length: rows }, () => new Array(cols).fill(NaN));
      for (const r of svg.querySelectorAll("rect[data-row]")) counts[Number(r.getAttribute("data-row"))][Number(r.getAttribute("data-col"))] = Number(r.getAttribute("data-value"));
      return { rows, cols, total: Number(svg.getAttribute("data-total")), counts };
    });
  }
  /** Per-class rows of the metrics table: [{ label, acc (raw string), val }]. */
  perClass() {
    return this.page.$$eval('[data-testid="per-class-acc"]', (trs) =>
      trs.map((tr) => ({ label: tr.getAttribute("data-label"), acc: tr.getAttribute("data-value"), val: Number(tr.querySelector('[data-testid="class-val"]').getAttribute("data-value")) })),
    );
  }
  /** Loads own data from a file chooser payload; waits for its message (ok or error). */
  async upload(name, body, mimeType = "text/tab-separated-values") {
    const buffer = Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
    await this.page.setInputFiles(tid("data-upload"), { name, mimeType, buffer });
    await until(async () => ["ok", "error"].includes(await this.value("data-upload-message")), 30_000, `the message for ${name}`);
  }
  /** Loads weights (a path, or { name, buffer }); waits for the weights message and returns its kind. */
  async loadWeights(file) {
    const payload = typeof file === "string" ? file : { mimeType: "application/octet-stream", ...file };
    await this.page.setInputFiles(tid("weights-upload"), payload);
    return until(async () => this.value("weights-message"), 30_000, "the weights message");
  }
  /** Pauses the run and waits for `paused`. */
  async pause() {
    await this.click("train-pause");
    await this.waitStatus("paused", 30_000);
  }

  /** The finished run's numbers, raw: validation accuracy, steps, points of the loss curve. */
  async results() {
    return { acc: await this.value("val-acc"), steps: await this.value("train-step"), points: await this.value("chart-train-loss") };
  }
  /** The run's workers line once shown: { used, shares, failed, text } (numbers as strings). */
  async workers(timeoutMs = 60_000) {
    await this.waitFor("workers", { timeout: timeoutMs });
    return { used: await this.value("workers"), shares: await this.attr("workers", "data-shares"), failed: await this.attr("workers", "data-failed"), text: await this.text("workers") };
  }
}

/** The long-memory lab (`lesson=delay`, any task): form, sweep, summary. */
export class DelayPage extends LabPage {
  static ready = "delay-page";
  static lab = { status: "delay-status", start: "delay-start", checkpoint: "delay-checkpoint", offer: "delay-resume-offer", goOn: "delay-resume" };

  /** The finished sweep's numbers, raw: every run's last held-out accuracy and step, each cell's held-out loss. */
  async results() {
    const rows = await this.page.$$eval('[data-testid^="delay-seed-acc-"]', (rs) => rs.map((r) => [r.dataset.testid, r.dataset.seed, r.dataset.step, r.dataset.value].join(" ")));
    const losses = await this.page.$$eval('[data-testid^="delay-heldout-loss-"]', (rs) => rs.map((r) => `${r.dataset.testid} ${r.dataset.value}`));
    return { rows: rows.sort(), losses: losses.sort() };
  }
  /** The sweep summary's cells of the form's settings: [{ delay, cell, seeds, mean }]. */
  summaryCells() {
    return this.page.$$eval('[data-testid="delay-summary-cell"][data-current="true"]', (els) =>
      els.map((e) => ({ delay: Number(e.dataset.delay), cell: e.dataset.cell, seeds: Number(e.dataset.seeds), mean: Number(e.dataset.value) })),
    );
  }
}

/** A long-memory task of the lab page (`lesson=delay&task=adding|copy|order`): its sweep, backend lines, summary. */
export class MemoryPage extends LabPage {
  static ready = "memory-page";
  static lab = { status: "memory-status", start: "memory-start", checkpoint: "memory-saved", offer: "memory-interrupted", goOn: "memory-go-on", cells: "memory" };

  /** The finished sweep's numbers, raw: the summary's rows. */
  async results() {
    return { rows: await this.summaryRows() };
  }
  /** The summary's rows: [{ cell, seed, loss (raw string), solved, done }]. */
  summaryRows() {
    return this.page.$$eval('[data-testid="memory-summary-row"]', (rs) =>
      rs.map((r) => ({ cell: r.dataset.cell, seed: r.dataset.seed, loss: r.dataset.value, solved: r.dataset.solved, done: r.dataset.done })),
    );
  }
}

/** The generation lab (`lesson=generate`): training, the sampler, quality, the bidirectional verdict. */
export class GeneratePage extends LabPage {
  static ready = "generate-page";
  static lab = { status: "generate-status", start: "generate-start", checkpoint: "generate-saved", offer: "generate-interrupted", goOn: "generate-resume", cells: "generate" };

  /**
   * What the run shown gives: its last held-out loss per character (raw) and step, and the
   * greedy name written with its weights. A name that does not come fails with what the page
   * shows (the sample's weights, the status, the quality figures measured so far).
   */
  async outcome(timeoutMs = 120_000) {
    await this.waitFor("generate-heldout", { timeout: timeoutMs });
    const step = await this.attr("generate-heldout", "data-step");
    await until(async () => (await this.attr("gen-sample", "data-weights").catch(() => null)) === step, timeoutMs, "a name written with the final weights").catch(async (e) => {
      const shown = await this.page.evaluate(() => {
        const at = (id, a = "data-value") => document.querySelector(`[data-testid="${id}"]`)?.getAttribute(a) ?? null;
        return { sampleWeights: at("gen-sample", "data-weights"), sample: document.querySelector('[data-testid="gen-sample"]')?.textContent ?? null, status: at("generate-status"), quality: at("gen-quality"), data: at("generate-data") };
      });
      throw new Error(`${e.message} (held-out step ${step}; the page: ${JSON.stringify(shown)})`);
    });
    return { heldout: await this.value("generate-heldout"), step, name: (await this.sample()).full };
  }
  /** Presses Reset and waits until nothing is shown. */
  async reset() {
    await this.click("generate-reset");
    await until(async () => (await this.status()) === "idle" && !(await this.has("generate-heldout")), 10_000, "the reset");
  }

  /** Waits for the names data set to load. */
  async dataLoaded() {
    await until(async () => (await this.value("generate-data")) !== null, 60_000, "the names data");
  }
  /** Trains both directions (Train both directions) and waits until both are measured (the question's Reveal, or the verdict where no question is asked). */
  async compareBoth(timeoutMs = 600_000) {
    await this.dataLoaded();
    await until(async () => !(await this.isDisabled("gen-compare")), 60_000, "the compare button");
    await this.click("gen-compare");
    await until(async () => (await this.has("gen-bidir-verdict")) || (await this.has("gen-bidir-hidden")), timeoutMs, "both runs measured");
  }
  /** The verdict's figures: { key, lossUni, lossBidir, bigramUni, bigramBidir, lengthUni, lengthBidir, text }. */
  async verdict() {
    const n = async (a) => Number(await this.attr("gen-bidir-verdict", a));
    return {
      key: await this.value("gen-bidir-verdict"),
      lossUni: await n("data-loss-uni"),
      lossBidir: await n("data-loss-bidir"),
      bigramUni: await n("data-bigram-uni"),
      bigramBidir: await n("data-bigram-bidir"),
      lengthUni: await n("data-length-uni"),
      lengthBidir: await n("data-length-bidir"),
      text: await this.text("gen-bidir-verdict"),
    };
  }
  /** The written name: { soFar, full, steps, ended }. */
  async sample() {
    const a = (n) => this.attr("gen-sample", n);
    return { soFar: await a("data-value"), full: await a("data-full"), steps: Number(await a("data-steps")), ended: (await a("data-ended")) === "true" };
  }
  /** The shown step's softmax bars: [{ p, symbol, chosen }]. */
  softmaxBars() {
    return this.page.$$eval('[data-testid="gen-softmax-bar"]', (bs) =>
      bs.map((b) => ({ p: Number(b.dataset.value), symbol: b.dataset.symbol, chosen: b.dataset.chosen === "true" })),
    );
  }
}

/** A lesson page (`lesson=unroll` … `parallel`) and the index: figures, sliders, question. */
export class LessonPage extends AppPage {
  static ready = ".lx-root";

}

/** Opens `url + query` with the probe installed, as `Kind` (waiting for its ready element). */
export async function openAppPage(Kind, context, url, query, app) {
  const { page, consoleErrors } = await openPage(context, url, query);
  const p = new Kind(page, consoleErrors, app);
  await p.ready();
  return p;
}
