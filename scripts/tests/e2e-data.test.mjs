// The end-to-end tests' small names data set (scripts/e2e/data/names): the committed files are
// exactly what scripts/e2e/data/make-names.mjs writes, the manifest lists each class file with
// its SHA-256 in the real data set's format, and the set has the real one's traits that the
// wiring tests see (unequal classes, repeated lines, accents, apostrophes) at a small size.
// Run: node --test scripts/tests/

import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { SMALL_NAMES_DIR, manifestOf, smallNames } from "../e2e/data/make-names.mjs";

const files = smallNames();

test("the committed small data set is the generator's output", () => {
  const committed = readdirSync(SMALL_NAMES_DIR).sort();
  assert.deepEqual(committed, [...files.keys(), "manifest.json"].sort());
  for (const [f, text] of files) assert.equal(readFileSync(join(SMALL_NAMES_DIR, f), "utf8"), text, f);
  assert.equal(readFileSync(join(SMALL_NAMES_DIR, "manifest.json"), "utf8"), manifestOf(files));
});

test("its manifest has the real data set's format, each file's SHA-256 and the classes in order", () => {
  const manifest = JSON.parse(readFileSync(join(SMALL_NAMES_DIR, "manifest.json"), "utf8"));
  assert.equal(manifest.version, 1);
  const real = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "www", "data", "names", "manifest.json"), "utf8").toString());
  assert.deepEqual(Object.keys(manifest.files[0]).sort(), Object.keys(real.files[0]).sort());
  const classes = manifest.files.map((e) => e.class);
  assert.deepEqual(classes, [...classes].sort());
  for (const e of manifest.files) {
    assert.equal(e.file, `${e.class}.txt`);
    assert.ok(real.files.some((r) => r.class === e.class), `${e.class} is one of the real classes`);
    const bytes = readFileSync(join(SMALL_NAMES_DIR, e.file));
    assert.equal(e.sha256, createHash("sha256").update(bytes).digest("hex"), e.file);
  }
});

test("it is small and has the real data's traits: unequal classes, repeats, accents, apostrophes", () => {
  const lines = [...files.values()].map((t) => t.split("\n").slice(0, -1));
  const sizes = lines.map((l) => l.length);
  const total = sizes.reduce((a, b) => a + b, 0);
  assert.equal(files.size, 6);
  assert.equal(total, 380);
  assert.equal(Math.max(...sizes), sizes[0], "Arabic is the majority class");
  assert.ok(new Set(sizes).size > 1, "classes of unequal size");
  const distinct = lines.reduce((n, l) => n + new Set(l).size, 0);
  assert.ok(distinct < total, `repeated lines: ${distinct} distinct of ${total}`);
  const all = lines.flat();
  assert.ok(all.some((n) => /[^\x00-\x7f]/.test(n)), "a name with an accent");
  assert.ok(all.some((n) => n.includes("'")), "a name with an apostrophe");
  assert.ok(all.every((n) => n.trim() === n && n.length > 0), "no blank or padded line");
});
