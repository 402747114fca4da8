#!/usr/bin/env node
// The CI build cache's pruning (scripts/setup.sh, `unroll_build_cache`): a Cargo target folder
// kept between clean clones' runs holds the third-party crates, which every clone reuses, and the
// artifacts of each earlier clone's own crates, which no later clone can (their fingerprints hold
// the clone's path). This removes the latter before a build: in every profile folder
// (`debug`, `release`, `TRIPLE/debug`, `TRIPLE/release`), the entries of `.fingerprint/` and
// `build/` named PACKAGE-HASH, and of `deps/` named [lib]TARGET-HASH[.ext] (TARGET with `_` for
// `-`), for the workspace's packages and targets, and the `incremental/` folders (only the
// workspace's crates have one). HASH is Cargo's 16 hex digits; a third-party crate whose name
// merely starts with one of ours (`gpu-allocator` beside a test target `gpu`) is kept.
//
// Usage: cargo metadata --no-deps --format-version 1 | node scripts/build-cache.mjs TARGET_DIR
// Prints the number of entries removed; exits 1 when the metadata lists no package.

import { existsSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** The names to prune from `cargo metadata --no-deps` output: `{ packages, targets }`. */
export function workspaceNames(metadata) {
  const packages = new Set(metadata.packages.map((p) => p.name));
  const targets = new Set(
    metadata.packages.flatMap((p) => p.targets.filter((t) => t.name !== "build-script-build").map((t) => t.name.replace(/-/g, "_"))),
  );
  return { packages, targets };
}

/** The profile folders of a target folder: those with a `deps/` folder. */
export function profileDirs(targetDir) {
  const out = [];
  for (const a of readdirSync(targetDir)) {
    for (const b of ["", "debug", "release"]) {
      if (!b && a !== "debug" && a !== "release") continue;
      const p = join(targetDir, a, b);
      if (existsSync(join(p, "deps"))) out.push(p);
    }
  }
  return out;
}

const PACKAGE_ENTRY = /^(.+)-[0-9a-f]{16}$/;
const DEPS_ENTRY = /^(?:lib)?(.+)-[0-9a-f]{16}(?:\..*)?$/;

/** Removes the workspace's artifacts from `targetDir`; returns the entries removed. */
export function prune(targetDir, { packages, targets }) {
  const removed = [];
  const sweep = (folder, ours) => {
    if (!existsSync(folder)) return;
    for (const e of readdirSync(folder)) {
      if (!ours(e)) continue;
      rmSync(join(folder, e), { recursive: true, force: true });
      removed.push(join(folder, e));
    }
  };
  for (const p of profileDirs(targetDir)) {
    if (existsSync(join(p, "incremental"))) {
      rmSync(join(p, "incremental"), { recursive: true, force: true });
      removed.push(join(p, "incremental"));
    }
    const ofPackage = (e) => packages.has(PACKAGE_ENTRY.exec(e)?.[1]);
    sweep(join(p, ".fingerprint"), ofPackage);
    sweep(join(p, "build"), ofPackage);
    sweep(join(p, "deps"), (e) => targets.has(DEPS_ENTRY.exec(e)?.[1]));
  }
  return removed;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const names = workspaceNames(JSON.parse(readFileSync(0, "utf8")));
  if (!names.packages.size) process.exit(1);
  console.log(prune(process.argv[2], names).length);
}
