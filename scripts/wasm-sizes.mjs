#!/usr/bin/env node
// Where the bytes of a wasm module go (a report): code bytes per crate, from the function names
// of the module's `name` section, plus the data section and the rest; then the app's own code
// (the `unroll` crate) by module, two levels deep (`unroll::names::lab`), and the largest
// families of functions: one generic function's monomorphised copies (the same path, any hash,
// e.g. `tachys::view::tuples::<impl Render for (A, B, C)>::build`), with their count. Code that
// the optimiser inlined is counted in the function it was inlined into. Use it on the module
// cargo writes before wasm-bindgen and wasm-opt strip the names:
//
//   node scripts/wasm-sizes.mjs $CARGO_TARGET_DIR/wasm32-unknown-unknown/release/unroll.wasm [--top 20]
//
// Rust's legacy mangling (`_ZN4wgpu4core…`) and demangled names (`wgpu::core::…`,
// `<alloc::vec::Vec<T> as core::fmt::Debug>::fmt`) are both attributed to their first path
// segment (`<T as …>` to "(generic impls)"); wasm-bindgen's `__wbindgen_describe_*` functions
// are removed by wasm-bindgen itself.

import { readFileSync } from "node:fs";

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith("--"));
if (!file) {
  console.error("usage: node scripts/wasm-sizes.mjs MODULE.wasm [--top N]");
  process.exit(2);
}
const topIdx = args.indexOf("--top");
const TOP = topIdx >= 0 ? Number(args[topIdx + 1]) : 20;
const buf = readFileSync(file);

let pos = 8;
function leb() {
  let result = 0;
  let shift = 0;
  for (;;) {
    const b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
    if (!(b & 0x80)) return result;
  }
}
function name() {
  const n = leb();
  const s = buf.subarray(pos, pos + n).toString("utf8");
  pos += n;
  return s;
}
function limits() {
  const flag = buf[pos++];
  leb();
  if (flag & 1) leb();
}

const sections = new Map();
let importedFuncs = 0;
const bodySizes = [];
const names = new Map();
while (pos < buf.length) {
  const id = buf[pos++];
  const size = leb();
  const start = pos;
  const end = pos + size;
  let label = ["custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount", "tag"][id] ?? `id${id}`;
  if (id === 0) {
    const custom = name();
    label = `custom:${custom}`;
    if (custom === "name") {
      while (pos < end) {
        const sub = buf[pos++];
        const subSize = leb();
        const subEnd = pos + subSize;
        if (sub === 1) {
          const count = leb();
          for (let i = 0; i < count; i++) {
            const idx = leb();
            names.set(idx, name());
          }
        }
        pos = subEnd;
      }
    }
  } else if (id === 2) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      name();
      name();
      const kind = buf[pos++];
      if (kind === 0) {
        leb();
        importedFuncs++;
      } else if (kind === 1) {
        pos++;
        limits();
      } else if (kind === 2) limits();
      else if (kind === 3) pos += 2;
      else if (kind === 4) {
        pos++;
        leb();
      }
    }
  } else if (id === 10) {
    const count = leb();
    for (let i = 0; i < count; i++) {
      const n = leb();
      bodySizes.push(n);
      pos += n;
    }
  }
  sections.set(label, (sections.get(label) ?? 0) + (end - start));
  pos = end;
}

/** The crate a (mangled or demangled) Rust symbol belongs to. */
function crateOf(sym) {
  if (!sym) return "(unnamed)";
  let s = sym;
  if (s.startsWith("_ZN")) {
    const m = /^_ZN(\d+)/.exec(s);
    const len = Number(m[1]);
    s = s.slice(m[0].length, m[0].length + len);
    if (s.startsWith("_$LT$")) s = s.slice(5);
    s = s.replace(/\$.*$/, "").split("..")[0];
    if (/^[A-Z]$/.test(s)) return "(generic impls)";
    return s || "(unnamed)";
  }
  s = s.replace(/^[<&*\s]+/, "").replace(/^(dyn|impl|mut|const)\s+/, "");
  const m = /^([A-Za-z_][A-Za-z0-9_]*)::/.exec(s);
  if (m && /^[A-Z]$/.test(m[1])) return "(generic impls)";
  if (/^_R/.test(s)) return "(v0-mangled)";
  return m ? m[1] : /^[A-Za-z_]/.test(s) ? "(no path: " + s.split(/[^A-Za-z0-9_]/)[0].slice(0, 20) + ")" : "(unnamed)";
}

