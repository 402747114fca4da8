// Tests of scripts/postbuild.mjs (the service worker's file list, its version, the compressed
// copies) and scripts/serve-dist.mjs (encodings, cache headers, MIME types) on a small fake
// build in a temp dir (run: node --test scripts/tests/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { postbuild, writeSimd128Modules } from '../postbuild.mjs';
import { serveDist } from '../serve-dist.mjs';

const INDEX = '<!doctype html>\n<html lang="en"><head><title>t</title></head><body>' + 'x'.repeat(2000) + '</body></html>\n';
const WASM = 'unroll-0123456789abcdef_bg.wasm';
const GLUE = 'unroll-0123456789abcdef.js';

/** A fake Trunk output: index.html, a hashed module and glue, an unhashed worker script, data. */
async function fakeBuild() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'unroll-postbuild-'));
  await fs.mkdir(path.join(dir, 'data', 'names'), { recursive: true });
  await fs.writeFile(path.join(dir, 'index.html'), INDEX);
  // Half random (incompressible), half repetitive: compression must still pay off.
  await fs.writeFile(path.join(dir, WASM), Buffer.concat([randomBytes(4096), Buffer.alloc(60_000, 7)]));
  await fs.writeFile(path.join(dir, GLUE), 'export default function init() {}\n'.repeat(100));
  await fs.writeFile(path.join(dir, 'engine-worker.js'), 'import("./' + GLUE + '");\n');
  await fs.writeFile(path.join(dir, 'data', 'names', 'Czech.txt'), 'Novak\n'.repeat(400));
  await fs.writeFile(path.join(dir, 'data', 'names', 'manifest.json'), '{"version":1,"files":[]}\n');
  return dir;
}

const quiet = { log: () => {} };
const sha256 = (b) => createHash('sha256').update(b).digest('hex');

/** The FILES and VERSION constants of a written sw.js. */
async function readSw(dir) {
  const text = await fs.readFile(path.join(dir, 'sw.js'), 'utf8');
  const version = /const VERSION = "([0-9a-f]+)";/.exec(text)[1];
  const files = JSON.parse(/const FILES = (\[[\s\S]*?\]\]);/.exec(text)[1]);
  return { text, version, files };
}

