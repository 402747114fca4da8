// End-to-end checks of the embedded page (`embed=1`, docs/embed.md) in headless Chromium. Each
// page is loaded the way a course page loads it: in an <iframe> of a plain HTML page (answered
// by the test at /course/ of the app's server: headless Chromium shows an error page instead of
// the local app in a page of a made-up origin) whose listener sizes the iframe from the posted
// `unroll:height`.
//
// - Every lesson at 320 px and 800 px, and the two labs at 320 px: no horizontal overflow, no
//   app header (`nav-lessons`), a posted height that fits the page (no vertical scrolling left
//   inside the iframe), the URL kept with `embed=1`.
// - Every lesson: "open in Unroll" (`open-full`, a new tab) is the same canonical URL without
//   `embed`, and the full page opened there keeps it; "Copy embed code" (`copy-embed`) on the
//   full page gives a snippet whose src is that URL with `embed=1`, and the snippet, pasted
//   into a page, shows the same state.
// - Both languages on one lesson: the link's words and `<html lang>`.
// - In a frame of another site (a course page on localhost, the app on 127.0.0.1) in a browser
//   that gives such a frame no storage: the question locks and reveals, its answer stays for
//   the visit, and the page says so once, calmly (no alert, no warning), in English and Chinese.
//
// Run: `node --test --test-concurrency=1 scripts/e2e/embed.test.mjs` (UNROLL_E2E_SKIP_BUILD=1
// reuses dist/).

import { before, test } from "node:test";
import { createServer } from "node:http";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";
import { until } from "./lib.mjs";
import { coursePage } from "./course-page.mjs";

/** One state per lesson, canonical, with settings away from their defaults. */
const STATES = {
  unroll: "v=1&lesson=unroll&w_xh=-1.25&w_hh=0.3&b=0.1",
  shapes: "v=1&lesson=shapes&cell=lstm&hidden_size=32",
  bptt: "v=1&lesson=bptt&w_hh=2&steps=20",
  lstm: "v=1&lesson=lstm&c0=2.5",
  gru: "v=1&lesson=gru&z=0.95&convention=pytorch",
  bidir: "v=1&lesson=bidir&tokens=I,love,New+York,a%26b%3Dc&t=2",
  softmax: "v=1&lesson=softmax&logits=50,0,-50,0.001&target=3",
  parallel: "v=1&lesson=parallel&cell=gru",
};

/** The course page's address (answered by the test, not by the app's server). */
const COURSE = () => new URL("course/", app.url).href;

// Lessons in frames: no names data is read. Service workers blocked: the test answers /course/
// itself, which a service worker of the app's scope would answer first.
const app = e2e({ serviceWorkers: "block" });
let browser;
before(async () => {
  browser = await app.sharedBrowser();
});

/** The app's address of `query` (no `?`). */
const appUrl = (query) => new URL(`?${query}`, app.url).href;

/** Opens a course page holding `snippets` at `width` px; resolves to the page and its frames. */
async function course(snippets, width) {
  const page = await browser.context.newPage();
  await page.setViewportSize({ width, height: 900 });
  const problems = [];
  // With service workers blocked, index.html's registration gets no registration object back.
  page.on("pageerror", (e) => {
    if (!String(e).includes("reading 'waiting'")) problems.push(String(e));
  });
  await page.route(`${COURSE()}**`, (route) =>
    route.fulfill({ contentType: "text/html; charset=utf-8", body: coursePage(snippets) }),
  );
  await page.goto(COURSE(), { waitUntil: "load" });
  return { page, problems };
}

/** The app's frame of `page` (the nth iframe), once its page is drawn. */
async function appFrame(page, n = 0) {
  const handle = (await page.$$("iframe"))[n];
  const frame = await handle.contentFrame();
  await frame.waitForSelector(".embed-root .lx-page, .embed-root .training-page", { timeout: 60_000 });
  return { frame, handle };
}

