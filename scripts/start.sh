#!/usr/bin/env bash
# Builds the web app and serves it on http://127.0.0.1:8080/ (PORT=... to change).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build-web.sh
exec node scripts/serve.mjs dist "${PORT:-8080}"
