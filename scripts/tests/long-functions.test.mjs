// Tests of scripts/long-functions.mjs (the app's functions over 80 lines need a written reason)
// on small Rust sources, and the check itself on the app's sources (run: node --test scripts/tests/).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { blank, functions, longFunctions } from '../long-functions.mjs';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

test('braces in strings, chars, raw strings and comments do not count', () => {
  const src = [
    'fn a() {',
    '    let s = "}}}";',
    "    let c = '}';",
    '    let r = r#"{ "quoted" }"#;',
    '    // } a comment',
    '    /* } a block */',
    "    fn inner<'a>(x: &'a str) -> &'a str { x }",
    '}',
    'fn b() -> u32 { 1 }',
  ].join('\n');
  assert.equal(blank(src).length, src.length);
  const fns = functions(src);
  assert.deepEqual(fns.map((f) => [f.name, f.line, f.lines]), [['a', 1, 8], ['inner', 7, 1], ['b', 9, 1]]);
});

test('a declaration without a body is not a function', () => {
  const fns = functions('trait T {\n    fn f(&self);\n    fn g(&self) {}\n}\n');
  assert.deepEqual(fns.map((f) => f.name), ['g']);
});

test('the reason is the `// long:` line above the attributes and docs', () => {
  const body = Array.from({ length: 5 }, () => '    x();').join('\n');
  const src = `// long: one table, row by row\n/// Docs.\n#[component]\nfn page() {\n${body}\n}\nfn other() {\n${body}\n}\n`;
  const fns = functions(src);
  assert.equal(fns[0].reason, 'one table, row by row');
  assert.equal(fns[1].reason, null);
});

test('every app function over 80 lines says why', () => {
  const unexplained = longFunctions(path.join(ROOT, 'src'), 80)
    .filter((f) => !f.reason)
    .map((f) => `${f.file}:${f.line} ${f.name} (${f.lines} lines)`);
  assert.deepEqual(unexplained, []);
});
