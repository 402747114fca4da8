// Tests of scripts/fetch-data.mjs (run: node --test scripts/tests/).
//
// The download path is tested against a zip of the real name files served from 127.0.0.1, with the
// ../shared copy path switched off (UNROLL_SHARED_DIR=/nonexistent) and the output in a temp dir
// (UNROLL_DATA_OUT), so the real www/data is never touched. The real files come from
// UNROLL_NAMES_DIR, else ../shared/data/names beside the repository, else www/data/names.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { existsSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

const SCRIPTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROOT = path.resolve(SCRIPTS, '..');
const FETCH = path.join(SCRIPTS, 'fetch-data.mjs');

function namesDir() {
  const candidates = [process.env.UNROLL_NAMES_DIR, path.join(ROOT, '../shared/data/names'), path.join(ROOT, 'www/data/names')];
  const dir = candidates.find((d) => d && existsSync(path.join(d, 'Arabic.txt')));
  if (!dir) throw new Error(`the real names files are needed by this test; tried ${candidates.filter(Boolean).join(', ')}`);
  return dir;
}

async function expectedSums() {
  const text = await fs.readFile(path.join(SCRIPTS, 'names-SHA256SUMS'), 'utf8');
  return new Map(
    text
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => l.trim().split(/\s+/))
      .map(([sum, file]) => [file, sum]),
  );
}

/** The real files as zip entries under data/names/, like the PyTorch archive. */
async function archiveEntries() {
  const dir = namesDir();
  const entries = { 'data/eng-fra.txt': new TextEncoder().encode('Go.\tVa !\n') };
  for (const file of (await expectedSums()).keys()) entries[`data/names/${file}`] = new Uint8Array(await fs.readFile(path.join(dir, file)));
  return entries;
}

/** Serves `body` at /data.zip on 127.0.0.1 (random port); returns { url, close, hits }. */
async function serve(body) {
  const state = { hits: 0 };
  const server = http.createServer((req, res) => {
    state.hits += 1;
    if (req.url !== '/data.zip') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/zip', 'content-length': body.length }).end(Buffer.from(body));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}/data.zip`, state, close: () => new Promise((r) => server.close(r)) };
}

/** Runs fetch-data asynchronously (the server above runs in this process). */
function runFetch(env, args = []) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [FETCH, ...args], { env: { ...process.env, ...env }, cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function tempDir(t) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'unroll-fetch-'));
  t.after(() => fs.rm(dir, { recursive: true, force: true }));
  return dir;
}

async function assertValidOutput(out) {
  const sums = await expectedSums();
  const listed = (await fs.readdir(out)).sort();
  assert.deepEqual(listed, [...[...sums.keys()], 'manifest.json'].sort());
  for (const [file, sum] of sums) {
    const got = createHash('sha256').update(await fs.readFile(path.join(out, file))).digest('hex');
    assert.equal(got, sum, file);
  }
  const manifest = JSON.parse(await fs.readFile(path.join(out, 'manifest.json'), 'utf8'));
  assert.equal(manifest.version, 1);
  assert.equal(manifest.files.length, 18);
  assert.deepEqual(manifest.files[0], { class: 'Arabic', file: 'Arabic.txt', sha256: sums.get('Arabic.txt') });
  assert.deepEqual(
    manifest.files.map((f) => f.class),
    [...sums.keys()].map((f) => f.replace(/\.txt$/, '')),
  );
  for (const f of manifest.files) assert.equal(f.sha256, sums.get(f.file));
}

