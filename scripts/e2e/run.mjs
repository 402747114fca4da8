#!/usr/bin/env node
// Runs the end-to-end test files (scripts/e2e/*.test.mjs, or the files named) as two groups:
//   1. the files that may share the machine, UNROLL_E2E_CONCURRENCY at a time (default 2: on a
//      2-core machine one file's browser leaves about half of the CPU idle while it waits for
//      timers, workers and page loads), longest first (by the last measured seconds of each
//      file, so the two lanes end together);
//   2. then, one at a time with no other e2e file beside them (scripts/test.sh may still run its
//      background suites at the lowest CPU priority), the files whose first lines say
//      `// Runs alone: <why>` — those that bound the main thread's longest task, which a second
//      browser on the same cores would stretch, and those a busy machine makes fail.
// Both groups print node's TAP output (each ends with its own "# pass N" / "# fail M" lines, which
// scripts/test.sh adds up); the exit status is 1 when a test failed.
//
// The release build is made once here (unless UNROLL_E2E_SKIP_BUILD=1), not by each file.
// Seconds per file: scripts/e2e/out/durations.json (written by the last full run here), else the
// committed scripts/e2e/durations.json; a file in neither counts as DEFAULT_SECONDS.
//
// Usage: node scripts/e2e/run.mjs [FILE…]
//   UNROLL_E2E_CONCURRENCY=1 runs every file one after another (the order of the old suite).

import { run } from "node:test";
import { tap } from "node:test/reporters";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { buildDist, OUT } from "./lib.mjs";

const HERE = resolve(import.meta.dirname);
const COMMITTED = join(HERE, "durations.json");
const MEASURED = join(OUT, "durations.json");
const DEFAULT_SECONDS = 30;
const ALONE = /^\/\/ Runs alone: /m;
// A file alone that needs a quiet machine (a bound on the main thread's longest task): while it
// runs, the process group scripts/test.sh runs beside the e2e files (UNROLL_E2E_PAUSE_PGID) is
// stopped, and continued after it.
const QUIET = /^\/\/ Needs a quiet machine: /m;
const PAUSE_PGID = Number(process.env.UNROLL_E2E_PAUSE_PGID || 0);
function background(signal) {
  if (PAUSE_PGID > 0) {
    try {
      process.kill(-PAUSE_PGID, signal);
    } catch {
      // The group has ended: nothing to stop or continue.
    }
  }
}
process.on("exit", () => background("SIGCONT"));
const head = (f) => readFileSync(f, "utf8").split("\n").slice(0, 40).join("\n");

/** The seconds each file took last time ({ "memory.test.mjs": 105, … }). */
function durations() {
  for (const path of [MEASURED, COMMITTED]) {
    if (existsSync(path)) return JSON.parse(readFileSync(path, "utf8"));
  }
  return {};
}

/** Runs `files` `concurrency` at a time, in the given order; resolves to { failed, seconds per file }. */
function runGroup(files, concurrency) {
  return new Promise((done) => {
    let failed = 0;
    const seconds = {};
    const stream = run({ files, concurrency });
    // Top-level tests only (nesting 0): their durations add up to the file's time, less its hooks.
    stream.on("test:pass", (e) => {
      if (e.nesting === 0 && e.file) seconds[basename(e.file)] = (seconds[basename(e.file)] ?? 0) + e.details.duration_ms / 1000;
    });
    stream.on("test:fail", (e) => {
      failed += 1;
      if (e.nesting === 0 && e.file) seconds[basename(e.file)] = (seconds[basename(e.file)] ?? 0) + e.details.duration_ms / 1000;
    });
    const out = stream.compose(tap);
    out.pipe(process.stdout, { end: false });
    out.on("end", () => done({ failed, seconds }));
  });
}

const named = process.argv.slice(2).map((f) => resolve(f));
const files = named.length
  ? named
  : readdirSync(HERE)
      .filter((f) => f.endsWith(".test.mjs"))
      .sort()
      .map((f) => join(HERE, f));
const concurrency = Math.max(1, Number(process.env.UNROLL_E2E_CONCURRENCY || 2));
const took = durations();
const weight = (f) => took[basename(f)] ?? DEFAULT_SECONDS;
const alone = files.filter((f) => ALONE.test(head(f)));
const shared = files.filter((f) => !alone.includes(f)).sort((a, b) => weight(b) - weight(a));

buildDist();
process.env.UNROLL_E2E_SKIP_BUILD = "1";
const t0 = Date.now();
const first = concurrency > 1 ? await runGroup(shared, concurrency) : await runGroup([...shared, ...alone].sort(), 1);
const second = { failed: 0, seconds: {} };
for (const f of concurrency > 1 ? alone : []) {
  const quiet = QUIET.test(head(f));
  if (quiet) background("SIGSTOP");
  const r = await runGroup([f], 1);
  if (quiet) background("SIGCONT");
  second.failed += r.failed;
  Object.assign(second.seconds, r.seconds);
}
const wall = (Date.now() - t0) / 1000;
console.log(
  `# e2e: ${files.length} files in ${wall.toFixed(0)} s: ${concurrency > 1 ? `${shared.length} of them ${concurrency} at a time, then ${alone.length} alone (${alone.map((f) => basename(f)).join(", ")})` : "one at a time"}`,
);
if (!named.length) {
  mkdirSync(OUT, { recursive: true });
  const seconds = Object.fromEntries(Object.entries({ ...first.seconds, ...second.seconds }).map(([f, s]) => [f, Math.round(s)]).sort());
  writeFileSync(MEASURED, `${JSON.stringify(seconds, null, 2)}\n`);
}
process.exitCode = first.failed + second.failed > 0 ? 1 : 0;
