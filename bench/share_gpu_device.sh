#!/usr/bin/env bash
# Issue 29's checks on a one-GPU machine: every check of tests/gpu/share_gpu_gpu.sh (2 and 4 ranks
# taking turns on the one GPU, NCCL over loopback sockets), the GPU tests, and screenshots of the
# run page after Run > Live with N ranks on this one GPU (English and Chinese), which starts
# `shardlab live --share-gpu N --stream -` and reads it. DIR holds bin.tar.xz (shardlab and
# libshardlab_live.so of a CUDA build, tests/gui/mainwindow_demo of a GUI build,
# tests/shardlab_gpu_tests) and qt.tar.xz as bench/carry_mpi.sh packs them; REPO is a checkout
# (its resources/scenarios, bench/ and tests/gpu/); results go to OUT: summary.txt, the screenshots
# and logs.tgz with every check's output and work folder (the device tool brings back 8 files).
# The summary and each screenshot reach OUT as they are made: a run cut short by the device
# tool's time limit still brings back what it did. Each check has 120 s, each screenshot 150 s.
# CHECKS (optional): the checks to run, e.g. "hang stream"; "none": only the screenshots.
#   bench/share_gpu_device.sh DIR REPO OUT [CHECKS]
set -uo pipefail
dir=$(cd "$1" && pwd); repo=$(cd "$2" && pwd); final=$3
checks=${4:-run straggler four hang stream report zh kill oversize}
mkdir -p "$final"
out=$(mktemp -d)
source "$dir/device_env.sh" "$dir"
{
  echo "== date"; date -u; nvidia-smi -L
  for check in $checks; do
    [ "$check" = none ] && continue
    start=$(date +%s)
    timeout 120 bash "$repo/tests/gpu/share_gpu_gpu.sh" "$S" "$repo/resources/scenarios" "$repo/bench" "$check" "$out/work-$check" \
      > "$out/check-$check.txt" 2>&1
    status=$?
    printf '== share_gpu %-10s exit %d  (%d s)\n' "$check" "$status" "$(( $(date +%s) - start ))"
    tail -n 4 "$out/check-$check.txt"
  done
  if [ "$checks" != none ]; then
    echo "== shardlab live --share-gpu 2 (the table)"
    LC_ALL=C $S live "$repo/bench/live-straggler-2.shardlab.json" --share-gpu 2 2>&1 | head -40
    echo "== GPU tests"
    "$b/tests/shardlab_gpu_tests" --gtest_brief=1 2>&1 | tail -n 5
  fi
  echo "== screenshots: Run > Live with N ranks on this one GPU"
  for lang in en zh_CN; do
    for scenario in "$repo/bench/live-straggler-2.shardlab.json" "$repo/resources/scenarios/straggler-12-6-4-2.shardlab.json"; do
      name=$(basename "$scenario" .shardlab.json)
      XDG_CONFIG_HOME=$(mktemp -d) SHARDLAB_SCREENSHOT="$out/shared-$name-$lang.png" timeout 150 \
        "$b/tests/gui/mainwindow_demo" --lang "$lang" --size 1366x768 --open "$scenario" --share-gpu --shardlab "$S" --run --page run \
        > "$out/shot-$name-$lang.txt" 2>&1
      echo "$name $lang: exit $?  $(ls -la "$out/shared-$name-$lang.png" 2>&1 | awk '{print $5}') bytes"
      cp "$out/shared-$name-$lang.png" "$final/" 2>/dev/null
    done
  done
} 2>&1 | tee "$final/summary.txt"
cp "$final/summary.txt" "$out/"
tar -C "$out" -czf "$final/logs.tgz" --exclude='*.png' .