test('download path: extracts data/names/*.txt from the archive, checks the sums, writes the manifest', async (t) => {
  const tmp = await tempDir(t);
  const out = path.join(tmp, 'names');
  const server = await serve(zipSync(await archiveEntries()));
  t.after(server.close);
  const env = { UNROLL_DATA_URL: server.url, UNROLL_SHARED_DIR: '/nonexistent', UNROLL_DATA_OUT: out };

  const first = await runFetch(env);
  assert.equal(first.code, 0, first.stderr);
  assert.equal(first.stderr, '');
  assert.match(first.stdout, /^fetch-data: 18 name files \(20074 lines, SHA-256 checked\) downloaded from http:\/\/127\.0\.0\.1:\d+\/data\.zip to .*\n$/);
  assert.equal(server.state.hits, 1);
  await assertValidOutput(out);

  // Idempotent: a second run finds the folder complete and downloads nothing.
  const second = await runFetch(env);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /is up to date \(18 name files\)\n$/);
  assert.equal(server.state.hits, 1);

  // A damaged file in the output is noticed and the folder is rebuilt.
  await fs.appendFile(path.join(out, 'Greek.txt'), 'Extra\n');
  const third = await runFetch(env);
  assert.equal(third.code, 0, third.stderr);
  assert.equal(server.state.hits, 2);
  await assertValidOutput(out);
});

test('download path: a corrupted name file in the archive fails, names the file and leaves nothing', async (t) => {
  const tmp = await tempDir(t);
  const out = path.join(tmp, 'names');
  const entries = await archiveEntries();
  const korean = entries['data/names/Korean.txt'];
  korean[10] ^= 0x01; // one byte changed
  const server = await serve(zipSync(entries));
  t.after(server.close);

  const run = await runFetch({ UNROLL_DATA_URL: server.url, UNROLL_SHARED_DIR: '/nonexistent', UNROLL_DATA_OUT: out });
  assert.notEqual(run.code, 0);
  assert.equal(run.stdout, '');
  assert.match(run.stderr, /^fetch-data: error: Korean\.txt from http:\/\/127\.0\.0\.1:\d+\/data\.zip has the wrong SHA-256 \(expected cd54221c/);
  assert.equal(existsSync(out), false, 'no output folder');
  assert.deepEqual(await fs.readdir(tmp), [], 'no temporary folder left behind');
});

test('download path: a missing file, a non-zip body and an HTTP error are reported', async (t) => {
  const tmp = await tempDir(t);
  const out = path.join(tmp, 'names');
  const base = { UNROLL_SHARED_DIR: '/nonexistent', UNROLL_DATA_OUT: out };

  const entries = await archiveEntries();
  delete entries['data/names/Vietnamese.txt'];
  const missing = await serve(zipSync(entries));
  t.after(missing.close);
  let run = await runFetch({ ...base, UNROLL_DATA_URL: missing.url });
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /^fetch-data: error: Vietnamese\.txt is missing from http:/);

  const garbage = await serve(new TextEncoder().encode('<html>not a zip</html>'));
  t.after(garbage.close);
  run = await runFetch({ ...base, UNROLL_DATA_URL: garbage.url });
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /could not be unpacked .*is it a zip archive\?/);

  run = await runFetch({ ...base, UNROLL_DATA_URL: garbage.url.replace('data.zip', 'nothing.zip') });
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /could not download http:\/\/127\.0\.0\.1:\d+\/nothing\.zip: HTTP 404/);
  assert.equal(existsSync(out), false);
  assert.deepEqual(await fs.readdir(tmp), []);
});

test('copy path: copies from the shared folder, then rejects a damaged shared file', async (t) => {
  const tmp = await tempDir(t);
  const shared = path.join(tmp, 'shared');
  const out = path.join(tmp, 'out');
  await fs.cp(namesDir(), shared, { recursive: true, filter: (src) => !src.endsWith('manifest.json') });
  const env = { UNROLL_SHARED_DIR: shared, UNROLL_DATA_OUT: out, UNROLL_DATA_URL: 'http://127.0.0.1:9/unused.zip' };

  const run = await runFetch(env);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^fetch-data: 18 name files \(20074 lines, SHA-256 checked\) copied from /);
  await assertValidOutput(out);

  await fs.writeFile(path.join(shared, 'Czech.txt'), 'Novak\n');
  const forced = await runFetch(env, ['--force']);
  assert.notEqual(forced.code, 0);
  assert.match(forced.stderr, /^fetch-data: error: Czech\.txt from .* has the wrong SHA-256/);
  await assertValidOutput(out); // the previous good copy is kept
});
