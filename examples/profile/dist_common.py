"""What the PyTorch examples share (docs/profiling.md, "Programs to profile"): the job's set-up
under torchrun (one process per rank, NCCL backend), ranks that share GPUs, and the injected
straggler.

Ranks share the GPUs when there are more ranks than GPUs (rank r uses GPU r mod the GPUs seen:
4 ranks on one GPU, say). NCCL refuses two ranks of one communicator on one GPU of one host, so
each such rank is made a host of its own (NCCL_HOSTID=h<rank>) and talks to the others over
sockets on the loopback (P2P, shared memory and InfiniBand off): the collectives, their order and
their waits are those of a real job; only their speed is not a GPU fabric's.
"""
import argparse
import os
import sys
import time


def add_common_args(p):
    p.add_argument("--steps", type=int, default=8, help="training steps (default 8)")
    p.add_argument("--straggler-rank", type=int, default=-1,
                   help="the rank that sleeps --straggler-ms before each step's first collective (default -1: none)")
    p.add_argument("--straggler-ms", type=float, default=0.0, help="its sleep in ms per step (default 0)")


def check_common_args(p, a):
    if a.steps < 1:
        p.error("--steps must be at least 1")
    if a.straggler_ms < 0 or a.straggler_ms > 60000:
        p.error("--straggler-ms must be from 0 to 60000")


def setup(script):
    """Starts the job: returns (torch, dist, rank, world, device). Exits with status 3 where there is
    no GPU and 1 where PyTorch is missing (as the CUDA examples)."""
    try:
        import torch
        import torch.distributed as dist
    except ImportError as e:
        sys.exit(f"{script}: PyTorch is not installed here ({e}); it needs PyTorch with CUDA")
    if not torch.cuda.is_available() or torch.cuda.device_count() == 0:
        print(f"{script}: no GPU to run on (torch.cuda.is_available() is False); this script needs a CUDA GPU",
              file=sys.stderr)
        sys.exit(3)
    os.environ.setdefault("RANK", "0")
    os.environ.setdefault("LOCAL_RANK", "0")
    os.environ.setdefault("WORLD_SIZE", "1")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29511")
    local_rank = int(os.environ["LOCAL_RANK"])
    local_world = int(os.environ.get("LOCAL_WORLD_SIZE", os.environ["WORLD_SIZE"]))
    gpus = torch.cuda.device_count()
    if local_world > gpus:  # ranks share GPUs: each its own NCCL "host", sockets on the loopback
        os.environ["NCCL_HOSTID"] = f"h{os.environ['RANK']}"
        for var in ("NCCL_P2P_DISABLE", "NCCL_SHM_DISABLE", "NCCL_IB_DISABLE"):
            os.environ[var] = "1"
        os.environ.setdefault("NCCL_SOCKET_IFNAME", "lo")
    os.environ["NCCL_NVLS_ENABLE"] = "0"  # NVLink multicast stays off
    torch.cuda.set_device(local_rank % gpus)
    device = torch.device("cuda", local_rank % gpus)
    dist.init_process_group("nccl", device_id=device)
    rank, world = dist.get_rank(), dist.get_world_size()
    print(f"rank {rank} of {world}: GPU {local_rank % gpus} ({torch.cuda.get_device_name(device)})"
          + (f", sharing it with {local_world // gpus - 1} other rank(s)" if local_world > gpus else ""), flush=True)
    return torch, dist, rank, world, device


def straggle(args, rank):
    """The injected straggler: rank --straggler-rank sleeps --straggler-ms on the host."""
    if rank == args.straggler_rank and args.straggler_ms > 0:
        time.sleep(args.straggler_ms / 1e3)
