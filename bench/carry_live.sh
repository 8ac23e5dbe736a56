#!/usr/bin/env bash
# Copies stripped builds of what bench/live_device.sh runs into DIR (for a GPU machine without a
# compiler or this project's dependencies).
#   bench/carry_live.sh BUILD_DIR DIR
set -euo pipefail
build=$1
dir=$2
mkdir -p "$dir"
for f in app/cli/shardlab engine/live/gpu/libshardlab_live.so tests/shardlab_live_tests tests/shardlab_gpu_tests \
         bench/bench_live; do
  strip --strip-debug -o "$dir/$(basename "$f")" "$build/$f"
done
cp "$(dirname "$0")/live_device.sh" "$(dirname "$0")/live-straggler-2.shardlab.json" "$dir/"
du -sh "$dir"
