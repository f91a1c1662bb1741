#!/usr/bin/env bash
# Runs every test: formatting, native unit and integration tests, the wasm layer in
# headless Chromium, and the built page end to end. Ends with one "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
mkdir -p target
log=target/test-output.log
: > "$log"

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== native tests"
cargo test --release 2>&1 | tee -a "$log"

echo "== web build"
bash scripts/build-web.sh

if [ -f scripts/test-wasm.sh ]; then
  echo "== wasm layer in headless Chromium"
  bash scripts/test-wasm.sh 2>&1 | tee -a "$log"
fi

echo "== page end to end in headless Chromium"
# Flush the builds' pending disk writes first: writeback stalls the page's main thread,
# which the responsiveness test measures.
sync
node --test --test-concurrency=1 tests/e2e/ 2>&1 | tee -a "$log"

awk '/^test result:/ { p += $4; f += $6 }
     /^# pass / { p += $3 }
     /^# fail / { f += $3 }
     END { printf "tests: %d passed, %d failed\n", p, f }' "$log"
