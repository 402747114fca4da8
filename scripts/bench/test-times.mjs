#!/usr/bin/env node
// Where the test suite's time goes: wall time of each native test binary and of each test in
// it, and of each end-to-end test file and test, slowest first.
//
// Usage:
//   node scripts/bench/test-times.mjs cargo [--top N] [-- CARGO TEST ARGS]
//       builds the workspace's tests (`cargo test --no-run`), then runs each test binary on its
//       own from its package's folder (as `cargo test` does), timing the binary and, through
//       libtest's `--report-time`, each test in it;
//   node scripts/bench/test-times.mjs tap [--top N] FILE…
//       reads node --test TAP output (e.g. `node --test --test-reporter=tap scripts/e2e/ > e2e.tap`,
//       or scripts/test.sh's e2e log) and ranks the files and tests by their `duration_ms`.
// Figures from a machine that is doing other work are only good relative to each other.

import { spawnSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const mode = args.shift();
const dash = args.indexOf("--");
const extra = dash >= 0 ? args.splice(dash).slice(1) : [];
const topAt = args.indexOf("--top");
const TOP = topAt >= 0 ? Number(args.splice(topAt, 2)[1]) : 20;

const secs = (x) => x.toFixed(2).padStart(8);

function table(title, rows) {
  console.log(`\n${title}`);
  for (const [t, name] of rows.slice(0, TOP)) console.log(`${secs(t)} s  ${name}`);
}

function cargo() {
  const build = spawnSync("cargo", ["test", "--no-run", "--message-format=json", ...extra], { cwd: ROOT, encoding: "utf8", maxBuffer: 1 << 28, stdio: ["ignore", "pipe", "inherit"] });
  if (build.status !== 0) process.exit(build.status ?? 1);
  const bins = [];
  for (const line of build.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const m = JSON.parse(line);
    if (m.reason === "compiler-artifact" && m.executable && m.profile?.test) {
      bins.push({ exe: m.executable, dir: dirname(m.manifest_path), name: `${m.target.kind[0]} ${m.target.name} (${relative(ROOT, dirname(m.manifest_path)) || "."})` });
    }
  }
  const perBin = [];
  const perTest = [];
  let total = 0;
  for (const b of bins) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(b.exe, ["-Z", "unstable-options", "--report-time"], { cwd: b.dir, encoding: "utf8", env: { ...process.env, RUSTC_BOOTSTRAP: "1" }, maxBuffer: 1 << 26 });
    const took = Number(process.hrtime.bigint() - t0) / 1e9;
    total += took;
    const summary = /test result: (\w+)\. (\d+) passed; (\d+) failed; (\d+) ignored/.exec(r.stdout);
    perBin.push([took, `${b.name}: ${summary ? `${summary[2]} passed, ${summary[3]} failed, ${summary[4]} ignored` : `exit ${r.status}`}`]);
    for (const m of r.stdout.matchAll(/^test (\S+) \.\.\. (\w+) <([0-9.]+)s>/gm)) perTest.push([Number(m[3]), `${b.name.split(" ")[1]}::${m[1]} (${m[2]})`]);
  }
  perBin.sort((a, b) => b[0] - a[0]);
  perTest.sort((a, b) => b[0] - a[0]);
  table(`test binaries (${bins.length}, ${total.toFixed(1)} s in all)`, perBin);
  table(`slowest tests (of ${perTest.length})`, perTest);
}

/**
 * The test file that declares `name`: the file whose source holds the name's start (a name built
 * from a template matches on its literal start), else `previous` (node runs one file's tests
 * together).
 */
function fileOf(name, sources, previous) {
  // A name from a template (`${lang}: …`) is found by what follows its first placeholder's value.
  const tails = [name, name.replace(/^[^:]*: /, ""), name.replace(/^\S+ /, "")];
  for (const tail of tails) {
    for (const len of [60, 30, 15]) {
      const key = tail.slice(0, len);
      const hit = sources.find(([, text]) => text.includes(key));
      if (hit) return hit[0];
    }
  }
  return previous;
}

function tap(files) {
  // TAP from node --test: each test is a top-level "ok N - name" (or a file's entry, when the
  // reporter nests tests under their file), with duration_ms in its YAML block.
  const sources = [];
  for (const dir of ["scripts/e2e", "scripts/tests"]) {
    try {
      for (const f of readdirSync(resolve(ROOT, dir))) if (f.endsWith(".test.mjs")) sources.push([`${dir}/${f}`, readFileSync(resolve(ROOT, dir, f), "utf8")]);
    } catch {
      // no such folder
    }
  }
  const perFile = new Map();
  const perTest = [];
  let previous = "?";
  for (const f of files) {
    const lines = readFileSync(f, "utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const m = /^(\s*)(not ok|ok) \d+ - (.*)$/.exec(lines[i]);
      if (!m || m[1].length > 0) continue;
      let ms = NaN;
      for (let j = i + 1; j < Math.min(lines.length, i + 12); j++) {
        const d = /duration_ms: ([0-9.]+)/.exec(lines[j]);
        if (d) {
          ms = Number(d[1]);
          break;
        }
        if (/^\s*(not ok|ok) \d+ - /.test(lines[j])) break;
      }
      const name = m[3].replace(ROOT + "/", "");
      if (name.endsWith(".mjs")) {
        perFile.set(name, (perFile.get(name) ?? 0) + ms / 1000);
        continue;
      }
      const file = fileOf(name, sources, previous);
      previous = file;
      perFile.set(file, (perFile.get(file) ?? 0) + ms / 1000);
      perTest.push([ms / 1000, `${name} [${file.replace(/^.*\//, "")}]${m[2] === "ok" ? "" : " (FAILED)"}`]);
    }
  }
  const filesRanked = [...perFile].map(([f, t]) => [t, f]).sort((a, b) => b[0] - a[0]);
  perTest.sort((a, b) => b[0] - a[0]);
  const sum = filesRanked.reduce((s, [t]) => s + t, 0);
  table(`e2e files (${filesRanked.length}, ${sum.toFixed(1)} s in all)`, filesRanked);
  table(`slowest tests (of ${perTest.length})`, perTest);
}

if (mode === "cargo") cargo();
else if (mode === "tap") tap(args);
else {
  console.error("usage: node scripts/bench/test-times.mjs cargo [--top N] [-- ARGS] | tap [--top N] FILE…");
  process.exit(2);
}
