#!/usr/bin/env bash
# `shardlab calibrate --compute` on a GPU machine (docs/planner.md, "Compute calibration"): the GPU
# test of the cuBLAS timing, the whole grid measured and saved, a few shapes worded in Chinese, and
# a plan priced with the shipped calibration and with the new file; then plans run live with their
# shards' GEMMs (one GPU; TP 2 x PP 2 as four ranks sharing it and PP 2 as two: the function), and
# where the machine has 2 or 4 GPUs, TP 2, PP 2 and TP 2 x PP 2 on GPUs of their own, simulated
# and live (the figures, which ranks sharing one GPU cannot give). DIR holds bin.tar.xz with
# shardlab, libshardlab_live.so, libshardlab_mpi.so and shardlab_gpu_tests of a CUDA build, and
# qt.tar.xz, the Qt runtime the CLI links (bench/carry_mpi.sh packs both; `--pack BUILD_DIR DIR
# QT_DIR` packs the four programs and copies qt.tar.xz from QT_DIR, a folder carry_mpi.sh made);
# results go to OUT: summary.txt and the measured compute.json.
#   bench/compute_device.sh DIR OUT
#   bench/compute_device.sh --pack BUILD_DIR DIR QT_DIR
set -uo pipefail
if [ "${1:-}" = --pack ]; then
  build=$(cd "$2" && pwd); dir=$3; stage=$(mktemp -d)
  mkdir -p "$dir"
  for f in app/cli/shardlab engine/live/gpu/libshardlab_live.so tests/shardlab_gpu_tests \
      engine/cluster/libshardlab_mpi.so; do
    mkdir -p "$stage/build/$(dirname "$f")"
    strip --strip-debug -o "$stage/build/$f" "$build/$f"
  done
  tar -C "$stage" -cJf "$dir/bin.tar.xz" build && rm -rf "$stage"
  here=$(cd "$(dirname "$0")" && pwd)
  cp "$here/device_env.sh" "$here/compute_device.sh" "$dir/"
  cp "$4/qt.tar.xz" "$dir/" || { echo "compute_device.sh: no qt.tar.xz in $4 (bench/carry_mpi.sh makes one)" >&2; exit 1; }
  exit 0
