#!/usr/bin/env bash
# Installs what Unroll's build needs and is missing; skips whatever is already present at the
# right version. Sourced by scripts/serve.sh and scripts/test.sh (not meant to be run alone).
#
#   unroll_setup_build   wasm32 target, trunk 0.21.14, wasm-bindgen CLI = Cargo.lock's version,
#                        npm tools (binaryen 132 for wasm-opt, playwright-core, axe-core), the names data
#   unroll_setup_test    + Chromium, chromedriver, Mesa's Vulkan driver (lavapipe), CJK fonts
#   unroll_build_cache   under CI=true only: the compiled third-party crates kept between runs
set -euo pipefail

UNROLL_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
TRUNK_VERSION="0.21.14"
export PATH="$HOME/.cargo/bin:$UNROLL_ROOT/node_modules/.bin:$PATH"

log() { printf '\033[1m[setup]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[31m[setup] error:\033[0m %s\n' "$*" >&2; exit 1; }

need_cmd() { command -v "$1" >/dev/null 2>&1 || die "$1 is required: $2"; }

# The wasm-bindgen version pinned in Cargo.lock (the CLI must be exactly this version).
wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$UNROLL_ROOT/Cargo.lock"
}

unroll_setup_build() {
  need_cmd cargo "install Rust with rustup (https://rustup.rs)"
  need_cmd node "install Node.js 20 or newer"
  need_cmd npm "install npm (comes with Node.js)"
  cd "$UNROLL_ROOT"

  if command -v rustup >/dev/null 2>&1; then
    if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
      log "adding the wasm32-unknown-unknown target"
      rustup target add wasm32-unknown-unknown
    fi
  fi

  # Both tools are built unoptimised or nearly (no LTO, 16 codegen units) and without their
  # default features: they drive cargo and wasm-opt and rewrite one module, so their own speed is
  # a second of a build, while building them optimised is minutes of a new machine's set-up
  # (docs/testing.md, "Installing trunk and the wasm-bindgen CLI": the same dist/ either way).
  local quick=(CARGO_PROFILE_RELEASE_LTO=off CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16)
  if [ "$(trunk --version 2>/dev/null | awk '{print $2}')" != "$TRUNK_VERSION" ]; then
    # Its default features are TLS for downloading tools (Trunk.toml says `offline = true`) and
    # the update check.
    log "installing trunk $TRUNK_VERSION (about 2 minutes on 2 cores, once)"
    env "${quick[@]}" CARGO_PROFILE_RELEASE_OPT_LEVEL=0 \
      cargo install --locked --no-default-features "trunk@$TRUNK_VERSION"
  fi

  local wb; wb="$(wasm_bindgen_version)"
  [ -n "$wb" ] || die "could not read the wasm-bindgen version from Cargo.lock"
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb" ]; then
    # Without --locked: the registry here lacks a locked transitive version (see docs). Without
    # its default feature (TLS for its test runner's WebDriver client, which talks to a local
    # driver or, for the web tests here, runs Node.js).
    log "installing wasm-bindgen-cli $wb (about 80 s, once)"
    env "${quick[@]}" CARGO_PROFILE_RELEASE_OPT_LEVEL=1 \
      cargo install --no-default-features wasm-bindgen-cli --version "$wb"
  fi

  if [ ! -x node_modules/.bin/wasm-opt ] || [ ! -d node_modules/playwright-core ] || [ ! -f node_modules/axe-core/axe.min.js ]; then
    log "installing npm tools (binaryen, playwright-core, axe-core)"
    npm ci --no-audit --no-fund --loglevel=error
  fi
  if [ ! -d scripts/node_modules ]; then
    (cd scripts && npm ci --no-audit --no-fund --loglevel=error)
  fi

  node scripts/fetch-data.mjs
}

unroll_setup_test() {
  unroll_setup_build
  local pkgs=() 
  command -v chromium >/dev/null 2>&1 || pkgs+=(chromium)
  command -v chromedriver >/dev/null 2>&1 || pkgs+=(chromium-driver)
  ls /usr/share/vulkan/icd.d/lvp_icd*.json >/dev/null 2>&1 || pkgs+=(mesa-vulkan-drivers libvulkan1)
  # grep reads all of fc-list's output: with -q it would stop at the first match, fc-list
  # would die of SIGPIPE, and under pipefail the fonts would count as missing.
  fc-list : family 2>/dev/null | grep -i "Noto Sans CJK" >/dev/null || pkgs+=(fonts-noto-cjk)
  if [ ${#pkgs[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      log "installing ${pkgs[*]} with apt-get"
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${pkgs[@]}" >/dev/null
    else
      die "missing system packages: ${pkgs[*]}. Install them (Debian/Ubuntu: sudo apt-get install ${pkgs[*]}) and run again."
    fi
  fi
}

# Under CI (CI=true), a clean clone's build keeps the compiled third-party crates of earlier runs
# on this machine: CARGO_TARGET_DIR is a folder outside the clone (UNROLL_BUILD_CACHE, default
# ~/.cache/unroll/target; UNROLL_BUILD_CACHE=off builds in the clone's target/ as before). Cargo
# reuses a crate only where its fingerprint matches (its version and source, the compiler,
# profile, flags and features), so what is built is what a cold build makes; this project's own
# crates are always compiled from the clone (their fingerprints hold the clone's path), and the
# artifacts of earlier clones' builds of them are removed first, so the folder holds the
# dependencies and one run's own crates. A folder over UNROLL_BUILD_CACHE_MAX_MB (default 12,000:
# a toolchain or dependency update leaves the old artifacts behind) is emptied. One run at a time
# uses it (a lock; a second run at the same time builds in its own clone). Measured in
# docs/testing.md ("The build cache"). No-op where CARGO_TARGET_DIR is already set.
unroll_build_cache() {
  [ "${CI:-}" = true ] && [ -z "${CARGO_TARGET_DIR:-}" ] || return 0
  local dir="${UNROLL_BUILD_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/unroll/target}"
  [ "$dir" != off ] || return 0
  command -v flock >/dev/null 2>&1 || { log "build cache: flock not found; building in the clone"; return 0; }
  mkdir -p "$dir" || { log "build cache: cannot create $dir; building in the clone"; return 0; }
  exec 9>"$dir.lock"
  if ! flock -n 9; then
    log "build cache: $dir is in use by another run; building in the clone"
    exec 9>&-
    return 0
  fi
  local max="${UNROLL_BUILD_CACHE_MAX_MB:-12000}" mb
  mb=$(du -sm "$dir" 2>/dev/null | awk '{print $1}')
  if [ "${mb:-0}" -gt "$max" ]; then
    log "build cache: $dir holds ${mb} MB (over ${max}); emptying it"
    rm -rf "$dir" && mkdir -p "$dir"
  fi
  # The earlier clones' artifacts of this project's own crates go (scripts/build-cache.mjs).
  local removed
  if ! removed=$(cd "$UNROLL_ROOT" && cargo metadata --no-deps --format-version 1 --offline 2>/dev/null | node scripts/build-cache.mjs "$dir"); then
    log "build cache: could not list the workspace's crates; building in the clone"
    exec 9>&-
    return 0
  fi
  export CARGO_TARGET_DIR="$dir" CARGO_INCREMENTAL=0
  if [ -d "$dir/debug/deps" ] || [ -d "$dir/wasm32-unknown-unknown" ]; then
    log "build cache: CARGO_TARGET_DIR=$dir (${mb:-0} MB; $removed artifacts of earlier clones removed)"
  else
    log "build cache: CARGO_TARGET_DIR=$dir (empty: this run builds every crate and keeps them)"
  fi
}
