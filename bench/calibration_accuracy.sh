#!/usr/bin/env bash
# Calibration accuracy on this machine's GPUs (issue 6). Run from the repository root of a build
# with live mode (CUDA + NCCL), on the 2-GPU (or 4-GPU) machine:
#
#   bench/calibration_accuracy.sh [BUILD_DIR] [GPUS]        (defaults: build/dev, 2)
#
# 1. `shardlab calibrate` measures five collectives (8 B, then 16 KiB to 1 GiB in steps of 4, on 2
#    and GPUS GPUs) and the compute rate, fits a profile and saves it as h200xGPUS.
# 2. A fresh live sweep of the five collectives at 64 KiB to 1 GiB in steps of 2: half of these
#    sizes were never calibrated, so they test the interpolation, and all test run-to-run noise.
# 3. Predicted against measured, uncalibrated (built-in profile on the h200-nv18-4 preset) and
#    calibrated, with the median and worst error over 64 KiB..1 GiB and the goals (calibrated:
#    median <= 5 %, worst <= 15 %; uncalibrated preset: median <= 20 %).
# 4. The uncalibrated preset against the published 4x/2x H200 nccl-tests figures (PEERS.md).
# Everything is written to $OUT (or a temporary folder) and printed; the machine is printed first.
# The fit uses the machine's own topology (NVML); TOPOLOGY_PRESET=ID fits against a preset
# instead (for a build whose topology discovery is missing).
set -euo pipefail

build=${1:-build/dev}
gpus=${2:-2}
shardlab=$build/app/cli/shardlab
helper=$build/bench/bench_calibration_accuracy
out=${OUT:-$(mktemp -d)}
mkdir -p "$out"
for tool in "$shardlab" "$helper"; do
  [ -x "$tool" ] || { echo "missing $tool: build the targets shardlab and bench_calibration_accuracy first" >&2; exit 2; }
done
# NCCL from Python's nvidia-nccl wheel when it is not on the library path (the device machines)
if nccl=$(python3 -c "import nvidia.nccl, os; print(os.path.dirname(nvidia.nccl.__file__))" 2>/dev/null); then
  export LD_LIBRARY_PATH="$nccl/lib:${LD_LIBRARY_PATH:-}"
fi
export SHARDLAB_PROFILE_DIR="$out/profiles"
name="h200x$gpus"
calibrate_topology=()
helper_topology=()
if [ -n "${TOPOLOGY_PRESET:-}" ]; then
  calibrate_topology=(--preset "$TOPOLOGY_PRESET")
  helper_topology=(--topology "$TOPOLOGY_PRESET")
fi

{
  echo "== machine"
  uname -a
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv 2>/dev/null || echo "(nvidia-smi not found)"
  nvidia-smi topo -m 2>/dev/null || true
  "$shardlab" --version
  echo "NCCL_NVLS_ENABLE=${NCCL_NVLS_ENABLE:-unset}"
} | tee "$out/machine.txt"

echo "== 1. calibrate ($gpus GPUs, profile $name)"
"$shardlab" calibrate --gpus "$gpus" --name "$name" "${calibrate_topology[@]}" | tee "$out/calibrate.txt"

echo "== 2. a fresh measurement, 64 KiB to 1 GiB in steps of 2"
for c in all_reduce all_gather reduce_scatter broadcast reduce; do
  "$shardlab" bench --collective "$c" --gpus "$gpus" --sizes 64K:1G:2 --json > "$out/measured-$c.json"
done

echo "== 3. predicted against measured"
"$helper" --profile "$name" --preset h200-nv18-4 "${helper_topology[@]}" "$out"/measured-*.json | tee "$out/accuracy.txt"

echo "== 4. the built-in profile against the published H200 figures"
"$helper" --reference | tee "$out/reference.txt"
echo "results in $out"
