// The CI build cache's pruning (scripts/build-cache.mjs): an earlier clone's artifacts of this
// project's crates go, the third-party crates stay, whatever their names share with ours.
// Run: node --test scripts/tests/

import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { prune, profileDirs, workspaceNames } from "../build-cache.mjs";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const H = "0123456789abcdef";
const H2 = "fedcba9876543210";
// The shape of `cargo metadata --no-deps` for two packages, one with a test target named like the
// start of a dependency's name (gpu / gpu-allocator) and a bin with a dash.
const METADATA = {
  packages: [
    { name: "unroll", targets: [{ name: "unroll" }] },
    { name: "unroll-core", targets: [{ name: "unroll_core" }, { name: "train-names" }, { name: "gpu" }, { name: "build-script-build" }] },
  ],
};

function targetDir() {
  const dir = mkdtempSync(join(tmpdir(), "unroll-cache-"));
  const files = {
    "debug/.fingerprint": [`unroll-${H}`, `unroll-core-${H}`, `unroll-core-${H2}`, `gpu-allocator-${H}`, `wgpu-${H}`],
    "debug/build": [`unroll-core-${H}`, `gpu-allocator-${H}`, `wgpu-hal-${H}`],
    "debug/deps": [`libunroll_core-${H}.rlib`, `unroll_core-${H}.d`, `train_names-${H}`, `train_names-${H}.d`, `gpu-${H}`, `libgpu_allocator-${H}.rlib`, `libwgpu-${H}.rlib`, `build_script_build-${H}`],
    "debug/incremental/unroll_core-1abc": ["s-x"],
    "wasm32-unknown-unknown/release/deps": [`unroll-${H}.wasm`, `libleptos-${H}.rlib`],
    "wasm32-unknown-unknown/release/.fingerprint": [`unroll-${H}`, `leptos-${H}`],
    "release/deps": [`libserde_derive-${H}.so`],
    "wasm-bindgen/release": ["unroll.js"],
  };
  for (const [folder, names] of Object.entries(files)) {
    mkdirSync(join(dir, folder), { recursive: true });
    for (const n of names) writeFileSync(join(dir, folder, n), "");
  }
  return dir;
}

const left = (dir, folder) => readdirSync(join(dir, folder)).sort();

test("the workspace's package and target names, targets with _ for -, without build scripts", () => {
  const { packages, targets } = workspaceNames(METADATA);
  assert.deepEqual([...packages].sort(), ["unroll", "unroll-core"]);
  assert.deepEqual([...targets].sort(), ["gpu", "train_names", "unroll", "unroll_core"]);
});

test("the profile folders are those with deps/, host and per target triple", () => {
  const dir = targetDir();
  assert.deepEqual(profileDirs(dir).map((p) => p.slice(dir.length + 1)).sort(), ["debug", "release", "wasm32-unknown-unknown/release"]);
});

test("pruning removes the clones' own artifacts and keeps every third-party one", () => {
  const dir = targetDir();
  const removed = prune(dir, workspaceNames(METADATA));
  assert.equal(removed.length, 12);
  assert.deepEqual(left(dir, "debug/.fingerprint"), [`gpu-allocator-${H}`, `wgpu-${H}`]);
  assert.deepEqual(left(dir, "debug/build"), [`gpu-allocator-${H}`, `wgpu-hal-${H}`]);
  assert.deepEqual(left(dir, "debug/deps"), [`build_script_build-${H}`, `libgpu_allocator-${H}.rlib`, `libwgpu-${H}.rlib`]);
  assert.equal(existsSync(join(dir, "debug/incremental")), false);
  assert.deepEqual(left(dir, "wasm32-unknown-unknown/release/deps"), [`libleptos-${H}.rlib`]);
  assert.deepEqual(left(dir, "wasm32-unknown-unknown/release/.fingerprint"), [`leptos-${H}`]);
  assert.deepEqual(left(dir, "release/deps"), [`libserde_derive-${H}.so`]);
  assert.deepEqual(left(dir, "wasm-bindgen/release"), ["unroll.js"]);
  assert.equal(prune(dir, workspaceNames(METADATA)).length, 0, "a second pass finds nothing");
});

test("the command line reads cargo's metadata, prints the count, and refuses an empty workspace", () => {
  const dir = targetDir();
  const run = (input) => spawnSync(process.execPath, [join(ROOT, "scripts/build-cache.mjs"), dir], { input, encoding: "utf8" });
  const ok = run(JSON.stringify(METADATA));
  assert.equal(ok.status, 0, ok.stderr);
  assert.equal(ok.stdout.trim(), "12");
  const none = run(JSON.stringify({ packages: [] }));
  assert.equal(none.status, 1);
});
