#!/usr/bin/env bash
# Checks that docs/contributing.md is true: copies the tracked tree (with uncommitted edits) to
# a temporary directory, applies every step the page marks with a `check:` comment, and runs
# `cargo check --all-targets` there. A step whose anchor line is missing fails the check.
#   bash scripts/check-contributing.sh [--keep]
# CARGO_TARGET_DIR defaults to target/check-contributing here, so later runs are incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
keep=${1:-}
root=$(pwd)
tmp=$(mktemp -d)
[ "$keep" = "--keep" ] && echo "tree kept in $tmp" >&2 || trap 'rm -rf "$tmp"' EXIT
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$tmp"

python3 - "$tmp" docs/contributing.md <<'PY'
import re, sys
root, doc = sys.argv[1], open(sys.argv[2]).read()
# A step: <!-- check: new PATH --> or <!-- check: after|before PATH "TEXT" -->, then a fence.
step = re.compile(r'<!-- check: (new|after|before) (\S+)(?: "((?:[^"\\]|\\.)*)")? -->\s*```\w*\n(.*?)```', re.S)
n = 0
for op, path, anchor, block in step.findall(doc):
    f = f"{root}/{path}"
    if op == "new":
        open(f, "w").write(block)
    else:
        anchor = anchor.replace('\\"', '"')
        lines = open(f).read().split("\n")
        at = next((i for i, l in enumerate(lines) if anchor in l), None)
        if at is None:
            sys.exit(f"check-contributing: {path} has no line containing {anchor!r}")
        at += op == "after"
        lines[at:at] = block.rstrip("\n").split("\n")
        open(f, "w").write("\n".join(lines))
    n += 1
if n == 0:
    sys.exit("check-contributing: docs/contributing.md has no steps")
print(f"applied {n} steps", file=sys.stderr)
PY

export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$root/target/check-contributing}
(cd "$tmp" && cargo check --all-targets --quiet)
echo "docs/contributing.md: the documented policies build"