/** Waits until the iframe holds the page's posted height, then reports what the page shows. */
async function settledEmbed(page, frame, handle) {
  // A lesson may change its height while it settles (lesson 8 fills its timings in): the sizes
  // are read together, until the iframe has the posted height and nothing scrolls inside it.
  let last = null;
  let shown = null;
  await until(
    async () => {
      const posted = await page.evaluate(() => window.heights.at(-1) ?? null);
      const box = await handle.evaluate((f) => f.getBoundingClientRect().height);
      shown = await frame.evaluate(() => ({
        root: Math.ceil(document.querySelector(".embed-root").getBoundingClientRect().height),
        scrollWidth: document.scrollingElement.scrollWidth,
        innerWidth: window.innerWidth,
        scrollHeight: document.scrollingElement.scrollHeight,
        innerHeight: window.innerHeight,
        navLessons: document.querySelectorAll('[data-testid="nav-lessons"]').length,
        header: document.querySelectorAll(".site-header, .site-footer, .lx-crumbs, .lx-prevnext").length,
        search: location.search,
        lang: document.documentElement.lang,
        openFull: (() => {
          const a = document.querySelector('[data-testid="open-full"]');
          return a && { href: a.href, target: a.target, text: a.textContent };
        })(),
      }));
      last = { posted, root: shown.root, box, scrollHeight: shown.scrollHeight, innerHeight: shown.innerHeight };
      return (
        posted !== null &&
        Math.abs(posted - shown.root) <= 1 &&
        Math.abs(box - posted) <= 1 &&
        shown.scrollHeight <= shown.innerHeight + 1
      );
    },
    20_000,
    { toString: () => `the iframe sized to the posted height, nothing scrolling inside (${JSON.stringify(last)})` },
  );
  return shown;
}

function snippetOf(query) {
  return `<iframe src="${appUrl(query).replaceAll("&", "&amp;")}" width="100%" height="600" style="border:0" title="Unroll"></iframe>`;
}

for (const [lesson, state] of Object.entries(STATES)) {
  for (const width of [320, 800]) {
    test(`embed=1: ${lesson} at ${width} px fits, has no chrome and posts its height`, async () => {
      const { page, problems } = await course([snippetOf(`${state}&embed=1`)], width);
      try {
        const { frame, handle } = await appFrame(page);
        const shown = await settledEmbed(page, frame, handle);
        assert.ok(shown.scrollWidth <= shown.innerWidth, `overflow: ${shown.scrollWidth} > ${shown.innerWidth}`);
        assert.equal(shown.innerWidth, width);
        assert.equal(shown.navLessons, 0);
        assert.equal(shown.header, 0);
        assert.ok(shown.scrollHeight <= shown.innerHeight + 1, `scrolls inside: ${shown.scrollHeight} > ${shown.innerHeight}`);
        assert.ok(shown.innerHeight > 200, `height ${shown.innerHeight}`);
        assert.equal(shown.search, `?${state}&embed=1`);
        assert.equal(shown.openFull.href, appUrl(state));
        assert.equal(shown.openFull.target, "_blank");
        assert.deepEqual(problems, []);
      } finally {
        await page.close();
      }
    });
  }

  test(`embed=1: ${lesson}: "open in Unroll" and the embed code keep the state`, async () => {
    // The full page behind "open in Unroll" keeps the canonical URL and shows the header.
    const full = await browser.context.newPage();
    try {
      await browser.context.grantPermissions(["clipboard-read", "clipboard-write"]).catch(() => {});
      await full.goto(appUrl(state), { waitUntil: "load" });
      await full.waitForSelector(`[data-testid="lesson-${lesson}"]`, { timeout: 60_000 });
      await full.waitForSelector('[data-testid="nav-lessons"]');
      await full.waitForTimeout(300);
      assert.equal(await full.evaluate(() => location.search), `?${state}`);
      await full.click('[data-testid="copy-embed"]');
      const code = await full.inputValue('[data-testid="copy-embed-text"]', { timeout: 5000 });
      const parsed = await full.evaluate((html) => {
        const f = new DOMParser().parseFromString(html, "text/html").querySelector("iframe");
        return f && {
          src: f.getAttribute("src"),
          width: f.getAttribute("width"),
          height: f.getAttribute("height"),
          style: f.getAttribute("style"),
          title: f.getAttribute("title"),
          loading: f.getAttribute("loading"),
        };
      }, code);
      assert.ok(parsed, code);
      assert.equal(parsed.src, appUrl(`${state}&embed=1`));
      assert.equal(parsed.width, "100%");
      assert.ok(Number(parsed.height) > 0);
      assert.equal(parsed.style, "border:0");
      assert.equal(parsed.loading, "lazy");
      assert.match(parsed.title, /· Unroll$/);
      // The snippet, pasted as it is into a course page, shows the same state embedded.
      const { page } = await course([code.replace('loading="lazy"', "")], 800);
      try {
        const { frame, handle } = await appFrame(page);
        const shown = await settledEmbed(page, frame, handle);
        assert.equal(shown.search, `?${state}&embed=1`);
        assert.equal(shown.openFull.href, appUrl(state));
        assert.equal(await frame.getAttribute(`[data-testid="lesson-${lesson}"]`, "data-lesson"), lesson);
      } finally {
        await page.close();
      }
    } finally {
      await full.close();
    }
  });
}

