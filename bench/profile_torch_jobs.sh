#!/usr/bin/env bash
# Issue 30's real jobs on the GPU machine: every PyTorch example of examples/profile (DDP, FSDP,
# a 2-D TP x DP mesh, a send/recv pipeline) with 2 and 4 ranks sharing the GPU(s) under
# `shardlab profile`, rank 1 sleeping --straggler-ms before each step. DIR holds shardlab, its
# libraries (lib/, lib-base/), libshardlab_nccl_profiler.so and the examples' .py files; everything goes to
# OUT/jobs.tar.gz: per job its record folder (the .jsonl files), the profile's output, and
# `--resimulate` of its result where the profile succeeded.
#   bench/profile_torch_jobs.sh DIR OUT [STRAGGLER_MS]
set -u
dir=$(cd "$1" && pwd); out=$2; ms=${3:-100}
work=$(mktemp -d)
# shardlab's libraries (lib/; lib-base/ only where this machine lacks one) for shardlab alone: the
# jobs keep the machine's own.
for f in "$dir"/lib-base/*; do ldconfig -p | grep -q "$(basename "$f")" || cp "$f" "$dir/lib/"; done
keep=${LD_LIBRARY_PATH:-}
export QT_QPA_PLATFORM=offscreen
export SHARDLAB_NCCL_PROFILER=$dir/libshardlab_nccl_profiler.so
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
export NCCL_P2P_DISABLE=1 NCCL_SHM_DISABLE=1 NCCL_IB_DISABLE=1 NCCL_SOCKET_IFNAME=lo PYTHONUNBUFFERED=1
S=(env LD_LIBRARY_PATH="$dir/lib${keep:+:$keep}" "$dir/shardlab")
small="--steps 8 --straggler-rank 1 --straggler-ms $ms"
job() { # NAME RANKS SCRIPT ARGS...
  local name=$1 n=$2 script=$3; shift 3
  local t0=$SECONDS
  timeout 150 "${S[@]}" profile --out "$work/$name" -- env LD_LIBRARY_PATH="$keep" python3 -m torch.distributed.run --standalone --nproc-per-node "$n" "$dir/$script" $small "$@" \
    > "$work/$name.txt" 2>&1
  local rc=$?
  echo "== $name: status $rc, $((SECONDS - t0)) s" | tee -a "$work/summary.txt"
  grep -E "straggler|step time|disagree|shardlab:|agree|Traceback|Error" "$work/$name.txt" | head -8 | tee -a "$work/summary.txt"
  if [ -f "$work/$name/profile.shardlab-result.json" ]; then
    "${S[@]}" profile --resimulate "$work/$name/profile.shardlab-result.json" > "$work/$name.resim.txt" 2>&1
    echo "   resimulate: status $?" | tee -a "$work/summary.txt"
  fi
}
{ date -u; nvidia-smi -L; python3 -c 'import torch; print("torch", torch.__version__, "nccl", torch.cuda.nccl.version())'; } \
  > "$work/summary.txt" 2>&1
for n in 2 4; do
  job ddp$n $n train_ddp.py --warmup 1 --width 256 --layers 3 --batch 32 --norm --bucket-mb 0.25
  job fsdp$n $n train_fsdp.py
  job pipeline$n $n train_pipeline.py
done
job mesh4 4 train_mesh2d.py --dp 2
tar -C "$work" -czf "$out/jobs.tar.gz" .
cat "$work/summary.txt"
