#!/usr/bin/env node
// Lists the Rust functions of a source tree that run past a length limit (default: the app's
// functions over 80 lines), so a page's component stays small enough to read at once.
//
//   node scripts/long-functions.mjs [DIR] [--max N] [--check]
//
// A function may be longer when the line right above it (or above its attributes) says why:
//   // long: <the reason>
// With --check it exits with 1 when a function over the limit has no such reason, and prints
// them; without it, it prints every function over the limit, with its reason if it has one.
// Lengths count every line from `fn` to the closing brace, comments and blank lines included.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Every `.rs` file under `dir`, sorted. */
export function rustFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...rustFiles(path));
    else if (name.endsWith(".rs")) out.push(path);
  }
  return out;
}

/**
 * The source with comments, string and char literals blanked (same length, newlines kept), so
 * braces can be counted. Raw strings (`r#"…"#`) and byte strings are handled; a lifetime `'a`
 * is not a char literal.
 */
export function blank(src) {
  let out = "";
  let i = 0;
  const n = src.length;
  const keep = (s) => s.replace(/[^\n]/g, " ");
  while (i < n) {
    const c = src[i];
    const next = src[i + 1];
    if (c === "/" && next === "/") {
      const end = src.indexOf("\n", i);
      const j = end < 0 ? n : end;
      out += keep(src.slice(i, j));
      i = j;
    } else if (c === "/" && next === "*") {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (src[j] === "/" && src[j + 1] === "*") { depth++; j += 2; }
        else if (src[j] === "*" && src[j + 1] === "/") { depth--; j += 2; }
        else j++;
      }
      out += keep(src.slice(i, j));
      i = j;
    } else if ((c === "r" || (c === "b" && next === "r")) && /^b?r#*"/.test(src.slice(i, i + 40)) && !/[A-Za-z0-9_]/.test(src[i - 1] ?? "")) {
      const m = /^b?r(#*)"/.exec(src.slice(i));
      const close = '"' + m[1];
      const j = src.indexOf(close, i + m[0].length);
      const end = j < 0 ? n : j + close.length;
      out += keep(src.slice(i, end));
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && src[j] !== '"') j += src[j] === "\\" ? 2 : 1;
      out += keep(src.slice(i, j + 1));
      i = j + 1;
    } else if (c === "'") {
      // A char literal ('x', '\n', '\u{..}', '{') or a lifetime ('a).
      const m = /^'(\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'/.exec(src.slice(i, i + 12));
      if (m) {
        out += keep(m[0]);
        i += m[0].length;
      } else {
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** `{ name, line, lines, reason }` for every function with a body in `src`. */
export function functions(src) {
  const clean = blank(src);
  const lines = src.split("\n");
  const lineOf = (offset) => clean.slice(0, offset).split("\n").length;
  const found = [];
  const re = /\bfn\s+([A-Za-z_][A-Za-z0-9_]*)/g;
  let m;
  while ((m = re.exec(clean))) {
    // The body starts at the first `{` after the signature, unless a `;` comes first (a
    // declaration without a body, in a trait or an extern block).
    let j = m.index + m[0].length;
    let depthParen = 0;
    while (j < clean.length) {
      const ch = clean[j];
      if (ch === "(" || ch === "<" || ch === "[") depthParen++;
      else if (ch === ")" || ch === ">" || ch === "]") depthParen = Math.max(0, depthParen - 1);
      else if (ch === ";" && depthParen === 0) break;
      else if (ch === "{" && depthParen === 0) break;
      j++;
    }
    if (clean[j] !== "{") continue;
    let depth = 0;
    let k = j;
    for (; k < clean.length; k++) {
      if (clean[k] === "{") depth++;
      else if (clean[k] === "}" && --depth === 0) break;
    }
    const start = lineOf(m.index);
    const end = lineOf(k);
    // The reason: a `// long:` line directly above the fn, above its attributes and doc lines.
    let reason = null;
    for (let l = start - 2; l >= 0; l--) {
      const text = lines[l].trim();
      const r = /^\/\/\s*long:\s*(.+)$/.exec(text);
      if (r) { reason = r[1]; break; }
      if (!(text.startsWith("#[") || text.startsWith("///") || text.startsWith("//"))) break;
    }
    found.push({ name: m[1], line: start, lines: end - start + 1, reason });
  }
  return found;
}

/** Every function over `max` lines in the `.rs` files under `dir`. */
export function longFunctions(dir, max) {
  const out = [];
  for (const file of rustFiles(dir)) {
    for (const f of functions(readFileSync(file, "utf8"))) {
      if (f.lines > max) out.push({ file: relative(ROOT, file), ...f });
    }
  }
  return out.sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const check = args.includes("--check");
  const maxAt = args.indexOf("--max");
  const max = maxAt >= 0 ? Number(args[maxAt + 1]) : 80;
  const dir = args.find((a, i) => !a.startsWith("--") && args[i - 1] !== "--max") ?? join(ROOT, "src");
  const long = longFunctions(dir, max);
  const unexplained = long.filter((f) => !f.reason);
  for (const f of check ? unexplained : long) {
    console.log(`${String(f.lines).padStart(4)}  ${f.file}:${f.line}  ${f.name}${f.reason ? `  (long: ${f.reason})` : ""}`);
  }
  console.log(`${long.length} function(s) over ${max} lines, ${unexplained.length} without a reason`);
  if (check && unexplained.length > 0) process.exit(1);
}
