#!/usr/bin/env node
// Counts the test suite's tests and assertions, suite by suite, so that a change to the suite's
// shape (tests merged, moved between files or binaries, set-up shared) can show that nothing it
// checked went unchecked.
//
// Usage: node scripts/count-assertions.mjs [--json] [--files]
//   --json    one JSON object instead of the table
//   --files   also one line per file (suite, tests, assertions, path)
//
// What counts, by language (code in comments, string literals and JS regex literals is not counted):
//   Rust     tests: `#[test]` (and `#[wasm_bindgen_test]`); assertions: the `assert…!` macros
//            (`assert!`, `assert_eq!`, `assert_ne!`, `assert_matches!`, …), `.expect(…)` /
//            `.expect_err(…)`, `panic!` and calls of the tests' own checkers (`assert_…(`,
//            `check_…(`), each counted once per place in the source. In `src/` only the
//            `#[cfg(test)]` items count; in a tests folder, every line.
//   JS       tests: `test(…)` / `it(…)`; assertions: `assert(…)`, `assert.<method>(…)` and the
//            page objects' `noErrors()` (scripts/e2e/pages.mjs).
//   Python   tests: `report(…)` (one reported check of the PyTorch suites); assertions:
//            `problems.append(…)`, `assert …`.
// Suites follow scripts/test.sh: cargo (core unit tests, core integration tests, the app's
// tests), node (scripts/tests), e2e (scripts/e2e: the test files, and the shared fixture and
// page objects, whose checks every test that uses them runs), python (core/tests/python), and
// the wasm-only tests (built for wasm32 only, not run by scripts/test.sh).

import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { blank as blankRust } from "./long-functions.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function walk(dir, keep, out = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries.sort()) {
    if (name === "node_modules" || name === "out" || name === "target") continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, keep, out);
    else if (keep(p)) out.push(p);
  }
  return out;
}

/**
 * `text` with comments and the insides of string (and JS regex) literals blanked (lengths and
 * line breaks kept): Rust through scripts/long-functions.mjs's `blank`; JS template literals
 * (without nesting into `${…}`) and Python's `#` comments and triple quotes here.
 */
