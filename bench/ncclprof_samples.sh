#!/usr/bin/env bash
# Real trace files of NCCL's example profiler plugin (tests/import/data/ncclprof/README.md), made in
# one call on the GPU machine, ranks sharing its one GPU (each its own NCCL_HOSTID, sockets on the
# loopback, as bench/make_import_samples.sh):
#   ddp2, ddp4   bench/import_samples_train.py --mode ddp, rank 1 sleeping 300 ms in steps 3 and 5
#   pipeline2    examples/profile/train_pipeline.py (send/receive between two stages), rank 1 300 ms late each step
#   unmasked2    ddp2 with NCCL_PROFILE_EVENT_MASK unset: the plugin (default mask 0) records nothing,
#                and writes files with no event: the importer must say so
# The plugin is NVIDIA/nccl's ext-profiler/example at tag v2.28.9-1 (the NCCL of the machine's
# PyTorch), built here and carried:
#   git -C NCCL archive v2.28.9-1 ext-profiler/example | tar -x -C /tmp/p
#   (cd /tmp/p/ext-profiler/example && g++ -O2 -Inccl -I/usr/local/cuda/include -fPIC -shared -o libnccl-profiler-example.so *.cc)
#   mkdir -p .devcarry/ncclprof && cp /tmp/p/ext-profiler/example/libnccl-profiler-example.so .devcarry/ncclprof/
# Then: run(command="bash bench/ncclprof_samples.sh $OUT", carry=[".devcarry"]).
set -u
out=$(mkdir -p "$1" && cd "$1" && pwd)
work=/tmp/ncclprof_samples; rm -rf "$work"; mkdir -p "$work"
exec > >(tee -a "$out/log.txt") 2>&1
so=$(pwd)/.devcarry/ncclprof/libnccl-profiler-example.so
[ -f "$so" ] || { echo "no $so: build it first (see the top of this script)"; exit 1; }
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME=lo PYTHONUNBUFFERED=1
{ date -u; nvidia-smi -L; nvidia-smi --query-gpu=driver_version --format=csv,noheader
  python3 -c 'import torch; print("torch", torch.__version__, "nccl", ".".join(map(str, torch.cuda.nccl.version())))'
} > "$work/environment.txt" 2>&1
cat "$work/environment.txt"
TR="python3 -m torch.distributed.run --standalone"
job() { # NAME RANKS MASK SCRIPT ARGS...  (MASK "-": NCCL_PROFILE_EVENT_MASK unset)
  local name=$1 n=$2 mask=$3 script=$4; shift 4
  local t=$SECONDS
  mkdir -p "$work/$name"
  (
    export NCCL_PROFILER_PLUGIN="$so" NCCL_PROFILE_DUMP_FILE="$work/$name/prof"
    [ "$mask" != - ] && export NCCL_PROFILE_EVENT_MASK="$mask"
    timeout -k 10 150 $TR --nproc-per-node "$n" "$script" "$@" > "$work/$name/console.txt" 2>&1
  )
  echo "== $name: status $?, $((SECONDS - t)) s"
  grep -E "step |Traceback|Error|PROFILER" "$work/$name/console.txt" | head -20
  ls -l "$work/$name"
}
job ddp2 2 64 bench/import_samples_train.py --out "$work/ddp2" --mode ddp --steps 8 --sleep-steps 3,5
job ddp4 4 64 bench/import_samples_train.py --out "$work/ddp4" --mode ddp --steps 8 --sleep-steps 3,5
job pipeline2 2 64 examples/profile/train_pipeline.py --steps 4 --straggler-rank 1 --straggler-ms 300
job unmasked2 2 - bench/import_samples_train.py --out "$work/unmasked2" --mode ddp --steps 3
# the ShardLab CLI, where it was carried, reads them at once (the check; the tests read the copies)
if [ -x build/carry-compute/bin/shardlab ] || [ -n "${SHARDLAB:-}" ]; then
  for d in ddp2 ddp4 pipeline2 unmasked2; do
    echo "== shardlab import $d"
    ${SHARDLAB:-build/carry-compute/bin/shardlab} import "$work/$d"/prof_* 2>&1 | tail -30
  done
fi
tar -C "$work" -czf "$out/ncclprof.tar.gz" . && ls -l "$out"
