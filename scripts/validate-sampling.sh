#!/usr/bin/env bash
# Checks sampled runs against full detailed runs (docs/sampling.md, "Validation"): every
# built-in kernel at paper size on the given presets and seeds, `--sample WINDOWS --check`,
# one JSON file per run in target/sampling/ (kept: a second call runs only what is
# missing), then the table on stdout. `--resample` runs the sampled part of every kept file
# again and checks it against the full run recorded there (`--check-against`): what to use
# after a change to sampling alone. `--set sample.PATH=VALUE` (repeatable) changes a
# sampling setting of every run: with `--resample` and its own `--out` copy, a sensitivity study.
# `--reports DIR` checks instead against whole runs already made: every `job` or `batch`
# report in DIR (.json or .json.gz, e.g. a figure's kept runs, docs/reproductions/runs/),
# each sampled with its own config, kernel, size and seed.
#   bash scripts/validate-sampling.sh [--presets a,b] [--seeds 1,2] [--kernels k1,k2]
#        [--policy BUNDLE] [--windows 30] [--jobs 2] [--resample] [--out target/sampling]
#        [--set sample.PATH=VALUE] [--reports DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
presets=medic-gtx480,sc14-gtx480 seeds=1 windows=30 jobs=2 policy=""
kernels="" resample="" out=target/sampling sets=() reports=""
while [ $# -gt 0 ]; do
  case "$1" in
    --presets) presets=$2; shift 2 ;;
    --seeds) seeds=$2; shift 2 ;;
    --kernels) kernels=$2; shift 2 ;;
    --windows) windows=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --policy) policy=$2; shift 2 ;;
    --resample) resample=1; shift ;;
    --out) out=$2; shift 2 ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    --reports) reports=$2; shift 2 ;;
    *) echo "unknown option $1 (valid: --presets --seeds --kernels --policy --windows --jobs --resample --out --set --reports)" >&2; exit 2 ;;
  esac
done
# WARPSCOPE names a binary to use instead of building one (keep it fixed while you work).
ws=${WARPSCOPE:-}
if [ -z "$ws" ]; then
  cargo build --release --quiet
  ws=./target/release/warpscope
fi
mkdir -p "$out"

if [ -n "$reports" ]; then
  [ -d "$reports" ] || { echo "--reports: $reports is not a folder" >&2; exit 2; }
  node scripts/report-configs.mjs "$reports" "$out" > "$out/reports.txt"
  [ -s "$out/reports.txt" ] || { echo "--reports: no .json or .json.gz report in $reports" >&2; exit 2; }
  against() {
    local f="$out/$1.json"
    [ -s "$f" ] && [ -z "$resample" ] && return 0
    $ws run --config "$out/$1.config.json" --kernel "$2" --size "$3" --seed "$4" --sample "$windows" \
      ${sets[@]+"${sets[@]}"} --check-against "$5" --format json --quiet > "$f.tmp" && mv "$f.tmp" "$f"
    echo "done $1" >&2
  }
  while read -r name kernel size seed path; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    against "$name" "$kernel" "$size" "$seed" "$path" &
  done < "$out/reports.txt"
  wait
  node scripts/sampling-table.mjs $(awk -v o="$out" '{print o "/" $1 ".json"}' "$out/reports.txt")
  exit 0
fi

[ -n "$kernels" ] || kernels=$($ws list kernels | awk '{print $1}' | paste -sd, -)
tag=${policy:-baseline}

one() {
  local f="$out/$1-$tag-$2-$3.json" full=(--check)
  if [ -s "$f" ]; then
    [ -n "$resample" ] || return 0
    full=(--check-against "$f")
  fi
  $ws run --preset "$1" ${policy:+--policy "$policy"} --kernel "$2" --seed "$3" --size paper \
    --sample "$windows" ${sets[@]+"${sets[@]}"} "${full[@]}" --format json --quiet > "$f.tmp" && mv "$f.tmp" "$f"
  echo "done $1 $tag $2 seed $3" >&2
}

for p in ${presets//,/ }; do for k in ${kernels//,/ }; do for s in ${seeds//,/ }; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  one "$p" "$k" "$s" &
done; done; done
wait
node scripts/sampling-table.mjs "$out"/*-"$tag"-*.json
