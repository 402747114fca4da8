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
//   0. (before those) `X.simd128.wasm` beside each module `X.wasm`: the module with its
//      relaxed-SIMD instructions replaced (`withoutRelaxedSimd`), for browsers without relaxed
//      SIMD, which refuse to compile the module Trunk built (its CPU kernels use
//      `f32x4.relaxed_madd` where the page found the instruction: www/boot.js picks the module,
//      core/src/math/linalg/packed.rs the kernels);
//
// Under `trunk serve` (the page then carries Trunk's live-reload script) it writes nothing: the
// development server registers no service worker.
//
// Usage: node scripts/postbuild.mjs [DIR]   (DIR defaults to $TRUNK_STAGING_DIR, then dist/)
// Re-running it on a folder replaces its sw.js and compressed copies (the update test does this
// on a copy of dist/ with one file changed).

import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
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

/** Suffix of the module without relaxed SIMD, beside the one Trunk built. */
export const SIMD128_SUFFIX = ".simd128.wasm";

/**
 * The relaxed-SIMD instructions a module may hold (prefix 0xfd, then the opcode as LEB128: three
 * bytes each) and what the simd128 module has in their place, the same length, so the rest of
 * the module is byte for byte Trunk's:
 * - `f32x4.relaxed_madd`: three `unreachable` (valid wherever the instruction was: the stack is
 *   then unconstrained); it is only in the relaxed-SIMD kernels (core/src/math/linalg/packed.rs), which
 *   run only where the boot found relaxed SIMD;
 * - `f32x4/f64x2.relaxed_min/max`: `pmin`/`pmax`, one of the results the relaxed instruction may
 *   give (they differ only for NaN and ±0). LLVM enables a function's target features in the
 *   whole module, so it may choose these anywhere once one function has relaxed SIMD; they run
 *   on both paths and must keep working without it.
 * Any other relaxed instruction fails the build.
 */
const RELAXED_SIMD = [
  ["f32x4.relaxed_madd", [0xfd, 0x85, 0x02], [0x00, 0x00, 0x00]],
  ["f32x4.relaxed_min", [0xfd, 0x8d, 0x02], [0xfd, 0xea, 0x01]], // f32x4.pmin
  ["f32x4.relaxed_max", [0xfd, 0x8e, 0x02], [0xfd, 0xeb, 0x01]], // f32x4.pmax
  ["f64x2.relaxed_min", [0xfd, 0x8f, 0x02], [0xfd, 0xf6, 0x01]], // f64x2.pmin
  ["f64x2.relaxed_max", [0xfd, 0x90, 0x02], [0xfd, 0xf7, 0x01]], // f64x2.pmax
];

/** The boot's relaxed-SIMD test (`function unrollRelaxedSimd() { … }` of www/boot.js), for the service worker. */
async function relaxedSimdProbe() {
  const boot = await readFile(join(SCRIPT_DIR, "..", "www", "boot.js"), "utf8");
  const fn = /^function unrollRelaxedSimd\(\) \{\n[\s\S]*?\n\}$/m.exec(boot);
  if (!fn) throw new Error("www/boot.js has no function unrollRelaxedSimd()");
  return fn[0];
}

/** binaryen's wasm-dis: the repository's (npm, version 132), else the one on PATH. */
function wasmDisPath() {
  const local = join(SCRIPT_DIR, "..", "node_modules", ".bin", "wasm-dis");
  return existsSync(local) ? local : "wasm-dis";
}

/** [start, end) of the code section (id 10) of a wasm binary. */
function codeSection(bytes) {
  let i = 8;
  while (i < bytes.length) {
    const id = bytes[i++];
    let size = 0;
    for (let shift = 0; ; shift += 7) {
      const b = bytes[i++];
      size += (b & 0x7f) * 2 ** shift;
      if (!(b & 0x80)) break;
    }
    if (id === 10) return [i, i + size];
    i += size;
  }
  throw new Error("no code section");
}

/**
 * The module `bytes` without relaxed SIMD ([`RELAXED_SIMD`]). Each instruction's bytes are found
 * in the code section, and their count must equal the count of that instruction in binaryen's
 * text of the module (`wasm-dis`), so no immediate that happens to hold the same bytes is
 * touched.
 */
