// End-to-end test of the built-in data set's path through the page, on the fixture's small
// test data set: the page fetches the manifest and every class file it lists, and its data panel
// counts exactly what was served (classes in the manifest's order, raw lines, distinct names per
// class, the split of those into training and validation), in English and Chinese.
//
// Run: `UNROLL_E2E_SKIP_BUILD=1 node --test scripts/e2e/data.test.mjs`.

import { test } from "node:test";
import assert from "node:assert/strict";
import { e2e } from "./fixture.mjs";

const app = e2e();

test("the data panel counts the data set that was served: classes, lines, distinct names, split", async () => {
  const page = await app.names("?v=1&lesson=names&backend=cpu");
  await page.dataReady();
  const { classes, names, lines } = app.data;
  assert.equal(await page.num("data-classes"), classes.length);
  assert.equal(await page.num("data-raw-lines"), lines);
  // A name repeated within a class counts once (the generated names need no normalisation to
  // tell them apart: no two differ only by an accent).
  const distinct = classes.reduce((n, c) => n + new Set(names[c]).size, 0);
  assert.ok(distinct < lines, "the set has repeated lines");
  assert.equal(await page.num("data-pairs"), distinct);
  assert.equal((await page.num("data-train")) + (await page.num("data-val")), distinct);
  // The per-class table: one row per class, in the manifest's order, with its validation names.
  const rows = await page.perClass();
  assert.deepEqual(rows.map((r) => r.label), classes);
  assert.equal(rows.reduce((n, r) => n + r.val, 0), await page.num("data-val"));
  // The lede and the data note speak of the classes served, in both languages.
  assert.match(await page.text("lede"), new RegExp(`among ${classes.length}\\.`));
  assert.match(await page.text("data-note"), new RegExp(`${classes.length} language files`));
  await page.setLang("zh");
  assert.match(await page.text("lede"), new RegExp(`在 ${classes.length} 种语言中`));
  page.noErrors();
});
