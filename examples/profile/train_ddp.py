#!/usr/bin/env python3
"""A small data-parallel training job for `shardlab profile -- torchrun ...` (docs/profiling.md).

One process per rank (torchrun sets RANK, LOCAL_RANK and WORLD_SIZE; ranks share GPUs when there are
more ranks than GPUs, dist_common.py); NCCL backend; a small
multi-layer perceptron wrapped in DistributedDataParallel, whose gradients are all-reduced in
buckets of --bucket-mb MB while the backward pass runs. Each rank trains on its own random batch
(its shard of the data), so the loss differs by rank but the weights stay equal: checked at the
end by all-reducing a checksum of the parameters. Prints each rank's GPU, then per step rank 0's
step time and loss, and the median step time. Runs on one GPU too (a one-rank group).

    torchrun --standalone --nproc-per-node 2 train_ddp.py [--steps 8] [--batch 64] [--width 4096] [--layers 4]
        [--straggler-rank R --straggler-ms MS]
    shardlab profile -- torchrun --standalone --nproc-per-node 2 train_ddp.py

Exit status: 0, 1 when the replicas' weights differ or PyTorch is missing, 3 when there is no GPU (as
the CUDA examples).
"""
import argparse
import os
import statistics
import sys
import time

from dist_common import add_common_args, check_common_args, setup, straggle


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--warmup", type=int, default=3, help="first steps left out of the median (default 3)")
    p.add_argument("--batch", type=int, default=64, help="samples per rank and step (default 64)")
    p.add_argument("--width", type=int, default=4096, help="hidden width of the perceptron (default 4096)")
    p.add_argument("--layers", type=int, default=4, help="hidden layers (default 4)")
    p.add_argument("--norm", action="store_true",
                   help="a BatchNorm after the first layer: its running statistics are buffers, which DDP broadcasts "
                        "from rank 0 at every forward")
    p.add_argument("--bucket-mb", type=float, default=25, help="DDP gradient bucket size in MB (default 25, DDP's own)")
    a = p.parse_args()
    check_common_args(p, a)
    for name in ("batch", "width", "layers"):
        if getattr(a, name) < 1:
            p.error(f"--{name} must be at least 1")
    if a.warmup < 0 or a.warmup >= a.steps:
        p.error("--warmup must be from 0 to --steps - 1")
    if a.bucket_mb <= 0:
        p.error("--bucket-mb must be positive")
    return a


def main():
    args = parse_args()
    torch, dist, rank, world, device = setup("train_ddp.py")
    import torch.nn as nn
    from torch.nn.parallel import DistributedDataParallel
    local_rank = device.index

    torch.manual_seed(0)  # the same initial weights on every rank (DDP also broadcasts rank 0's)
    layers = []
    for i in range(args.layers):
        layers += [nn.Linear(args.width, args.width)] + ([nn.BatchNorm1d(args.width)] if args.norm and i == 0 else [])
        layers += [nn.ReLU()]
    model = nn.Sequential(*layers, nn.Linear(args.width, 1)).to(device)
    ddp = DistributedDataParallel(model, device_ids=[local_rank], bucket_cap_mb=args.bucket_mb)
    optimizer = torch.optim.SGD(ddp.parameters(), lr=1e-4)
    params = sum(p.numel() for p in model.parameters())
    if rank == 0:
        print(f"model: {params} parameters ({params * 4 / 1e6:.1f} MB of float32 gradients, all-reduced in buckets of "
              f"{args.bucket_mb:g} MB); {args.batch} samples per rank and step", flush=True)

    gen = torch.Generator(device=device).manual_seed(1000 + rank)  # each rank its own data shard
    times = []
    for step in range(args.steps):
        torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        straggle(args, rank)
        x = torch.randn(args.batch, args.width, device=device, generator=gen)
        y = torch.randn(args.batch, 1, device=device, generator=gen)
        optimizer.zero_grad(set_to_none=True)
        loss = nn.functional.mse_loss(ddp(x), y)
        loss.backward()  # DDP all-reduces each bucket of gradients as it fills
        optimizer.step()
        torch.cuda.synchronize(device)
        ms = (time.perf_counter() - t0) * 1e3
        times.append(ms)
        if rank == 0:
            print(f"step {step}: {ms:.2f} ms, loss {loss.item():.4f} (rank 0's)", flush=True)

    # Replicas must still be equal: every rank's parameter checksum, all-reduced (max and min).
    checksum = torch.stack([p.detach().double().sum() for p in model.parameters()]).sum().reshape(1)
    hi, lo = checksum.clone(), checksum.clone()
    dist.all_reduce(hi, op=dist.ReduceOp.MAX)
    dist.all_reduce(lo, op=dist.ReduceOp.MIN)
    same = bool(hi.item() == lo.item())
    if rank == 0:
        timed = times[args.warmup:]
        print(f"median step {statistics.median(timed):.2f} ms over steps {args.warmup}-{args.steps - 1} "
              f"(rank 0, host wall clock, GPU synchronized)")
        print("replicas agree: every rank ends with the same weights" if same
              else f"replicas DIFFER: parameter checksums from {lo.item()!r} to {hi.item()!r}")
    dist.destroy_process_group()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
