#!/usr/bin/env bash
# The live engine's checks and benchmarks on a GPU machine, in one go (what docs/benchmarks.md's
# "Live engine" section was measured with). DIR holds stripped builds of shardlab,
# libshardlab_live.so, shardlab_live_tests, shardlab_gpu_tests and bench_live (bench/carry_live.sh
# puts them there); results go to OUT (at most 8 files).
#   bench/live_device.sh DIR OUT [SIZES] [STEPS]
# STEPS: any of env,tests,sweep,scenario,overhead (default all). NCCL: the pip package
# nvidia-nccl-cu13's when installed (SYSTEM_NCCL=1: the system's). NVLink multicast stays off.
set -uo pipefail
dir=$(cd "$1" && pwd)
out=$2
sizes=${3:-8:2G:2}
steps=${4:-env,tests,sweep,scenario,overhead}
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
export NCCL_DEBUG=${NCCL_DEBUG:-WARN}
# The pip package's NCCL first (the version the nccl-tests reference figures were measured with),
# unless SYSTEM_NCCL=1; the system's libnccl.so.2 otherwise.
if [ "${SYSTEM_NCCL:-0}" != 1 ]; then
  nccl=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))" 2>/dev/null)
  [ -d "$nccl" ] && export LD_LIBRARY_PATH="$nccl:${LD_LIBRARY_PATH:-}"
fi
gpus=$(nvidia-smi -L 2>/dev/null | wc -l)
has() { [[ ",$steps," == *",$1,"* ]]; }

if has env; then
  {
    echo "== date"; date -u
    echo "== nvidia-smi"; nvidia-smi
    echo "== nvidia-smi topo -m"; nvidia-smi topo -m
    echo "== NCCL"; echo "LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"; python3 -m pip show nvidia-nccl-cu13 2>/dev/null | head -2
    echo "== CUPTI"; python3 -c "import nvidia.cuda_cupti, os; print(os.listdir(os.path.join(os.path.dirname(nvidia.cuda_cupti.__file__), 'lib')))" 2>&1
    ldconfig -p | grep -i cupti
    echo "== OS"; cat /etc/os-release | head -2; ldd --version | head -1
    echo "== ldd libshardlab_live.so"; ldd "$dir/libshardlab_live.so"
    echo "== shardlab --version"; "$dir/shardlab" --version
    echo "== shardlab topo"; "$dir/shardlab" topo
  } > "$out/env.txt" 2>&1
  tail -n 25 "$out/env.txt"
fi

if has tests; then
  {
    "$dir/shardlab_live_tests" --gtest_filter='Live*:Machine*' 2>&1 | tail -n 5
    timeout 300 "$dir/shardlab_gpu_tests" --gtest_output="json:$out/gpu_tests.json" 2>&1
    echo "gpu tests exit status $?"
  } > "$out/tests.txt"
  grep -E "^\[  (PASSED|FAILED|SKIPPED) |^\[  FAILED|Failure|GPU[0-9]: bound|TFLOP|hang:|exit status" "$out/tests.txt" | head -n 60
fi

if has sweep; then
  : > "$out/sweeps.txt"
  for c in all_reduce all_gather reduce_scatter broadcast reduce; do
    timeout 120 "$dir/shardlab" bench --collective $c --gpus "$gpus" --sizes "$sizes" >> "$out/sweeps.txt" 2>&1
  done
  grep -E "^# collective|^  +(8|1048576|134217728|536870912|2147483648) " "$out/sweeps.txt"
fi

if has scenario; then
  # The sample scenario simulated and measured, with the measured timeline as a Chrome trace.
  scenario="$dir/live-straggler-2.shardlab.json"
  {
    "$dir/shardlab" sim "$scenario"
    echo
    "$dir/shardlab" live "$scenario" --trace "$out/live-trace.json"
    echo "exit status $?"
  } > "$out/scenario.txt" 2>&1
  cat "$out/scenario.txt"
fi

if has overhead; then
  timeout 240 "$dir/bench_live" "$gpus" 5 > "$out/bench_live.md" 2>&1
  cat "$out/bench_live.md"
fi
