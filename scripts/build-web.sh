#!/usr/bin/env bash
# Builds the static web app into dist/: the simulator as wasm (release, wasm-opt),
# its wasm-bindgen glue, and the page bundled by webpack. Any static host can serve dist/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== wasm build"
cargo build --lib --target wasm32-unknown-unknown --profile web --quiet
wasm-bindgen --target web --out-dir pkg --out-name warpscope target/wasm32-unknown-unknown/web/warpscope.wasm
# --low-memory-unused: Rust puts the stack first (it grows down from 1 MiB, data above it), so
# nothing reads the lowest KiB and wasm-opt may fold pointer arithmetic into load offsets
# (13 KB smaller, the same code).
node_modules/.bin/wasm-opt -O3 --low-memory-unused --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
  --enable-mutable-globals --enable-reference-types --enable-multivalue \
  pkg/warpscope_bg.wasm -o pkg/warpscope_bg.wasm
echo "== bundle"
node_modules/.bin/webpack --mode production --stats errors-warnings
wasm=$(ls dist/*.wasm)
bytes=$(stat -c %s "$wasm")
echo "built dist/: $(basename "$wasm") $bytes bytes, $(gzip -9c "$wasm" | wc -c) gzipped"
# The page downloads this before anything works (and the service worker caches it): keep it small.
# 1.4 MiB (1.4 x 2^20 bytes): a shared sampling warming copies the whole machine, and the
# copy's code (about 50 KB) is what took the build past 1.3 MiB.
WASM_LIMIT=1468006
if [ "$bytes" -gt "$WASM_LIMIT" ]; then
  echo "build-web: $(basename "$wasm") is $bytes bytes, over the limit of $WASM_LIMIT bytes;" \
    "shrink it (dependencies, generics, the web profile in Cargo.toml)" >&2
  exit 1
fi
