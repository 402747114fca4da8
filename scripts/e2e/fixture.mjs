// The end-to-end tests' shared fixture: one call at the top of a test file sets up what every
// test in it needs (the release build, a server for it, a headless Chromium) and takes it down
// after the last test, so a test is its steps and assertions only:
//
//   import { test } from "node:test";
//   import assert from "node:assert/strict";
//   import { e2e } from "./fixture.mjs";
//
//   const app = e2e();                                   // small data set, CPU path, 1440 px
//
//   test("…", async () => {
//     const page = await app.names("?v=1&lesson=names&epochs=1&backend=cpu");
//     await page.trainToEnd();
//     assert.equal(await page.num("data-classes"), app.data.classes.length);
//     page.noErrors();
//   });
//
// Options of `e2e()`:
//   data            "small" (default): the committed test data set (scripts/e2e/data/names: six
//                   classes, 380 names) served at the app's data URL, for tests of wiring —
//                   notices, buttons, languages, storage, navigation, export, embed;
//                   "real": the 20,074 names of the build, for tests of learning (accuracy,
//                   resume equality, agreement with PyTorch).
//   webgpu          true adds Chromium's WebGPU (SwiftShader); default false (the CPU path).
//   viewport        the shared browser's viewport (default 1440 × 1000).
//   serviceWorkers  "allow" (default) or "block" (Playwright then answers `register()` with
//                   undefined, which the page's registration script reports as an error). With
//                   the small data set the server answers `sw.js` with the build's service worker
//                   for the data it serves (the build's own lists the real data's SHA-256 and
//                   would refuse the small set, downloading the build again at every page load):
//                   it installs at a browser's first page, and later pages load from its cache,
//                   as a returning visitor's do. A test that must see the network's answers
//                   (`route`) opens its page with `{ serviceWorker: false }`.
//
// `app` (after `before`): `url`, `server`, `data` ({ dir, classes, lines }: the data set served),
// `browser` (the shared Chromium, started on first use), and:
//   open(query, opts)    a page (`AppPage`); opts: `browser` (another one), `as` (a page-object
//                        class), `wait` (a test id to wait for), `data` ("real" or "small": the
//                        other data set than the file's, for one test that needs it), `fresh`
//                        (true: in a Chromium of its own, a fresh profile closed with the page),
//                        `serviceWorker: false` (small data set: from `networkUrl()`)
//   networkUrl()         (small data set) a server of the build whose service worker never
//                        installs (the build's own, which refuses the small set): every file
//                        comes from the network, as on a first visit; for tests that `route` the
//                        app's files
//   names / delay / memory / generate / lesson(query, opts)   the same as the pages' objects (scripts/e2e/pages.mjs)
//   launch(opts)         one more Chromium (a fresh profile; `launch()`'s options), closed after
//                        the file or by its `close()`
//   serve(opts)          one more server of the build (`serveDist`'s options, e.g. `block`)
//   tmp()                a temporary folder, removed after the file
//   torch()              PyTorch for a page's lines or a script: one python3 that imports torch
//                        once (`startTorch()` in lib.mjs); null where torch is not importable
// Everything opened through `app` is closed after the last test of the file, also when a test fails.

import { after, before } from "node:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DIST, OUT, buildDist, launch, serveDist, startTorch } from "./lib.mjs";
import { precacheList, serviceWorker } from "../postbuild.mjs";
import { SMALL_NAMES_DIR } from "./data/make-names.mjs";
import { AppPage, DelayPage, GeneratePage, LessonPage, MemoryPage, NamesPage, openAppPage } from "./pages.mjs";

/** The data set a folder holds: its classes (manifest order) and line count. */
function describeData(dir) {
  const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
  const classes = manifest.files.map((f) => f.class);
  let lines = 0;
  const names = {};
  for (const f of manifest.files) {
    const rows = readFileSync(join(dir, f.file), "utf8").split("\n").filter((l) => l !== "");
    names[f.class] = rows;
    lines += rows.length;
  }
  return { dir, classes, lines, names };
}

const SMALL_DATA_PATH = "data/names/";

/**
 * Writes the service worker of the build in `dist` with the small data set in place of the real
 * one (as scripts/postbuild.mjs writes it for a build that ships that data) and returns its path.
 */
async function smallDataServiceWorker(dist) {
  const files = (await precacheList(dist)).filter(([path]) => !path.startsWith(SMALL_DATA_PATH));
  for (const [name, sha] of await precacheList(SMALL_NAMES_DIR)) files.push([SMALL_DATA_PATH + name, sha]);
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const { source } = await serviceWorker(files);
  const dir = join(OUT, "small-data");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `sw-${process.pid}.js`);
  writeFileSync(path, source);
  return path;
}

