#!/usr/bin/env node
// Puts the 18 names files of the PyTorch tutorial into www/data/names/ with a manifest.json.
//
// Usage: node scripts/fetch-data.mjs [--force]
//
// Source, in order:
//   1. ../shared/data/names beside the repository (override: UNROLL_SHARED_DIR), copied;
//   2. otherwise the PyTorch tutorial archive (UNROLL_DATA_URL, default
//      https://download.pytorch.org/tutorial/data.zip), from which data/names/*.txt is extracted.
// Every file is checked against scripts/names-SHA256SUMS; a missing file or a wrong sum stops the
// script with a non-zero exit and a message naming the file, and nothing is written. The output
// folder (override: UNROLL_DATA_OUT) is replaced in one rename, so it is never half written.
// When the folder is already complete and valid the script does nothing (--force re-fetches).
// Output: one summary line on stdout; errors on stderr.
//
// manifest.json (HTTP cannot list a folder, so the app reads this to know which files to fetch):
//   {"version": 1, "files": [{"class": "Arabic", "file": "Arabic.txt", "sha256": "…"}, …]}

import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(SCRIPT_DIR, '..');
const SUMS_FILE = path.join(SCRIPT_DIR, 'names-SHA256SUMS');
const DEFAULT_URL = 'https://download.pytorch.org/tutorial/data.zip';
const ARCHIVE_DIR = 'data/names/';
const DOWNLOAD_TIMEOUT_MS = 300_000;

/** An error whose message is shown as is. */
class FetchDataError extends Error {}

/** Lines as the Rust loader counts them (a final newline does not start another line). */
function countLines(bytes) {
  const text = bytes.toString('utf8');
  const newlines = (text.match(/\n/g) || []).length;
  return newlines + (text.length > 0 && !text.endsWith('\n') ? 1 : 0);
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

const exists = (p) =>
  fs.stat(p).then(
    () => true,
    () => false,
  );

/** Expected files: Map(file name -> sha256), sorted by file name. */
async function readSums() {
  const text = await fs.readFile(SUMS_FILE, 'utf8');
  const sums = new Map();
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const m = /^([0-9a-f]{64}) [ *]?(\S+\.txt)$/.exec(line.trim());
    if (!m || m[2].includes('/')) {
      throw new FetchDataError(`${path.relative(ROOT, SUMS_FILE)}, line ${i + 1}: not "<sha256>  <Name>.txt"`);
    }
    sums.set(m[2], m[1]);
  }
  if (sums.size === 0) throw new FetchDataError(`${SUMS_FILE} lists no files`);
  return new Map([...sums].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** manifest.json's text for `sums` (Map file name -> sha256, in class order). */
export function manifestText(sums) {
  const files = [...sums].map(([file, sum]) => ({ class: file.replace(/\.txt$/, ''), file, sha256: sum }));
  return JSON.stringify({ version: 1, files }, null, 2) + '\n';
}

/** Checks `files` (Map name -> bytes) against `sums`; throws naming the first bad file. */
function verify(files, sums, source) {
  for (const [file, want] of sums) {
    const bytes = files.get(file);
    if (!bytes) throw new FetchDataError(`${file} is missing from ${source}`);
    const got = sha256(bytes);
    if (got !== want) {
      throw new FetchDataError(`${file} from ${source} has the wrong SHA-256 (expected ${want}, got ${got})`);
    }
  }
}

/** True when `outDir` holds exactly the expected name files, valid, and the same manifest. */
async function isComplete(outDir, sums, manifest) {
  try {
    const entries = await fs.readdir(outDir);
    const txt = entries.filter((e) => e.endsWith('.txt'));
    if (txt.length !== sums.size || txt.some((f) => !sums.has(f))) return false;
    if ((await fs.readFile(path.join(outDir, 'manifest.json'), 'utf8')) !== manifest) return false;
    for (const [file, want] of sums) {
      if (sha256(await fs.readFile(path.join(outDir, file))) !== want) return false;
    }
    return true;
  } catch {
    return false;
  }
}

async function fromShared(sharedDir, sums) {
  const files = new Map();
  for (const file of sums.keys()) {
    const p = path.join(sharedDir, file);
    if (await exists(p)) files.set(file, await fs.readFile(p));
  }
  return files;
}

async function fromArchive(url, sums) {
  let fflate;
  try {
    fflate = await import('fflate');
  } catch {
    throw new FetchDataError('the zip library is not installed: run `npm ci --prefix scripts` first');
  }
  let response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS) });
  } catch (e) {
    throw new FetchDataError(`could not download ${url}: ${e.cause?.message ?? e.message}`);
  }
  if (!response.ok) throw new FetchDataError(`could not download ${url}: HTTP ${response.status} ${response.statusText}`);
  const archive = new Uint8Array(await response.arrayBuffer());

  const wanted = new Set([...sums.keys()].map((f) => ARCHIVE_DIR + f));
  let current = null;
  let entries;
  try {
    entries = fflate.unzipSync(archive, {
      filter: (entry) => {
        current = entry.name;
        return wanted.has(entry.name);
      },
    });
  } catch (e) {
    const where = current && wanted.has(current) ? `${current.slice(ARCHIVE_DIR.length)} in ` : '';
    throw new FetchDataError(`${where}${url} could not be unpacked (${e.message}); is it a zip archive?`);
  }
  const files = new Map();
  for (const [name, bytes] of Object.entries(entries)) files.set(name.slice(ARCHIVE_DIR.length), Buffer.from(bytes));
  return files;
}

