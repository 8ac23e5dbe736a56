#!/usr/bin/env bash
# Issue 15's checks on a GPU machine: `shardlab profile` around a real NCCL program
# (examples/profile/allreduce_buckets.cu) and the plugin's overhead on its step time (budget <= 2%),
# then the host cost per plugin call there, then every example program (examples/) alone and under
# `shardlab profile` with tests/gpu/examples_gpu.sh (the ctest `gpu.example.*` checks), the
# torchrun one as `shardlab profile -- torchrun --nproc-per-node $gpus train_ddp.py`. DIR is what
# bench/carry_mpi.sh packs (a CUDA build); results go to OUT: profile-device.txt, the straggler's
# result file, and per example OUT/examples/CHECK.{alone,profile}.txt with its result file
# OUT/examples/CHECK.shardlab-result.json (2+ GPUs); with 2+ GPUs the examples also run on one
# (OUT/examples-1gpu).
#   bench/profile_device.sh DIR OUT
# NCCL 2.28.9 reports no profiler events on a communicator of one rank: on a one-GPU machine the
# profile can only show that the program runs under the plugin, unchanged (and says "every
# communicator recorded has one rank"); with 2+ GPUs it shows the per-rank run, the straggler of
# --straggler, and the overhead. NVLink multicast stays off.
set -uo pipefail
dir=$(cd "$1" && pwd); out=$2
mkdir -p "$out"
source "$dir/device_env.sh" "$dir"
P=$b/examples/allreduce_buckets
args="--buckets 8 --bytes 4194304 --steps 200 --compute-us 2000"
{
  echo "== date"; date -u; nvidia-smi -L
  echo "== NCCL"; ls "$nccl"
  echo "== the program alone, then under shardlab profile, three times each (median step time)"
  for i in 1 2 3; do
    $P $args
    $S profile --out "$out/run$i" -- $P $args 2>&1 | grep -E "allreduce_buckets|step time|straggler|one rank|Result file"
  done
  if [ "$gpus" -ge 2 ]; then
    echo "== a straggler: GPU 1 computes 1 ms longer every step"
    $S profile --out "$out/straggler" -- $P --buckets 4 --steps 20 --straggler 1 --sleep-us 1000 2>&1 | tail -30
    echo "== what-if: the profiled program simulated on the machine it ran on"
    $S profile --resimulate "$out/straggler/profile.shardlab-result.json" 2>&1 | tail -4
  fi
  echo "== host cost per plugin call on this machine"
  $b/bench/bench_profile_plugin "$SHARDLAB_NCCL_PROFILER"
  # examples OUT_SUBDIR: every example check on the GPUs CUDA_VISIBLE_DEVICES leaves.
  examples() {
    for check in allreduce_verify reduce_scatter_all_gather allreduce_buckets allreduce_sweep allreduce_straggler train_ddp; do
      echo "== example $check (${CUDA_VISIBLE_DEVICES:-every GPU})"
      "$dir/examples_gpu.sh" "$S" "$b/examples" "$dir/train_ddp.py" "$check" "$out/$1"
      echo "(status $?: 0 passed, 1 failed, 77 skipped)"
      echo "-- its output alone:"; cat "$out/$1/$check.alone.txt" 2>/dev/null
      echo "-- under shardlab profile:"; cat "$out/$1/$check.profile.txt" 2>/dev/null
    done
  }
  echo "== the example programs, alone and under shardlab profile ($gpus GPU(s))"
  examples examples
  if [ "$gpus" -ge 2 ]; then
    echo "== the example programs on one GPU (CUDA_VISIBLE_DEVICES=0): they run, the profile says there is nothing to draw"
    (export CUDA_VISIBLE_DEVICES=0; examples examples-1gpu)
  fi
} > "$out/profile-device.txt" 2>&1
for f in "$out"/examples/*/profile.shardlab-result.json; do
  [ -f "$f" ] && cp "$f" "$out/examples/$(basename "$(dirname "$f")").shardlab-result.json"
done
rm -rf "$out"/examples/*/ "$out"/examples-1gpu/*/
cp "$out"/straggler/profile.shardlab-result.json "$out/" 2>/dev/null
rm -rf "$out"/run* "$out"/straggler
cat "$out/profile-device.txt"