/** Registers the file's `before`/`after` hooks and returns the fixture (see the top of this file). */
export function e2e({ data = "small", webgpu = false, viewport, serviceWorkers } = {}) {
  if (!["small", "real"].includes(data)) throw new Error(`e2e({ data }): "small" or "real", not ${data}`);
  const small = data === "small";
  const browserOpts = { webgpu, viewport, serviceWorkers: serviceWorkers ?? "allow" };
  const closers = [];
  const mount = small ? { "/data/names/": SMALL_NAMES_DIR } : {};
  let shared = null;
  let other = null;
  let network = null;
  let torchRunner = null;

  const app = {
    url: null,
    server: null,
    data: null,
    /** Options the shared browser was launched with (a fresh one takes the same by default). */
    browserOpts,

    get browser() {
      if (!shared) throw new Error("app.browser: use `await app.sharedBrowser()` (or app.open) first");
      return shared;
    },

    /** The shared Chromium of this file, started on first use. */
    async sharedBrowser() {
      if (!shared) {
        shared = await launch(browserOpts);
        closers.push(() => shared.close());
      }
      return shared;
    },

    /** One more Chromium with a fresh profile (the file's options unless given). */
    async launch(opts = {}) {
      const b = await launch({ ...browserOpts, ...opts });
      let closed = false;
      const close = async () => {
        if (!closed) {
          closed = true;
          await b.close();
        }
      };
      closers.push(close);
      return { ...b, close };
    },

    /** One more server of the build, with the file's data set (`serveDist`'s options). */
    async serve(opts = {}) {
      const s = await serveDist(DIST, { mount: small ? await smallMount() : mount, ...opts });
      closers.push(() => s.close());
      return s;
    },

    /** PyTorch for running a page's lines or a script (`startTorch()` in lib.mjs), started on
     *  first use and closed after the file; null where torch is not importable. */
    torch() {
      torchRunner ??= startTorch().then((t) => {
        if (t) closers.push(() => t.close());
        return t;
      });
      return torchRunner;
    },
    /** A temporary folder, removed after the file. */
    tmp(prefix = "unroll-e2e-") {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      closers.push(() => rmSync(dir, { recursive: true, force: true }));
      return dir;
    },

    /** The URL of a server of the build with the `data` set ("small" or "real"). */
    async urlFor(data) {
      if (data === (small ? "small" : "real")) return app.url;
      if (!other) {
        const s = await serveDist(DIST, { mount: data === "small" ? await smallMount() : {} });
        closers.push(() => s.close());
        other = s;
      }
      return other.url;
    },

    /** (Small data set) The URL of a server whose service worker never installs (see the top of this file). */
    async networkUrl() {
      if (!small) throw new Error("app.networkUrl(): only with the small data set (the real one's service worker installs)");
      if (!network) {
        network = await serveDist(DIST, { mount });
        closers.push(() => network.close());
      }
      return network.url;
    },

    /** Opens `query` (relative to the server, or `opts.url`) in a new page of the shared browser or `opts.browser`. */
    async open(query = "", { browser, as = AppPage, data, url, wait, fresh, serviceWorker = true } = {}) {
      url ??= data ? await app.urlFor(data) : serviceWorker ? app.url : await app.networkUrl();
      const own = fresh ? await app.launch() : null;
      const b = browser ?? own ?? (await app.sharedBrowser());
      const page = await openAppPage(as, b.context, url, query, app);
      if (own) page.onClose = () => own.close();
      if (wait) await page.waitFor(wait);
      return page;
    },
    names: (query, opts = {}) => app.open(query, { as: NamesPage, ...opts }),
    delay: (query, opts = {}) => app.open(query, { as: DelayPage, ...opts }),
    memory: (query, opts = {}) => app.open(query, { as: MemoryPage, ...opts }),
    generate: (query, opts = {}) => app.open(query, { as: GeneratePage, ...opts }),
    lesson: (query, opts = {}) => app.open(query, { as: LessonPage, ...opts }),
  };

  let sw = null;
  const smallMount = async () => {
    sw ??= await smallDataServiceWorker(DIST);
    return { "/data/names/": SMALL_NAMES_DIR, "/sw.js": sw };
  };

  before(async () => {
    buildDist();
    app.server = await serveDist(DIST, { mount: small ? await smallMount() : mount });
    closers.push(() => app.server.close());
    app.url = app.server.url;
    app.data = describeData(small ? SMALL_NAMES_DIR : join(DIST, "data", "names"));
  });

  after(async () => {
    for (const close of closers.reverse()) await Promise.resolve(close()).catch(() => {});
    closers.length = 0;
    shared = null;
    other = null;
    network = null;
    if (sw) rmSync(sw, { force: true });
    sw = null;
  });

  return app;
}