fi
dir=$(cd "$1" && pwd); out=$2
mkdir -p "$out"
source "$dir/device_env.sh" "$dir"
{
  echo "== date"; date -u; nvidia-smi -L
  echo "== cuBLAS on this machine"
  ldconfig -p | grep -i 'libcublas\.so' || echo "(none in ldconfig)"
  ls /usr/local/cuda/lib64/libcublas.so* 2>/dev/null || echo "(none in /usr/local/cuda/lib64)"
  # The Python environment's cuBLAS (PyTorch's wheel), used where the loader finds none itself.
  pycublas=$(python3 -c "import nvidia.cublas, os; print(os.path.join(list(nvidia.cublas.__path__)[0], 'lib'))" 2>/dev/null)
  [ -z "$pycublas" ] && pycublas=$(dirname "$(find / -name 'libcublas.so.13' -path '*site-packages*' 2>/dev/null | head -1)" 2>/dev/null)
  echo "Python's: ${pycublas:-(none)}"
  if ! $S calibrate --compute --shapes 256x256x256 --no-save > /dev/null 2>&1 && [ -n "$pycublas" ]; then
    export LD_LIBRARY_PATH="$pycublas:$LD_LIBRARY_PATH"
    echo "(the loader found no cuBLAS; using $pycublas)"
  fi
  echo "== GPU test"
  "$b/tests/shardlab_gpu_tests" --gtest_filter='LiveGpu.CublasGemms*:LiveGpu.AComputeStepRunsItsGemms*' 2>&1 | grep -E "TFLOP|OK|FAILED|SKIPPED|Failure|error" | head -20
  echo "== shardlab calibrate --compute (the whole grid)"
  start=$(date +%s)
  $S calibrate --compute --out "$out/compute.json" 2>&1
  echo "exit $?  ($(( $(date +%s) - start )) s)"
  echo "== in Chinese, three shapes"
  $S --lang zh calibrate --compute --shapes 4096x4096x4096,8192x8192x8192,2048x28672x8192 --no-save 2>&1
  echo "== bad input"
  $S calibrate --compute --device 7 --no-save 2>&1; echo "exit $?"
  echo "== plan: shipped calibration, then the measured file"
  # the preset of the GPU measured: a file measured on another GPU is refused, as it should be
  preset=h200-nvswitch-8; nvidia-smi -L | grep -q H100 && preset=2x8-h100-ib
  for extra in "" "--compute $out/compute.json"; do
    $S plan llama3-8b --tp 2 --gpus 8 --preset $preset --json $extra 2>&1 \
      | python3 -c "import json,sys; j=json.load(sys.stdin); print('step_time_ms', round(j['step_time_ms'],1), 'mfu', round(j['mfu'],3), '|', j.get('compute_source'))" 2>&1
  done
  echo "== a plan run live with its shards' GEMMs (issue 27): one GPU, then TP 2 x PP 2 as 4 ranks sharing it"
  $S plan llama3-8b --gpus 1 --preset h200-nvswitch-8 --recompute full --global-batch 2 \
    --scenario "$out/plan-1.shardlab.json" 2>&1 | grep -iE "step|fits|error" | head -5
  $S sim "$out/plan-1.shardlab.json" 2>&1 | head -30
  LC_ALL=C $S live "$out/plan-1.shardlab.json" 2>&1 | head -50; echo "exit ${PIPESTATUS[0]}"
  $S plan llama3-8b --gpus 4 --tp 2 --pp 2 --preset h200-nvswitch-8 --global-batch 4 \
    --scenario "$out/plan-4.shardlab.json" 2>&1 | grep -iE "step|fits|error" | head -5
  LC_ALL=C timeout 300 $S live "$out/plan-4.shardlab.json" --share-gpu 4 2>&1 | head -60; echo "exit ${PIPESTATUS[0]}"
  echo "== PP 2 (1F1B's sends and receives between stages) as 2 ranks sharing the GPU"
  $S plan llama3-8b --gpus 2 --pp 2 --preset h200-nvswitch-8 --global-batch 4 --recompute full \
    --scenario "$out/plan-pp2.shardlab.json" > /dev/null 2>&1
  LC_ALL=C timeout 120 $S live "$out/plan-pp2.shardlab.json" --share-gpu 2 2>&1 | grep -v '^rank [0-9]*:' | tail -12
  # The figures (not only the function) need a GPU per rank: these run where there are enough.
  if [ "${gpus:-1}" -ge 2 ]; then
    for plan in "--tp 2" "--pp 2 --recompute full"; do
      echo "== on 2 of $gpus GPUs: plan $plan, simulated, then live"
      $S plan llama3-8b --gpus 2 $plan --preset $preset --global-batch 4 --scenario "$out/p2.shardlab.json" > /dev/null 2>&1
      $S sim "$out/p2.shardlab.json" 2>&1 | grep -E '^step time'
      LC_ALL=C timeout 120 $S live "$out/p2.shardlab.json" 2>&1 | grep -E '^step time|^Note'
    done
  fi
  if [ "${gpus:-1}" -ge 4 ]; then
    echo "== on 4 of $gpus GPUs: TP 2 x PP 2, simulated, then live"
    $S plan llama3-8b --gpus 4 --tp 2 --pp 2 --preset $preset --global-batch 4 --scenario "$out/p4.shardlab.json" > /dev/null 2>&1
    $S sim "$out/p4.shardlab.json" 2>&1 | grep -E '^step time'
    LC_ALL=C timeout 200 $S live "$out/p4.shardlab.json" 2>&1 | grep -E '^step time|^Note'
  fi
} > "$out/summary.txt" 2>&1
cat "$out/summary.txt" | head -c 11000
