#!/usr/bin/env python3
"""Runs a PyTorch training script under torch.profiler on each rank and writes each rank's
Kineto trace (gzip) to OUT/kineto_rank<R>.json.gz: the samples of tests/import/data/kineto for
jobs whose scripts do not profile themselves (examples/profile/train_*.py). Under torchrun:

    python3 -m torch.distributed.run --standalone --nproc-per-node 2 bench/kineto_wrap.py \
        --out DIR examples/profile/train_fsdp.py --steps 4 --straggler-rank 1 --straggler-ms 300

The whole script is profiled (CPU and CUDA activities, no schedule); the trace is exported after
the script returns (its process group already destroyed; the rank comes from RANK)."""
import gzip
import os
import runpy
import shutil
import sys


def main():
    if len(sys.argv) < 4 or sys.argv[1] != "--out":
        sys.exit("usage: kineto_wrap.py --out DIR SCRIPT [ARGS...]")
    out, script, args = sys.argv[2], sys.argv[3], sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    import torch
    from torch.profiler import ProfilerActivity, profile
    rank = int(os.environ.get("RANK", "0"))
    sys.argv = [script] + args
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))  # the script's own imports (dist_common)
    status = 0
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        try:
            runpy.run_path(script, run_name="__main__")
        except SystemExit as e:
            status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    plain = os.path.join(out, f"kineto_rank{rank}.json")
    prof.export_chrome_trace(plain)
    with open(plain, "rb") as f, gzip.open(plain + ".gz", "wb", compresslevel=9) as g:
        shutil.copyfileobj(f, g)
    os.remove(plain)
    print(f"rank {rank}: {plain}.gz, script status {status}", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
