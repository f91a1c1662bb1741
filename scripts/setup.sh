#!/usr/bin/env bash
# Installs what the build and tests need, skipping whatever is already present.
set -euo pipefail

if ! command -v cargo >/dev/null 2>&1; then
  echo "setup: cargo not found; install Rust (https://rustup.rs) and re-run" >&2
  exit 1
fi
if command -v rustup >/dev/null 2>&1; then
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "setup: adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
fi