/** Writes the files and the manifest to a temporary folder, then swaps it in with one rename. */
async function writeOut(outDir, files, manifest) {
  const tmp = `${outDir}.tmp-${process.pid}`;
  await fs.rm(tmp, { recursive: true, force: true });
  try {
    await fs.mkdir(tmp, { recursive: true });
    for (const [file, bytes] of files) await fs.writeFile(path.join(tmp, file), bytes);
    await fs.writeFile(path.join(tmp, 'manifest.json'), manifest);
    await fs.rm(outDir, { recursive: true, force: true });
    await fs.rename(tmp, outDir);
  } catch (e) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw e;
  }
}

async function main() {
  const force = process.argv.includes('--force');
  const outDir = path.resolve(process.env.UNROLL_DATA_OUT || path.join(ROOT, 'www/data/names'));
  const sharedDir = path.resolve(process.env.UNROLL_SHARED_DIR || path.join(ROOT, '../shared/data/names'));
  const url = process.env.UNROLL_DATA_URL || DEFAULT_URL;
  const shown = path.relative(process.cwd(), outDir) || '.';

  const sums = await readSums();
  const manifest = manifestText(sums);
  if (!force && (await isComplete(outDir, sums, manifest))) {
    console.log(`fetch-data: ${shown} is up to date (${sums.size} name files)`);
    return;
  }

  let files;
  let source;
  if (await exists(sharedDir)) {
    source = sharedDir;
    files = await fromShared(sharedDir, sums);
  } else {
    source = url;
    files = await fromArchive(url, sums);
  }
  verify(files, sums, source);
  const selected = new Map([...sums.keys()].map((f) => [f, files.get(f)]));
  await writeOut(outDir, selected, manifest);
  const lines = [...selected.values()].reduce((n, b) => n + countLines(b), 0);
  const how = source === url ? `downloaded from ${url}` : `copied from ${path.relative(process.cwd(), sharedDir) || '.'}`;
  console.log(`fetch-data: ${sums.size} name files (${lines} lines, SHA-256 checked) ${how} to ${shown}`);
}

// Run as a script (imported, it only lends `manifestText`).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    const message = e instanceof FetchDataError ? e.message : e.stack || String(e);
    console.error(`fetch-data: error: ${message}`);
    process.exit(1);
  });
}