test('sw.js lists every emitted file with its SHA-256, and nothing generated', async () => {
  const dir = await fakeBuild();
  try {
    const result = await postbuild(dir, quiet);
    const { text, version, files } = await readSw(dir);
    assert.equal(version, result.version);
    // The boot's relaxed-SIMD test, which chooses the module it keeps.
    assert.match(text, /function unrollRelaxedSimd\(\) \{[\s\S]*WebAssembly\.validate/);
    assert.doesNotMatch(text, /__UNROLL_/);
    assert.deepEqual(
      files.map(([p]) => p),
      ['data/names/Czech.txt', 'data/names/manifest.json', 'engine-worker.js', 'index.html', GLUE, WASM],
    );
    for (const [p, sum] of files) assert.equal(sum, sha256(await fs.readFile(path.join(dir, p))), p);
    // The page learns from index.html that a service worker exists.
    assert.match(await fs.readFile(path.join(dir, 'index.html'), 'utf8'), /<html data-service-worker="sw.js" lang="en">/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('compressed copies decode to the original bytes', async () => {
  const dir = await fakeBuild();
  try {
    await postbuild(dir, quiet);
    for (const p of [WASM, GLUE, 'index.html', 'data/names/Czech.txt', 'sw.js']) {
      const raw = await fs.readFile(path.join(dir, p));
      const br = await fs.readFile(path.join(dir, p + '.br'));
      const gz = await fs.readFile(path.join(dir, p + '.gz'));
      assert.ok(br.length < raw.length && gz.length < raw.length, `${p} is smaller compressed`);
      assert.deepEqual(zlib.brotliDecompressSync(br), raw, `${p}.br`);
      assert.deepEqual(zlib.gunzipSync(gz), raw, `${p}.gz`);
    }
    // Under 1 KiB: not worth a copy.
    await assert.rejects(fs.stat(path.join(dir, 'engine-worker.js.br')));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('the version changes when any file changes, and only then', async () => {
  const dir = await fakeBuild();
  try {
    const a = (await postbuild(dir, quiet)).version;
    const again = (await postbuild(dir, quiet)).version;
    assert.equal(again, a, 'running it twice on the same build gives the same version');
    // An unhashed script (same name, new content) must give a new version.
    await fs.appendFile(path.join(dir, 'engine-worker.js'), '// changed\n');
    const b = (await postbuild(dir, quiet)).version;
    assert.notEqual(b, a);
    await fs.appendFile(path.join(dir, 'data', 'names', 'Czech.txt'), 'Svoboda\n');
    const c = (await postbuild(dir, quiet)).version;
    assert.notEqual(c, b);
    const { files } = await readSw(dir);
    assert.equal(files.find(([p]) => p === 'data/names/Czech.txt')[1], sha256(await fs.readFile(path.join(dir, 'data', 'names', 'Czech.txt'))));
    // No stale copies of the previous run: the .br of the changed file matches its new content.
    const br = await fs.readFile(path.join(dir, 'data', 'names', 'Czech.txt.br'));
    assert.match(zlib.brotliDecompressSync(br).toString(), /Svoboda\n$/);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('a `trunk serve` build gets no service worker', async () => {
  const dir = await fakeBuild();
  try {
    const dev = INDEX.replace('</body>', "<script>const url = 'ws://' + address + base + '.well-known/trunk/ws';</script></body>");
    await fs.writeFile(path.join(dir, 'index.html'), dev);
    assert.equal(await postbuild(dir, quiet), null);
    await assert.rejects(fs.stat(path.join(dir, 'sw.js')));
    await assert.rejects(fs.stat(path.join(dir, WASM + '.br')));
    assert.equal(await fs.readFile(path.join(dir, 'index.html'), 'utf8'), dev);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});

test('serve-dist: encodings, Vary, cache headers and MIME types', async () => {
  const dir = await fakeBuild();
  await postbuild(dir, quiet);
  const server = await serveDist(dir);
  try {
    const get = (p, ae) => fetch(server.url + p, { headers: ae === undefined ? {} : { 'accept-encoding': ae } });
    // Node's fetch decodes br/gzip itself; the headers say what travelled.
    let r = await get(WASM, 'gzip, deflate, br');
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/wasm');
    assert.equal(r.headers.get('content-encoding'), 'br');
    assert.equal(r.headers.get('vary'), 'Accept-Encoding');
    assert.equal(r.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.deepEqual(Buffer.from(await r.arrayBuffer()), await fs.readFile(path.join(dir, WASM)));
    r = await get(WASM, 'gzip');
    assert.equal(r.headers.get('content-encoding'), 'gzip');
    await r.arrayBuffer();
    r = await get(WASM, 'identity');
    assert.equal(r.headers.get('content-encoding'), null);
    assert.equal(Number(r.headers.get('content-length')), (await fs.stat(path.join(dir, WASM))).size);
    await r.arrayBuffer();
    r = await get(GLUE, 'br');
    assert.equal(r.headers.get('content-type'), 'text/javascript; charset=utf-8');
    await r.arrayBuffer();
    for (const p of ['', 'index.html', 'sw.js', 'engine-worker.js', 'data/names/manifest.json']) {
      r = await get(p, 'br');
      assert.equal(r.status, 200, p);
      assert.equal(r.headers.get('cache-control'), 'no-cache', p);
      await r.arrayBuffer();
    }
    // Revalidation of a no-cache file.
    r = await get('sw.js', 'br');
    const etag = r.headers.get('etag');
    await r.arrayBuffer();
    r = await fetch(server.url + 'sw.js', { headers: { 'accept-encoding': 'br', 'if-none-match': etag } });
    assert.equal(r.status, 304);
    r = await get('missing.js', 'br');
    assert.equal(r.status, 404);
    await r.arrayBuffer();
  } finally {
    await server.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
});

/** A module of one function `(v128, v128, v128) -> v128` returning `f32x4.relaxed_madd` (www/boot.js's probe). */
const RELAXED = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, 1, 8, 1, 96, 3, 123, 123, 123, 1, 123, 3, 2, 1, 0, 10, 13, 1, 11, 0, 32, 0, 32, 1, 32, 2,
  253, 133, 2, 11,
]);

test('the simd128 module is the module without relaxed SIMD, written once per module', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'unroll-postbuild-'));
  try {
    await fs.writeFile(path.join(dir, WASM), RELAXED);
    const twin = WASM.replace(/\.wasm$/, '.simd128.wasm');
    assert.deepEqual(await writeSimd128Modules(dir, quiet), [twin]);
    const out = await fs.readFile(path.join(dir, twin));
    // f32x4.relaxed_madd is 0xfd 0x85 0x02: gone, the function now traps.
    assert.equal(Buffer.from(out).indexOf(Buffer.from([0xfd, 0x85, 0x02])), -1);
    assert.ok(WebAssembly.validate(out), 'valid without relaxed SIMD');
    await WebAssembly.instantiate(out);
    // Again on the same folder: the copy is replaced, never copied itself.
    assert.deepEqual(await writeSimd128Modules(dir, quiet), [twin]);
    assert.deepEqual((await fs.readdir(dir)).sort(), [WASM, twin].sort());
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
});
