#!/usr/bin/env bash
# Installs what is missing (wasm32 target, trunk, wasm-bindgen CLI, npm tools, the names data),
# then builds Unroll and serves it at http://127.0.0.1:${PORT:-8080}/
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
unroll_setup_build
cd "$UNROLL_ROOT"
PORT="${PORT:-8080}"
# trunk serve refuses to start when a [watch] ignore path in Trunk.toml does not exist
# (a fresh clone has no scripts/e2e/out or dist yet).
mkdir -p scripts/e2e/out dist
log "once the build below finishes, open http://127.0.0.1:$PORT/?v=1&lesson=names to train the name classifier,"
log "or http://127.0.0.1:$PORT/ for the lessons (Ctrl-C stops the server)"
exec trunk serve --release --skip-version-check --address 127.0.0.1 --port "$PORT"
