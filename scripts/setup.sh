#!/usr/bin/env bash
# Installs what the build and tests need, skipping whatever is already present.
#   bash scripts/setup.sh            Rust wasm target, wasm-bindgen CLI, npm packages
#   bash scripts/setup.sh --browser  also what the tests need: Chromium and ChromeDriver (browser
#                                    tests), GNU Parallel (tests/sweeps_on_clusters.rs)
set -euo pipefail
cd "$(dirname "$0")/.."

WASM_BINDGEN_VERSION=0.2.100

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found; install Rust (https://rustup.rs) and re-run" >&2
  exit 1
fi
if command -v rustup >/dev/null 2>&1 && ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  echo "setup: adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $WASM_BINDGEN_VERSION" ]; then
  echo "setup: installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (a few minutes, once)"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --locked
fi
if ! command -v node >/dev/null 2>&1; then
  echo "setup: node not found; install Node.js 18 or newer and re-run" >&2
  exit 1
fi
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "setup: installing npm packages"
  npm ci --no-audit --no-fund
fi
if [ "${1:-}" = "--browser" ] && ! { command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; }; then
  echo "setup: installing Chromium and ChromeDriver"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends chromium chromium-driver
fi
# Debian's moreutils has another program called `parallel`; the test needs GNU's.
if [ "${1:-}" = "--browser" ] && ! parallel --version 2>/dev/null | grep -q "GNU parallel"; then
  echo "setup: installing GNU Parallel"
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends parallel
fi
