#!/usr/bin/env bash
# The Kineto samples of tests/import/data/kineto/{fsdp2,pipeline2,mesh4} (README.md there), made on
# the GPU machine with ranks sharing its one GPU: OUT=DIR bash bench/kineto_jobs.sh
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1 PYTHONUNBUFFERED=1
run() { # NAME RANKS SCRIPT ARGS
  local name=$1 n=$2 script=$3; shift 3
  local t0=$SECONDS
  timeout 150 python3 -m torch.distributed.run --standalone --nproc-per-node "$n" bench/kineto_wrap.py --out "$OUT/$name" \
    "examples/profile/$script" "$@" > "$OUT/$name.console.txt" 2>&1
  echo "== $name: status $?, $((SECONDS - t0)) s"; tail -4 "$OUT/$name.console.txt"; ls -la "$OUT/$name"
}
run fsdp2 2 train_fsdp.py --steps 4 --straggler-rank 1 --straggler-ms 300
run pipeline2 2 train_pipeline.py --steps 4 --straggler-rank 1 --straggler-ms 300
run mesh4 4 train_mesh2d.py --steps 4 --straggler-rank 1 --straggler-ms 300
