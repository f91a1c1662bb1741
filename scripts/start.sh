#!/usr/bin/env bash
# Builds warpscope and runs the default demo: bfs on the MeDiC GTX 480 machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
cargo build --release --quiet
echo "== warpscope run --preset medic-gtx480 --kernel bfs --size small =="
./target/release/warpscope run --preset medic-gtx480 --kernel bfs --size small --format text
echo
echo "Try: ./target/release/warpscope run --kernel atax --set l1d.size_kb=64   (see README.md)"
