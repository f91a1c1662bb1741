#!/usr/bin/env bash
# Checks that a change keeps behaviour: runs each config of a list under two warpscope binaries
# and compares the JSON reports byte for byte. Prints each differing config with the first lines
# of its diff and exits 1 if any differ. Reports of an unchanged binary are cached (keyed by the
# binary's hash and the arguments) so a baseline runs once.
#   bash scripts/same-reports.sh OLD_BINARY NEW_BINARY [LIST] [--jobs N] [--filter REGEX]
# LIST defaults to scripts/same-reports.list, whose header gives its format.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
jobs=2 filter="" pos=()
while [ $# -gt 0 ]; do
  case "$1" in
    --jobs) jobs=$2; shift 2 ;;
    --filter) filter=$2; shift 2 ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) pos+=("$1"); shift ;;
  esac
done
[ ${#pos[@]} -ge 2 ] || { echo "usage: same-reports.sh OLD NEW [LIST] [--jobs N] [--filter REGEX]" >&2; exit 2; }
old=$(realpath "${pos[0]}") new=$(realpath "${pos[1]}")
list=${pos[2]:-$here/same-reports.list}
cache=${SAME_REPORTS_CACHE:-${TMPDIR:-/tmp}/same-reports-cache}
mkdir -p "$cache"

# Expands the first placeholder of a line and recurses, so several give their cross product.
expand() {
  local line=$1 names ph
  if [[ $line =~ \{(presets|bundles|values:[a-z0-9_.]+|kernels:[a-z0-9_,]+)\} ]]; then
    ph=${BASH_REMATCH[1]}
    case $ph in
      presets) names=$("$old" list presets | awk '/^[a-z0-9]/ {print $1}') ;;
      bundles) names=$("$old" list bundles | awk '{print $1}') ;;
      values:*) names=$("$old" list policies | awk -v f="${ph#values:}" '$1 == f' |
                        cut -d' ' -f2- | tr '|' '\n' | tr -d ' ') ;;
      kernels:*) names=$(tr ',' '\n' <<< "${ph#kernels:}") ;;
    esac
    [ -n "$names" ] || { echo "no names for {$ph}" >&2; exit 2; }
    local n
    for n in $names; do expand "${line/"{$ph}"/$n}"; done
  else
    echo "$line"
  fi
}

configs=$(grep -v '^[[:space:]]*\(#\|$\)' "$list" | while IFS= read -r l; do expand "$l"; done)
[ -z "$filter" ] || configs=$(grep -E -- "$filter" <<< "$configs" || true)
total=$(grep -c . <<< "$configs" || true)
echo "comparing $total configs: $old vs $new" >&2

# One report into the cache; prints its path. A failed run caches its stderr and status
# instead, so a run that errors the same way under both binaries compares equal.
report() {
  local bin=$1 args=$2 key f
  key=$( (sha256sum "$bin" | cut -c1-16; echo "$args") | sha256sum | cut -c1-24)
  f=$cache/$key.json
  if [ ! -e "$f" ]; then
    # shellcheck disable=SC2086 # the arguments are a word list on purpose
    if "$bin" run $args --format json --quiet > "$f.tmp" 2> "$f.err"; then
      mv "$f.tmp" "$f"
    else
      { echo "exit status $?"; cat "$f.err"; } > "$f.tmp" && mv "$f.tmp" "$f"
    fi
    rm -f "$f.err"
  fi
  echo "$f"
}
compare() {
  local a b
  a=$(report "$old" "$1") b=$(report "$new" "$1")
  if cmp -s "$a" "$b"; then
    echo "same  $1"
  else
    echo "DIFF  $1"
    diff -U1 "$a" "$b" | sed -n '3,14p' | sed 's/^/      /'
  fi
}
export -f report compare
export old new cache
out=$(xargs -d '\n' -P "$jobs" -I{} bash -c 'compare "$1"' _ {} <<< "$configs")
grep -v '^same' <<< "$out" || true
same=$(grep -c '^same' <<< "$out" || true)
echo "$same of $total configs give identical reports"
[ "$same" -eq "$total" ]