export async function withoutRelaxedSimd(bytes, wasmPath) {
  const { stdout: text } = await promisify(execFile)(wasmDisPath(), [wasmPath], { maxBuffer: 1 << 30 });
  const named = new Map();
  for (const m of text.matchAll(/\b([if](?:8x16|16x8|32x4|64x2)\.relaxed_[a-z0-9_]+)\b/g)) named.set(m[1], (named.get(m[1]) ?? 0) + 1);
  const known = new Set(RELAXED_SIMD.map(([name]) => name));
  const unknown = [...named.keys()].filter((n) => !known.has(n));
  if (unknown.length) throw new Error(`relaxed-SIMD instructions with no simd128 replacement: ${unknown.join(", ")}`);
  const out = Buffer.from(bytes);
  const [start, end] = codeSection(out);
  for (const [name, find, put] of RELAXED_SIMD) {
    const at = [];
    for (let i = out.indexOf(Buffer.from(find), start); i >= 0 && i + find.length <= end; i = out.indexOf(Buffer.from(find), i + 1)) at.push(i);
    const want = named.get(name) ?? 0;
    if (at.length !== want) throw new Error(`${name}: ${want} in the module's text, ${at.length} byte matches in its code`);
    for (const i of at) out.set(put, i);
  }
  return out;
}

/**
 * Writes `X.simd128.wasm` beside every `X.wasm` of `dir` (not recursing; an existing copy is
 * replaced): the module without relaxed SIMD ([`withoutRelaxedSimd`]). Returns the written names.
 */
export async function writeSimd128Modules(dir, { log = console.log } = {}) {
  const written = [];
  for (const name of (await readdir(dir)).sort()) {
    if (!name.endsWith(".wasm") || name.endsWith(SIMD128_SUFFIX)) continue;
    const out = name.slice(0, -".wasm".length) + SIMD128_SUFFIX;
    const bytes = await readFile(join(dir, name));
    const plain = await withoutRelaxedSimd(bytes, join(dir, name));
    await writeFile(join(dir, out), plain);
    const changed = plain.reduce((n, b, i) => n + (b !== bytes[i] ? 1 : 0), 0);
    log(`postbuild: ${out}: without relaxed SIMD (${changed} bytes changed)`);
    written.push(out);
  }
  return written;
}

/** Every file under `dir` (relative paths with `/`), sorted. */
async function walk(dir) {
  const out = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(relative(dir, join(e.parentPath ?? e.path, e.name)).split(sep).join("/"));
  }
  return out.sort();
}

const isGenerated = (path) => path === SW_NAME || path.endsWith(".br") || path.endsWith(".gz");

/** The precache list of the build in `dir`: [path, sha256] for each of `paths` (default: every file) that is not generated here. */
export async function precacheList(dir, paths) {
  const files = [];
  for (const path of (paths ?? (await walk(dir))).filter((p) => !isGenerated(p))) {
    files.push([path, sha256(await readFile(join(dir, path)))]);
  }
  return files;
}

/** The service worker for the precache list `files` ([path, sha256], sorted by path): { version, source }. */
export async function serviceWorker(files) {
  const version = sha256(JSON.stringify(files)).slice(0, 16);
  const template = await readFile(join(SCRIPT_DIR, "service-worker.js"), "utf8");
  const source = template
    .replace("__UNROLL_RELAXED_SIMD__;", await relaxedSimdProbe())
    .replace('"__UNROLL_VERSION__"', JSON.stringify(version))
    .replace("__UNROLL_FILES__", JSON.stringify(files, null, 0).replaceAll("],[", "],\n  ["));
  return { version, source };
}

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

  const files = await precacheList(dir, all);
  const { version, source } = await serviceWorker(files);
  await writeFile(join(dir, SW_NAME), source);

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
  writeSimd128Modules(dir)
    .then(() => postbuild(dir, { compress }))
    .then(
      () => console.log(`postbuild: ${((Date.now() - t0) / 1000).toFixed(1)} s`),
      (e) => {
        console.error(`postbuild: ${e.stack || e}`);
        process.exit(1);
      },
    );
}
