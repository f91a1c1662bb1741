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
mkdir -p target
cargo test --release 2>&1 | tee target/test-output.log
awk '/^test result:/ { p += $4; f += $6 } END { printf "tests: %d passed, %d failed\n", p, f }' target/test-output.log