export function stripCode(text, lang) {
  if (lang === "rs") return blankRust(text);
  let out = "";
  let i = 0;
  const n = text.length;
  const blank = (s) => s.replace(/[^\n]/g, " ");
  while (i < n) {
    const c = text[i];
    const rest2 = text.slice(i, i + 2);
    if ((lang === "js" && rest2 === "//") || (lang === "py" && c === "#")) {
      const end = text.indexOf("\n", i);
      const j = end < 0 ? n : end;
      out += blank(text.slice(i, j));
      i = j;
    } else if (lang === "js" && rest2 === "/*") {
      const end = text.indexOf("*/", i + 2);
      const j = end < 0 ? n : end + 2;
      out += blank(text.slice(i, j));
      i = j;
    } else if (lang === "js" && c === "/" && /[(,=:[!&|?{};]\s*$|^\s*$|\breturn\s*$/.test(out.slice(out.lastIndexOf("\n") + 1))) {
      // A regex literal (after an operator or at the start of a line): up to its closing `/`,
      // outside a character class.
      let j = i + 1;
      let inClass = false;
      while (j < n && text[j] !== "\n" && (text[j] !== "/" || inClass)) {
        if (text[j] === "\\") j++;
        else if (text[j] === "[") inClass = true;
        else if (text[j] === "]") inClass = false;
        j++;
      }
      out += "/" + blank(text.slice(i + 1, j)) + "/";
      i = j + 1;
    } else if (c === '"' || c === "'" || (c === "`" && lang === "js")) {
      if (lang === "py" && text.slice(i, i + 3) === c.repeat(3)) {
        const end = text.indexOf(c.repeat(3), i + 3);
        const j = end < 0 ? n : end + 3;
        out += c.repeat(3) + blank(text.slice(i + 3, j - 3)) + c.repeat(3);
        i = j;
        continue;
      }
      let j = i + 1;
      while (j < n && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      out += c + blank(text.slice(i + 1, j)) + c;
      i = j + 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

/** The parts of stripped Rust source `code` that only tests compile: each `#[cfg(test)]` item. */
function rustTestParts(code) {
  const parts = [];
  const re = /#\[cfg\(test\)\]/g;
  let m;
  while ((m = re.exec(code))) {
    // The item runs to the end of its first brace block (a module or a function), or to the `;`
    // of a declaration such as `#[cfg(test)] mod tests;` or a `use`.
    let i = m.index + m[0].length;
    while (i < code.length && code[i] !== "{" && code[i] !== ";") i++;
    if (code[i] === ";") {
      parts.push(code.slice(m.index, i + 1));
      re.lastIndex = i + 1;
      continue;
    }
    let depth = 0;
    let j = i;
    for (; j < code.length; j++) {
      if (code[j] === "{") depth++;
      else if (code[j] === "}" && --depth === 0) break;
    }
    parts.push(code.slice(m.index, j + 1));
    re.lastIndex = j + 1;
  }
  return parts.join("\n");
}

const COUNTERS = {
  rs: {
    tests: /#\[(?:test|wasm_bindgen_test)\]/g,
    assertions: [
      /\b(?:debug_)?assert(?:_[a-z_]+)?!/g, // assert!, assert_eq!, assert_ne!, assert_matches!, …
      /\.expect(?:_err)?\(/g,
      /\bpanic!/g,
      /(?<![.\w:!])(?:assert|check)_[a-z0-9_]+\s*(?:::<[^>]*>)?\(/g, // own checkers, not their definitions
    ],
  },
  js: {
    tests: /(?<![.\w])(?:test|it)\s*\(/g,
    // assert(…), assert.x(…), and the page objects' checks (`page.noErrors()`).
    assertions: [/(?<![.\w])assert\s*\(/g, /(?<![.\w])assert\.[a-zA-Z]+\s*\(/g, /\.noErrors\s*\(/g],
  },
  py: {
    tests: /(?<![.\w]|def )report\s*\(/g,
    assertions: [/\bproblems\.append\s*\(/g, /^\s*assert\s/gm],
  },
};

function count(text, re) {
  return (text.match(re) || []).length;
}

/** Rust checker definitions (`fn assert_close(`) are not calls of them. */
function withoutFnNames(code) {
  return code.replace(/\bfn\s+(assert|check)_/g, "fn _$1_");
}

function measure(file, lang, testsOnly) {
  let code = stripCode(readFileSync(file, "utf8"), lang);
  if (lang === "rs") {
    if (testsOnly) code = rustTestParts(code);
    code = withoutFnNames(code);
  }
  const c = COUNTERS[lang];
  return {
    tests: count(code, c.tests),
    assertions: c.assertions.reduce((s, re) => s + count(code, re), 0),
  };
}

const isRs = (p) => p.endsWith(".rs");
/** Rust test files that only wasm32 builds: a crate-level `#![cfg(target_arch = "wasm32")]`. */
const wasmOnly = (p) => /#!\[cfg\(target_arch\s*=\s*"wasm32"\)\]/.test(readFileSync(p, "utf8"));
/** A file in a tests folder (integration tests and their modules). */
const inTestsDir = (p) => /(^|\/)tests\//.test(relative(ROOT, p));

function suites() {
  const list = [];
  const add = (suite, file, lang, testsOnly) => list.push({ suite, file, ...measure(file, lang, testsOnly) });
  for (const f of walk(join(ROOT, "core", "src"), isRs)) add("cargo: core unit", f, "rs", true);
  for (const f of walk(join(ROOT, "core", "tests"), isRs)) add(wasmOnly(f) ? "wasm-only" : "cargo: core integration", f, "rs", false);
  for (const f of walk(join(ROOT, "core", "benches"), isRs)) add("cargo: core benches", f, "rs", false);
  for (const f of walk(join(ROOT, "src"), isRs)) add("cargo: app", f, "rs", !inTestsDir(f));
  for (const f of walk(join(ROOT, "tests"), isRs)) add(wasmOnly(f) ? "wasm-only" : "cargo: app", f, "rs", false);
  for (const f of walk(join(ROOT, "scripts", "tests"), (p) => p.endsWith(".mjs"))) add("node", f, "js", false);
  const e2e = walk(join(ROOT, "scripts", "e2e"), (p) => p.endsWith(".mjs") && !p.endsWith("-screenshots.mjs") && !p.endsWith("/screenshots.mjs"));
  for (const f of e2e) add(f.endsWith(".test.mjs") ? "e2e" : "e2e: shared", f, "js", false);
  for (const f of walk(join(ROOT, "core", "tests", "python"), (p) => /\/test_[^/]+\.py$/.test(p))) add("python", f, "py", false);
  return list.filter((r) => r.tests > 0 || r.assertions > 0);
}

const args = process.argv.slice(2);
const rows = suites();
const bySuite = new Map();
for (const r of rows) {
  const s = bySuite.get(r.suite) ?? { suite: r.suite, files: 0, tests: 0, assertions: 0 };
  s.files += 1;
  s.tests += r.tests;
  s.assertions += r.assertions;
  bySuite.set(r.suite, s);
}
const totals = [...bySuite.values()];
if (args.includes("--json")) {
  console.log(JSON.stringify({ suites: totals, files: args.includes("--files") ? rows.map((r) => ({ ...r, file: relative(ROOT, r.file) })) : undefined }, null, 2));
} else {
  if (args.includes("--files")) {
    for (const r of rows) console.log(`${r.suite.padEnd(24)} ${String(r.tests).padStart(4)} ${String(r.assertions).padStart(6)}  ${relative(ROOT, r.file)}`);
    console.log();
  }
  console.log(`${"suite".padEnd(24)} ${"files".padStart(5)} ${"tests".padStart(6)} ${"assertions".padStart(10)}`);
  for (const s of totals) console.log(`${s.suite.padEnd(24)} ${String(s.files).padStart(5)} ${String(s.tests).padStart(6)} ${String(s.assertions).padStart(10)}`);
  const all = totals.reduce((a, s) => ({ files: a.files + s.files, tests: a.tests + s.tests, assertions: a.assertions + s.assertions }), { files: 0, tests: 0, assertions: 0 });
  console.log(`${"total".padEnd(24)} ${String(all.files).padStart(5)} ${String(all.tests).padStart(6)} ${String(all.assertions).padStart(10)}`);
}
