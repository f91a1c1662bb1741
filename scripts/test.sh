#!/usr/bin/env bash
# Runs every test: formatting, the native unit and integration tests, and the wasm32 build.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== wasm32 build of the core"
cargo build --lib --target wasm32-unknown-unknown --release --quiet
echo "== cargo test"
cargo test --release
