// The e2e helper that writes a number as the app does (Rust's `{:.N}`), so that a test can find a
// measured figure in the page's text: exact ties round to the even digit, as Rust prints them
// (each expected string below is what `format!("{:.*}", digits, x)` prints with rustc 1.95).
// Run: node --test scripts/tests/

import { test } from "node:test";
import assert from "node:assert/strict";
import { rustFixed } from "../e2e/lib.mjs";

test("an exact tie rounds to the even digit, as Rust writes it", () => {
  assert.equal(rustFixed(8.25, 1), "8.2"); // toFixed: "8.3" (a backend notice's ms/step)
  assert.equal(rustFixed(537.75, 1), "537.8");
  assert.equal(rustFixed(0.125, 2), "0.12");
  assert.equal(rustFixed(0.0625, 3), "0.062");
  assert.equal(rustFixed(2.5, 0), "2");
  assert.equal(rustFixed(3.5, 0), "4");
  assert.equal(rustFixed(-8.25, 1), "-8.2");
  assert.equal(rustFixed(0.75, 1), "0.8");
});

test("a value that is not a tie comes out as toFixed writes it", () => {
  assert.equal(rustFixed(8.35, 1), "8.3"); // 8.3499… in binary
  assert.equal(rustFixed(9.95, 1), "9.9");
  assert.equal(rustFixed(12.3456, 2), "12.35");
  assert.equal(rustFixed(-0.30685, 4), "-0.3069");
  assert.equal(rustFixed(62.31, 1), "62.3");
});
