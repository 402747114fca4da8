#!/usr/bin/env node
// The end-to-end tests' small names data set: six classes, 380 lines of made-up names, in the
// format of the real one (one `<Class>.txt` per class, one name per line, UTF-8, and the
// manifest.json that scripts/fetch-data.mjs writes). The tests that check wiring (notices,
// buttons, languages, storage, navigation, export, embed) load it instead of the 20,074 real
// names (the fixture serves it at the data's URL, `data/names/`); the tests that check learning
// keep the real data.
//
// The names are generated, not sampled (the real data set is not committed): each class draws
// syllables from its own inventory with a seeded generator, so the classes are told apart by
// their letters as the real ones are, and a few epochs of a small model learn them. Like the
// real data, the classes differ in size (the majority class is Arabic), some lines repeat within
// a class (raw lines > distinct pairs), a few names carry accents that the loader's NFD
// normalisation strips (Müller → Muller) and the Irish ones an apostrophe.
//
// Usage: node scripts/e2e/data/make-names.mjs [OUT]   (OUT defaults to scripts/e2e/data/names)
// The output is the same on every run; scripts/tests/e2e-data.test.mjs checks that the
// committed copy is what this writes.

import { createHash } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { manifestText } from "../../fetch-data.mjs";

export const SMALL_NAMES_DIR = join(dirname(fileURLToPath(import.meta.url)), "names");

/** Per class: lines, how many of them repeat an earlier line, and the syllables names are made of. */
const CLASSES = [
  { class: "Arabic", lines: 100, repeats: 20, first: ["Ab", "Ha", "Kh", "Na", "Sa", "Ma", "Ba", "Ta"], more: ["dad", "lil", "ssan", "mir", "had", "rah", "bary", "kour", "sim", "zar"], parts: [1, 2] },
  { class: "Chinese", lines: 80, repeats: 4, first: ["Zh", "W", "L", "Ch", "X", "H", "Q", "Y", "J", "G", "T", "S", "D", "F"], more: ["ang", "ao", "iu", "en", "ong", "ui", "ian", "eng", "u"], parts: [1, 1] },
  { class: "English", lines: 70, repeats: 2, first: ["Ash", "Brad", "Cart", "Whit", "Thorn", "Pem", "Hart", "Wood"], more: ["ley", "ton", "wood", "field", "er", "worth", "ham", "by"], parts: [1, 2] },
  { class: "German", lines: 60, repeats: 2, first: ["Sch", "Kr", "Müll", "Bä", "Schw", "Hö", "Str", "Wa"], more: ["midt", "auss", "er", "ecker", "ner", "mann", "berg", "feld", "lein"], parts: [1, 2] },
  { class: "Irish", lines: 40, repeats: 1, first: ["O'", "Mac", "Mc", "Fitz"], more: ["Brien", "Connor", "Neill", "Sullivan", "Donnell", "Carthy", "Gowan", "Shea", "Ryan", "Gerald", "Kenna", "Grath", "Bride", "Hugh"], parts: [1, 1] },
  { class: "Japanese", lines: 30, repeats: 1, first: ["Ka", "Ta", "Na", "Mo", "Sa", "Yo", "Fu", "Hi"], more: ["mura", "naka", "shita", "moto", "da", "kawa", "yama", "saki", "no"], parts: [1, 2] },
];

/** mulberry32: a small seeded generator (the output must not depend on the platform). */
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Map(file name -> text) of the small data set, in class order. */
export function smallNames() {
  const files = new Map();
  CLASSES.forEach((c, k) => {
    const rnd = generator(1000 + k);
    const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
    const distinct = [];
    const seen = new Set();
    const possible = c.first.length * c.more.length ** c.parts[1];
    if (possible < 1.3 * (c.lines - c.repeats)) throw new Error(`${c.class}: too few syllables for ${c.lines} names`);
    while (distinct.length < c.lines - c.repeats) {
      const n = c.parts[0] + Math.floor(rnd() * (c.parts[1] - c.parts[0] + 1));
      let name = pick(c.first);
      for (let i = 0; i < n; i++) name += pick(c.more);
      if (!seen.has(name)) {
        seen.add(name);
        distinct.push(name);
      }
    }
    const lines = [...distinct];
    for (let i = 0; i < c.repeats; i++) lines.splice(Math.floor(rnd() * (lines.length + 1)), 0, pick(distinct));
    files.set(`${c.class}.txt`, lines.join("\n") + "\n");
  });
  return files;
}

/** The manifest of `files` (Map file name -> text), as scripts/fetch-data.mjs writes it. */
export function manifestOf(files) {
  const sha = (t) => createHash("sha256").update(Buffer.from(t, "utf8")).digest("hex");
  return manifestText(new Map([...files].map(([f, t]) => [f, sha(t)])));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(process.argv[2] || SMALL_NAMES_DIR);
  const files = smallNames();
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const [f, t] of files) writeFileSync(join(out, f), t);
  writeFileSync(join(out, "manifest.json"), manifestOf(files));
  const lines = [...files.values()].reduce((n, t) => n + t.split("\n").length - 1, 0);
  console.log(`make-names: ${files.size} classes, ${lines} lines to ${out}`);
}
