#!/usr/bin/env node
// Finishes a Trunk build for deployment (Trunk.toml runs it as the post_build hook, on the
// staging folder, before Trunk replaces dist/):
//
//   1. sw.js: the service worker (scripts/service-worker.js) with the list of every file in the
//      build except sw.js and the compressed copies, each with its SHA-256 (the names data, copied
//      unhashed, is versioned by the same SHA-256 its manifest lists); the cache version is a hash
//      of that list, so it changes whenever any file's content changes;
//   2. `X.br` and `X.gz` beside every compressible file (wasm, JS, CSS, HTML, JSON, SVG, text)
//      of at least 1 KiB where compression saves something, for servers that send
//      pre-compressed files (scripts/serve-dist.mjs does);
//   3. `data-service-worker="sw.js"` on index.html's <html>, which tells the page to register it.
//
// Under `trunk serve` (the page then carries Trunk's live-reload script) it writes nothing: the
// development server registers no service worker.
//
// Usage: node scripts/postbuild.mjs [DIR]   (DIR defaults to $TRUNK_STAGING_DIR, then dist/)
// Re-running it on a folder replaces its sw.js and compressed copies (the update test does this
// on a copy of dist/ with one file changed).

import { createHash } from "node:crypto";
import { readFile, readdir, rm, writeFile } from "node:fs/promises";
import { dirname, extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import zlib from "node:zlib";

const SCRIPT_DIR = dirname(fileURLToPath(import.meta.url));
const SW_NAME = "sw.js";
const COMPRESSIBLE = new Set([".wasm", ".js", ".mjs", ".css", ".html", ".json", ".webmanifest", ".svg", ".txt"]);
const MIN_COMPRESS = 1024;
/** Marker of Trunk's live-reload script, present only in pages built by `trunk serve`. */
const DEV_SERVER_MARKER = ".well-known/trunk/ws";

/** Brotli quality: 11 (the best; about 30 s for the wasm module on 2 busy cores), or UNROLL_BROTLI_QUALITY. */
const BROTLI_QUALITY = Number(process.env.UNROLL_BROTLI_QUALITY || zlib.constants.BROTLI_MAX_QUALITY);
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const sha256 = (bytes) => createHash("sha256").update(bytes).digest("hex");

/** Every file under `dir` (relative paths with `/`), sorted. */
async function walk(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(relative(dir, join(e.parentPath ?? e.path, e.name)).split(sep).join("/"));
  }
  return out.sort();
}

const isGenerated = (path) => path === SW_NAME || path.endsWith(".br") || path.endsWith(".gz");

/**
 * Writes sw.js and the compressed copies into `dir`. Returns { version, files, compressed }
 * (`files`: the precache list as [path, sha256]; `compressed`: [path, raw, gzip, brotli] bytes),
 * or null for a `trunk serve` build. `compress: false` only removes stale copies (tests that
 * regenerate the list of a changed build and do not need the copies).
 */
export async function postbuild(dir, { log = console.log, compress = true } = {}) {
  const index = await readFile(join(dir, "index.html"), "utf8");
  if (index.includes(DEV_SERVER_MARKER)) {
    log("postbuild: trunk serve build, no service worker and no compressed copies");
    return null;
  }
  // The page registers the worker only when its <html> names it.
  if (!index.includes("data-service-worker=")) {
    const marked = index.replace(/<html(?=[\s>])/, `<html data-service-worker="${SW_NAME}"`);
    if (marked === index) throw new Error("index.html has no <html> tag");
    await writeFile(join(dir, "index.html"), marked);
  }
  const all = await walk(dir);
  for (const path of all.filter(isGenerated)) await rm(join(dir, path));

  const files = [];
  for (const path of all.filter((p) => !isGenerated(p))) {
    files.push([path, sha256(await readFile(join(dir, path)))]);
  }
  const version = sha256(JSON.stringify(files)).slice(0, 16);
  const template = await readFile(join(SCRIPT_DIR, "service-worker.js"), "utf8");
  const sw = template
    .replace('"__UNROLL_VERSION__"', JSON.stringify(version))
    .replace("__UNROLL_FILES__", JSON.stringify(files, null, 0).replaceAll("],[", "],\n  ["));
  await writeFile(join(dir, SW_NAME), sw);

  // Large files first so the two compressions of the wasm module run while the rest are done.
  const targets = [];
  for (const path of compress ? [...files.map(([p]) => p), SW_NAME] : []) {
    if (!COMPRESSIBLE.has(extname(path))) continue;
    const bytes = await readFile(join(dir, path));
    if (bytes.length >= MIN_COMPRESS) targets.push([path, bytes]);
  }
  targets.sort((a, b) => b[1].length - a[1].length);
  const compressed = await Promise.all(
    targets.map(async ([path, bytes]) => {
      const [br, gz] = await Promise.all([
        brotli(bytes, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
            [zlib.constants.BROTLI_PARAM_MODE]:
              extname(path) === ".wasm" ? zlib.constants.BROTLI_MODE_GENERIC : zlib.constants.BROTLI_MODE_TEXT,
          },
        }),
        gzip(bytes, { level: 9 }),
      ]);
      if (br.length < bytes.length) await writeFile(join(dir, path + ".br"), br);
      if (gz.length < bytes.length) await writeFile(join(dir, path + ".gz"), gz);
      return [path, bytes.length, gz.length, br.length];
    }),
  );
  const kib = (n) => (n / 1024).toFixed(0);
  for (const [path, raw, gz, br] of compressed.filter(([, raw]) => raw >= 64 * 1024)) {
    log(`postbuild: ${path}: ${kib(raw)} KiB, gzip ${kib(gz)} KiB, brotli ${kib(br)} KiB`);
  }
  log(`postbuild: ${SW_NAME} version ${version}, ${files.length} files precached, ${compressed.length} compressed`);
  return { version, files, compressed };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = resolve(process.argv[2] || process.env.TRUNK_STAGING_DIR || join(SCRIPT_DIR, "..", "dist"));
  // A debug build (`trunk build` without --release) is for iterating: its module is large and
  // nobody deploys it, so it gets the service worker but no compressed copies.
  const compress = process.env.TRUNK_PROFILE !== "debug";
  if (!compress) console.log("postbuild: debug build, no compressed copies");
  const t0 = Date.now();
  postbuild(dir, { compress }).then(
    () => console.log(`postbuild: ${((Date.now() - t0) / 1000).toFixed(1)} s`),
    (e) => {
      console.error(`postbuild: ${e.stack || e}`);
      process.exit(1);
    },
  );
}
