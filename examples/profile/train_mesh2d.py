#!/usr/bin/env python3
"""A small 2-D parallel job, tensor parallel inside data parallel, on a DeviceMesh
(`init_device_mesh`), for `shardlab profile -- torchrun ...` (docs/profiling.md).

The ranks form a --dp x (world / --dp) mesh ("dp", "tp"): each row of the mesh is one tensor-
parallel group, each column one data-parallel group, and PyTorch makes one NCCL communicator for
each. The model is Megatron's MLP block, --layers times: the first linear split by columns, the
second by rows, so that each block's forward all-reduces its output within the TP group and its
backward all-reduces its input's gradient there; after the backward, each rank all-reduces its
gradient shards within its DP group. Each DP replica trains on its own random batch (the same
within a TP group). At the end the weight shards are compared across each DP group (exit 1 if they
differ).

    torchrun --standalone --nproc-per-node 4 train_mesh2d.py [--dp 2] [--steps 8] [--width 256]
        [--straggler-rank R --straggler-ms MS]
"""
import argparse
import sys
import time

from dist_common import add_common_args, check_common_args, setup, straggle


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--dp", type=int, default=2, help="data-parallel size; the tensor-parallel size is the rest (default 2)")
    p.add_argument("--batch", type=int, default=32, help="samples per replica and step (default 32)")
    p.add_argument("--width", type=int, default=256, help="model width (default 256; the hidden layer is 4 times it)")
    p.add_argument("--layers", type=int, default=2, help="MLP blocks (default 2)")
    args = p.parse_args()
    check_common_args(p, args)
    for name in ("dp", "batch", "width", "layers"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be at least 1")
    torch, dist, rank, world, device = setup("train_mesh2d.py")
    if world % args.dp != 0:
        p.error(f"--dp {args.dp} does not divide the {world} ranks")
    tp = world // args.dp
    if (4 * args.width) % tp != 0:
        p.error(f"the hidden width {4 * args.width} does not split over {tp} tensor-parallel ranks")
    from torch.distributed.device_mesh import init_device_mesh

    mesh = init_device_mesh("cuda", (args.dp, tp), mesh_dim_names=("dp", "tp"))
    tp_group, dp_group = mesh.get_group("tp"), mesh.get_group("dp")
    dp_rank = mesh.get_local_rank("dp")

    class AllReduceForward(torch.autograd.Function):  # Megatron's g: sum in forward, identity backward
        @staticmethod
        def forward(ctx, x):
            dist.all_reduce(x, group=tp_group)
            return x

        @staticmethod
        def backward(ctx, g):
            return g

    class AllReduceBackward(torch.autograd.Function):  # Megatron's f: identity forward, sum backward
        @staticmethod
        def forward(ctx, x):
            return x.clone()

        @staticmethod
        def backward(ctx, g):
            g = g.contiguous()
            dist.all_reduce(g, group=tp_group)
            return g

    hidden = 4 * args.width // tp
    torch.manual_seed(0)  # the same full weights everywhere; each rank keeps its TP shard
    params = []
    for _ in range(args.layers):
        w1 = torch.randn(args.width, 4 * args.width, device=device) / args.width ** 0.5
        w2 = torch.randn(4 * args.width, args.width, device=device) / (4 * args.width) ** 0.5
        t = mesh.get_local_rank("tp")
        params += [w1[:, t * hidden:(t + 1) * hidden].clone().requires_grad_(),
                   w2[t * hidden:(t + 1) * hidden, :].clone().requires_grad_()]
    optimizer = torch.optim.SGD(params, lr=1e-3)
    gen = torch.Generator(device=device).manual_seed(1000 + dp_rank)
    for step in range(args.steps):
        torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        straggle(args, rank)
        x = torch.randn(args.batch, args.width, device=device, generator=gen)
        y = torch.randn(args.batch, args.width, device=device, generator=gen)
        optimizer.zero_grad(set_to_none=True)
        h = x
        for i in range(args.layers):
            h = AllReduceBackward.apply(h)
            h = torch.relu(h @ params[2 * i]) @ params[2 * i + 1]
            h = AllReduceForward.apply(h)
        loss = torch.nn.functional.mse_loss(h, y)
        loss.backward()
        for prm in params:  # data parallel: the gradient shards averaged over the DP group
            dist.all_reduce(prm.grad, group=dp_group)
            prm.grad /= args.dp
        optimizer.step()
        torch.cuda.synchronize(device)
        if rank == 0:
            print(f"step {step}: {(time.perf_counter() - t0) * 1e3:.2f} ms, loss {loss.item():.4f} (rank 0's)", flush=True)
    checksum = torch.stack([prm.detach().double().sum() for prm in params]).sum().reshape(1)
    hi, lo = checksum.clone(), checksum.clone()
    dist.all_reduce(hi, op=dist.ReduceOp.MAX, group=dp_group)
    dist.all_reduce(lo, op=dist.ReduceOp.MIN, group=dp_group)
    same = bool(hi.item() == lo.item())
    print(f"rank {rank}: " + ("its shard agrees with its DP group's" if same else "its shard DIFFERS within its DP group"),
          flush=True)
    dist.destroy_process_group()
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
