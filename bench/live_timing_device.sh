#!/usr/bin/env bash
# Issue 14's live-timing check on a GPU machine: the overlapped-bucket scenario
# (bench/live-overlap-1.shardlab.json) twice, 8 iterations each, with the shortest and longest
# compute phase against the 1.866 ms asked, the simulated and measured 1-rank all-reduce, then
# every GPU test. DIR is what bench/carry_mpi.sh packs; results go to OUT.
#   bench/live_timing_device.sh DIR OUT
set -uo pipefail
dir=$(cd "$1" && pwd); out=$2
mkdir -p "$out"
source "$dir/device_env.sh" "$dir"
{
  echo "== date"; date -u; nvidia-smi -L
  for run in 1 2; do
    echo "== live overlap-1, 8 iterations, run $run"
    $S live "$dir/live-overlap-1.shardlab.json" --iterations 8 --csv "$out/o$run" | grep -E "^ +0 |step time|gradient"
    awk -F, 'NR>1 && $3=="compute" {d=$6/1000; if (n==0||d<mn) mn=d; if (d>mx) mx=d; n++}
             END {printf "  compute phases %d: min %.3f ms, max %.3f ms (asked 1.866)\n", n, mn, mx}' "$out/o$run-spans.csv"
  done
  echo "== sim overlap-1"; $S sim "$dir/live-overlap-1.shardlab.json" | grep -E "gradient|step time"
  echo "== shardlab_gpu_tests"
  timeout 500 $b/tests/shardlab_gpu_tests 2>&1 | grep -E "^\[ +(OK|FAILED|SKIPPED) |PASSED|FAILED|1-rank|Failure|iteration" | head -80
  echo "== test_live_stress (the app's live path)"; timeout 300 $b/tests/gui/test_live_stress 2>&1 | grep -E "^(PASS|FAIL|Totals)" | head -20
} > "$out/live-timing.txt" 2>&1
rm -f "$out"/*-ranks.csv "$out"/*-collectives.csv "$out"/o2-spans.csv
cat "$out/live-timing.txt"