/** The path segments of a legacy-mangled symbol (`_ZN6unroll5names…17h…E`), hash dropped. */
function segments(sym) {
  if (!sym || !sym.startsWith("_ZN")) return null;
  const out = [];
  let i = 3;
  while (i < sym.length && sym[i] !== "E") {
    const m = /^\d+/.exec(sym.slice(i));
    if (!m) return null;
    const len = Number(m[0]);
    i += m[0].length;
    out.push(sym.slice(i, i + len));
    i += len;
  }
  if (out.length && /^h[0-9a-f]{16}$/.test(out.at(-1))) out.pop();
  return out.map(unescape);
}
const ESCAPES = { SP: "@", BP: "*", RF: "&", LT: "<", GT: ">", LP: "(", RP: ")", C: "," };
/** `$LT$impl$u20$…` → `<impl …`, `..` → `::`. */
function unescape(seg) {
  return seg
    .replace(/^_(?=\$)/, "")
    .replace(/\$(SP|BP|RF|LT|GT|LP|RP|C|u[0-9a-f]+)\$/g, (_, e) =>
      e.startsWith("u") ? String.fromCodePoint(parseInt(e.slice(1), 16)) : ESCAPES[e],
    )
    .replaceAll("..", "::");
}

const byCrate = new Map();
const byModule = new Map();
const families = new Map();
bodySizes.forEach((n, i) => {
  const sym = names.get(importedFuncs + i);
  const c = crateOf(sym);
  byCrate.set(c, (byCrate.get(c) ?? 0) + n);
  const segs = segments(sym);
  if (segs && segs[0] === "unroll") {
    // Modules only: a lower-case segment that is not the function's own name (the last).
    const mods = segs.slice(1, -1).filter((s) => /^[a-z_][a-z0-9_]*$/.test(s) && !s.startsWith("__"));
    const key = ["unroll", ...mods.slice(0, 2)].join("::");
    byModule.set(key, (byModule.get(key) ?? 0) + n);
  }
  const family = segs ? segs.join("::") : (sym ?? "(unnamed)").replace(/::h[0-9a-f]{16}$/, "");
  const f = families.get(family) ?? { bytes: 0, count: 0 };
  f.bytes += n;
  f.count += 1;
  families.set(family, f);
});
const total = buf.length;
const code = bodySizes.reduce((a, b) => a + b, 0);
const pct = (n) => ((100 * n) / total).toFixed(1).padStart(5) + " %";
const kib = (n) => (n / 1024).toFixed(0).padStart(7) + " KiB";
console.log(`${file}: ${kib(total)} total, ${bodySizes.length} functions (${names.size} named), code ${kib(code)}`);
console.log("sections:");
for (const [label, n] of [...sections].sort((a, b) => b[1] - a[1])) console.log(`  ${label.padEnd(24)} ${kib(n)} ${pct(n)}`);
console.log(`code by crate (top ${TOP}):`);
for (const [c, n] of [...byCrate].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${c.padEnd(24)} ${kib(n)} ${pct(n)}`);
console.log(`the app's code (unroll) by module (top ${TOP}):`);
for (const [m, n] of [...byModule].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`  ${m.padEnd(24)} ${kib(n)} ${pct(n)}`);
console.log(`largest function families (top ${TOP}; copies of one generic function):`);
for (const [f, { bytes, count }] of [...families].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, TOP)) {
  const label = f.length > 90 ? f.slice(0, 87) + "..." : f;
  console.log(`  ${kib(bytes)} ${String(count).padStart(5)}× ${label}`);
}