for (const [lang, words, htmlLang] of [
  ["en", "Open in Unroll ↗", "en"],
  ["zh", "在 Unroll 中打开 ↗", "zh-CN"],
]) {
  test(`embed=1 in ${lang}: the link's words and the page's language`, async () => {
    const state = `${STATES.lstm}&lang=${lang}`;
    const { page } = await course([snippetOf(`${state}&embed=1`)], 320);
    try {
      const { frame, handle } = await appFrame(page);
      const shown = await settledEmbed(page, frame, handle);
      assert.equal(shown.openFull.text, words);
      assert.equal(shown.lang, htmlLang);
      assert.equal(shown.search, `?${state}&embed=1`);
      assert.equal(shown.openFull.href, appUrl(state));
      assert.ok(shown.scrollWidth <= shown.innerWidth, `overflow: ${shown.scrollWidth} > ${shown.innerWidth}`);
    } finally {
      await page.close();
    }
  });
}

for (const lab of ["names", "delay"]) {
  test(`embed=1: the ${lab} lab at 320 px has no chrome and no overflow`, async () => {
    const state = `v=1&lesson=${lab}`;
    const { page } = await course([snippetOf(`${state}&embed=1`)], 320);
    try {
      const { frame, handle } = await appFrame(page);
      const shown = await settledEmbed(page, frame, handle);
      assert.ok(shown.scrollWidth <= shown.innerWidth, `overflow: ${shown.scrollWidth} > ${shown.innerWidth}`);
      assert.equal(shown.navLessons, 0);
      assert.equal(shown.header, 0);
      assert.equal(shown.openFull.href, appUrl(state));
    } finally {
      await page.close();
    }
  });
}

for (const lang of ["en", "zh"]) {
  test(`${lang}: embed=1 in another site's frame without storage keeps answers for the visit and says so calmly, once`, async () => {
    const b = await app.launch({ serviceWorkers: "block", blockThirdParty: true });
    const closers = [];
    try {
      const page = await b.context.newPage();
      const problems = [];
      page.on("pageerror", (e) => {
        if (!String(e).includes("reading 'waiting'")) problems.push(String(e));
      });
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(m.text());
      });
      // Another site: the course page is served on localhost, the app on 127.0.0.1 (both on this
      // machine, so the browser lets the one frame the other).
      const body = coursePage([snippetOf(`v=1&lesson=gru&embed=1&lang=${lang}`)]);
      const other = createServer((_, res) => res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body));
      await new Promise((r) => other.listen(0, "localhost", r));
      closers.push(() => new Promise((r) => other.close(r)));
      await page.goto(`http://localhost:${other.address().port}/course/`, { waitUntil: "load" });
      const { frame } = await appFrame(page);
      // The browser refuses the frame's storage (else this test would test nothing).
      const storage = await frame.evaluate(
        () =>
          new Promise((resolve) => {
            try {
              const r = indexedDB.open("unroll-probe");
              r.onsuccess = () => resolve("open");
              r.onerror = () => resolve("refused");
            } catch {
              resolve("refused");
            }
          }),
      );
      assert.equal(storage, "refused", "the frame has no storage");
      const CP = '[data-testid="question"]';
      await frame.waitForSelector(CP, { timeout: 30_000 });
      await frame.click(`${CP} [data-testid="question-choice-0"]`);
      await frame.click(`${CP} [data-testid="question-lock"]`);
      await frame.click(`${CP} [data-testid="question-reveal"]`);
      await frame.waitForSelector(`${CP}[data-state="revealed"]`, { timeout: 5000 });
      const said = await frame.getAttribute(CP, "data-prediction");
      assert.ok(said !== "" && said !== null, "the prediction is kept with the answer");
      const note = await frame.$$eval('[data-testid="question-not-kept"]', (ns) =>
        ns.map((n) => ({
          text: n.textContent,
          live: n.closest("[role=status], [role=alert], [aria-live]") !== null,
          color: getComputedStyle(n).color,
        })),
      );
      assert.equal(note.length, 1, "said once");
      assert.match(note[0].text, lang === "zh" ? /本次访问/ : /for this visit/);
      assert.equal(note[0].live, false, "not announced as an alert or a status");
      assert.equal(await frame.$$eval("[role=alert]", (a) => a.length), 0, "no alert");
      // The answer stays while the page is open: a setting changed, the same answer, marked stale.
      await frame.$eval('[data-testid="gru-z"]', (el) => {
        el.value = "0.8";
        el.dispatchEvent(new Event("input", { bubbles: true }));
      });
      await frame.waitForSelector(`${CP} [data-testid="question-stale"]`, { timeout: 5000 });
      assert.equal(await frame.getAttribute(CP, "data-state"), "revealed");
      assert.equal(await frame.getAttribute(CP, "data-prediction"), said);
      assert.equal((await frame.$$('[data-testid="question-not-kept"]')).length, 1, "still once");
      assert.deepEqual(problems, []);
      await page.close();
    } finally {
      await b.close();
      for (const close of closers) await close();
    }
  });
}
