#!/usr/bin/env bash
# Replays an Accel-Sim trace of at least 2 GB and measures what streaming promises: peak
# memory (RSS, from /usr/bin/time -v) bounded by the resident thread blocks rather than the
# trace's size, and the replay speed in warp instructions per second. The trace is a
# built-in kernel at paper size written with every lane's address listed (format 0), the
# bulkiest encoding. Not part of CI: it writes GBs and takes minutes.
#   bash scripts/trace-scale.sh [DIR]      (KERNEL=gesummv by default: 4.2 GB; DIR is kept for reuse)
set -euo pipefail
cd "$(dirname "$0")/.."
kernel=${KERNEL:-gesummv}
dir=${1:-${TMPDIR:-/tmp}/warpscope-trace-scale/$kernel}
cargo build --release --quiet
bin=${CARGO_TARGET_DIR:-target}/release/warpscope
if [ ! -f "$dir/kernelslist.g" ]; then
  "$bin" trace export --kernel "$kernel" --size paper --list-addresses --out "$dir"
fi
bytes=$(du -cb "$dir"/kernelslist.g "$dir"/kernel-*.traceg | tail -1 | cut -f1)
echo "trace: $dir, $bytes bytes"
if [ "$bytes" -lt 2000000000 ]; then
  echo "trace-scale: the trace is under 2 GB; pick a larger KERNEL" >&2
  exit 1
fi

# Prints "<wall seconds> <CPU seconds> <peak RSS in KB>" of the /usr/bin/time -v output in $1
# (CPU time gives the speed on a machine busy with other work).
measure() {
  awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
              /User time|System time/ { cpu += $2 }
              /Maximum resident set size/ { rss = $2 }
              END { print s, cpu, rss }' "$1"
}

/usr/bin/time -v "$bin" run --trace "$dir" --format json --quiet >"$dir/replay.json" 2>"$dir/replay.time"
/usr/bin/time -v "$bin" run --kernel "$kernel" --size paper --format json --quiet >"$dir/builtin.json" 2>"$dir/builtin.time"
read -r replay_s replay_cpu replay_kb < <(measure "$dir/replay.time")
read -r builtin_s builtin_cpu builtin_kb < <(measure "$dir/builtin.time")
instructions=$(python3 -c "import json; print(json.load(open('$dir/replay.json'))['trace']['instructions'])")
same=$(python3 -c "
import json
a, b = json.load(open('$dir/builtin.json')), json.load(open('$dir/replay.json'))
print('same cycles' if a['cycles'] == b['cycles'] else 'cycles differ: %d vs %d' % (a['cycles'], b['cycles']))")
awk -v gb="$bytes" -v n="$instructions" -v rs="$replay_s" -v rc="$replay_cpu" -v rk="$replay_kb" \
  -v bs="$builtin_s" -v bc="$builtin_cpu" -v bk="$builtin_kb" 'BEGIN {
  printf "replay : %.2f GB trace, %d warp instructions in %.1f s (%.1f s CPU) = %.0f instructions/s (%.0f per CPU second), peak RSS %.0f MB\n", gb / 1e9, n, rs, rc, n / rs, n / rc, rk / 1024
  printf "builtin: the same kernel generated in process: %.1f s (%.1f s CPU), peak RSS %.0f MB\n", bs, bc, bk / 1024
}'
echo "replay vs builtin: $same"
