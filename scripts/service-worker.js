// Unroll's service worker: keeps one complete build in the Cache API so the app works offline.
//
// scripts/postbuild.mjs writes dist/sw.js from this file, replacing the two constants below with
// the build's file list (every file Trunk emitted, with its SHA-256) and a version derived from
// that list, so any change to any file gives a new version and a new cache.
//
// Life cycle:
//   install   fetches every listed file (of the two builds of the wasm module, only the one this
//             browser runs: `X.wasm` with relaxed SIMD, `X.simd128.wasm` without, as
//             www/boot.js chooses; the other is kept when first asked for), checks each body against its SHA-256 (a server that is
//             halfway through a deploy fails the install, and the previous version stays) and
//             stores them in the cache "unroll-<version>"; files whose content did not change are
//             copied from the previous cache instead of downloaded again;
//   waiting   an update waits while an older version controls open pages; the page shows
//             "a new version is ready — reload" and posts "skip-waiting" when the user asks;
//   activate  deletes the caches of other versions and claims open pages (first visit);
//   fetch     answers GET requests for listed files from this version's cache only (never a mix
//             of two builds); a navigation inside the scope gets the cached index.html; anything
//             else goes to the network.

const VERSION = "__UNROLL_VERSION__";
/** [path relative to this script, SHA-256 hex] for every precached file. */
const FILES = __UNROLL_FILES__;

const CACHE = "unroll-" + VERSION;
const PREFIX = "unroll-";
const HASH_HEADER = "x-unroll-sha256";
/** Trunk's content-hashed names: the HTTP cache may answer for them. */
const HASHED = /-[0-9a-f]{8,16}(_bg)?(\.simd128)?\.[A-Za-z0-9]+$/;
const SIMD128 = ".simd128.wasm";

/** Whether this browser compiles relaxed SIMD: www/boot.js's `unrollRelaxedSimd`, written in by scripts/postbuild.mjs. */
const RELAXED_SIMD = (() => {
  __UNROLL_RELAXED_SIMD__;
  return unrollRelaxedSimd();
})();
const paths = new Set(FILES.map(([path]) => path));
/** The build of the module this browser does not run (its twin is listed too). */
const otherBuild = (path) =>
  RELAXED_SIMD
    ? path.endsWith(SIMD128)
    : path.endsWith(".wasm") && !path.endsWith(SIMD128) && paths.has(path.slice(0, -5) + SIMD128);

const scopeUrl = (path) => new URL(path, self.registration.scope).href;
const byUrl = new Map(FILES.map(([path, sha]) => [scopeUrl(path), sha]));
const INDEX = scopeUrl("index.html");

async function sha256Hex(buffer) {
  const digest = await crypto.subtle.digest("SHA-256", buffer);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A cacheable copy of `bytes` with the headers that matter and the content's SHA-256. */
function stored(bytes, contentType, sha) {
  const headers = new Headers({ [HASH_HEADER]: sha });
  if (contentType) headers.set("content-type", contentType);
  return new Response(bytes, { status: 200, headers });
}

/** The same file from an older version's cache, when its content is unchanged. */
async function fromOldCache(url, sha) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const hit = await (await caches.open(name)).match(url);
    if (hit && hit.headers.get(HASH_HEADER) === sha) return hit;
  }
  return null;
}

/** Stores `path` in `cache`: from an older version's cache when unchanged, else downloaded and checked. */
async function keep(cache, path, sha) {
  const url = scopeUrl(path);
  if (await cache.match(url)) return;
  const old = await fromOldCache(url, sha);
  if (old) return cache.put(url, old);
  const res = await fetch(url, { cache: HASHED.test(path) ? "default" : "no-cache" });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  const bytes = await res.arrayBuffer();
  const got = await sha256Hex(bytes);
  if (got !== sha) throw new Error(`${path}: the server sent another build (SHA-256 ${got}, expected ${sha})`);
  await cache.put(url, stored(bytes, res.headers.get("content-type"), sha));
}

async function precache() {
  const cache = await caches.open(CACHE);
  await Promise.all(FILES.filter(([path]) => !otherBuild(path)).map(([path, sha]) => keep(cache, path, sha)));
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    precache().catch(async (e) => {
      await caches.delete(CACHE);
      throw e;
    }),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data === "skip-waiting") self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET") return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  url.hash = "";
  url.search = "";
  let key = url.href;
  if (!byUrl.has(key)) {
    if (req.mode !== "navigate" || !key.startsWith(self.registration.scope)) return;
    key = INDEX;
  }
  event.respondWith(
    (async () => {
      const cache = await caches.open(CACHE);
      const hit = await cache.match(key);
      if (hit) return hit;
      // The module build not precached (the boot was told to use it): kept once fetched.
      const path = FILES.find(([p]) => scopeUrl(p) === key);
      if (path && otherBuild(path[0])) {
        try {
          await keep(cache, path[0], path[1]);
          const kept = await cache.match(key);
          if (kept) return kept;
        } catch (e) {
          // offline or another build on the server: the network's answer below
        }
      }
      return fetch(req);
    })(),
  );
});
