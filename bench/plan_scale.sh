#!/usr/bin/env bash
# Issue 27's scale targets, timed on this machine (docs/benchmarks.md "Planning a transformer"):
#   Llama 3 405B on 16,384 GPUs (TP 8 x PP 16 x DP 128) planned and priced: under 3 s and 2 GB;
#   every plan of Llama 3 70B on 1,024 GPUs searched: under 5 s.
# Usage: bench/plan_scale.sh [path/to/shardlab]   (default build/dev/app/cli/shardlab)
set -euo pipefail
S=${1:-build/dev/app/cli/shardlab}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
run() { # LABEL ARGS...
  local label=$1; shift
  local best=
  for i in 1 2 3; do
    /usr/bin/time -f "%e %M" -o /tmp/plan_time.$$ "$S" "$@" > /dev/null
    read -r secs kb < /tmp/plan_time.$$
    echo "  $label run $i: ${secs} s, peak ${kb} KB"
  done
  rm -f /tmp/plan_time.$$
}
run "405B, 16384 GPUs, one plan (--json, every rank)" plan llama3-405b --preset 2x8-h100-ib --tp 8 --pp 16 --dp 128 \
    --seq 8192 --global-batch 2048 --schedule interleaved:4 --zero 1 --json
run "70B, 1024 GPUs, --search" plan llama3-70b --preset 2x8-h100-ib --gpus 1024 --search
run "405B, 16384 GPUs, --search" plan llama3-405b --preset 2x8-h100-ib --gpus 16384 --seq 8192 --search
