#!/usr/bin/env python3
"""A small fully sharded data-parallel job (FSDP2, `fully_shard`) for `shardlab profile -- torchrun ...`
(docs/profiling.md).

One process per rank (ranks share GPUs when there are more ranks than GPUs, dist_common.py); a
perceptron of --layers layers, each layer sharded on its own (fully_shard per layer, then the
root), so that every step all-gathers each layer's weights before its forward and again before its
backward, and reduce-scatters each layer's gradients after it. Each rank trains on its own random
batch. At the end every rank's full weights (gathered) are compared by a checksum (exit 1 if they
differ).

    torchrun --standalone --nproc-per-node 2 train_fsdp.py [--steps 8] [--width 256] [--layers 3]
        [--straggler-rank R --straggler-ms MS]
"""
import argparse
import sys
import time

from dist_common import add_common_args, check_common_args, setup, straggle


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--batch", type=int, default=32, help="samples per rank and step (default 32)")
    p.add_argument("--width", type=int, default=256, help="width of each layer (default 256)")
    p.add_argument("--layers", type=int, default=3, help="layers, each sharded on its own (default 3)")
    args = p.parse_args()
    check_common_args(p, args)
    for name in ("batch", "width", "layers"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be at least 1")
    torch, dist, rank, world, device = setup("train_fsdp.py")
    import torch.nn as nn
    from torch.distributed.fsdp import fully_shard

    torch.manual_seed(0)
    model = nn.Sequential(*[nn.Sequential(nn.Linear(args.width, args.width), nn.ReLU()) for _ in range(args.layers)],
                          nn.Linear(args.width, 1)).to(device)
    for layer in model[:-1]:
        fully_shard(layer)
    fully_shard(model)
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-3)
    gen = torch.Generator(device=device).manual_seed(1000 + rank)
    for step in range(args.steps):
        torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        straggle(args, rank)
        x = torch.randn(args.batch, args.width, device=device, generator=gen)
        y = torch.randn(args.batch, 1, device=device, generator=gen)
        optimizer.zero_grad(set_to_none=True)
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
        torch.cuda.synchronize(device)
        if rank == 0:
            print(f"step {step}: {(time.perf_counter() - t0) * 1e3:.2f} ms, loss {loss.item():.4f} (rank 0's)", flush=True)
    # Every rank holds a shard; the full weights (gathered) must be the same everywhere.
    full = torch.stack([prm.full_tensor().double().sum() for prm in model.parameters()]).sum().reshape(1)
    hi, lo = full.clone(), full.clone()
    dist.all_reduce(hi, op=dist.ReduceOp.MAX)
    dist.all_reduce(lo, op=dist.ReduceOp.MIN)
    same = bool(hi.item() == lo.item())
    if rank == 0:
        print("shards agree: the gathered weights are the same on every rank" if same
              else f"shards DIFFER: checksums from {lo.item()!r} to {hi.item()!r}")
    dist.destroy_process_group()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
