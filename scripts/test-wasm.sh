#!/usr/bin/env bash
# Runs the wasm layer's tests (tests/wasm.rs) in headless Chromium through wasm-bindgen-test-runner
# (.cargo/config.toml makes it the wasm32 runner). Needs the wasm32 target, wasm-bindgen-cli with
# the pinned version (it provides wasm-bindgen-test-runner), chromium and chromedriver; see
# scripts/setup.sh. Release mode: a debug simulation is slow in the browser.
set -euo pipefail
cd "$(dirname "$0")/.."

export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver || echo /usr/bin/chromedriver)}"
export WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}"

for tool in wasm-bindgen-test-runner "$CHROMEDRIVER"; do
    if ! command -v "$tool" >/dev/null; then
        echo "test-wasm: $tool not found; run scripts/setup.sh" >&2
        exit 1
    fi
done

echo "== wasm tests in headless Chromium"
cargo test --target wasm32-unknown-unknown --release --test wasm "$@"
