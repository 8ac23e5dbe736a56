#!/usr/bin/env python3
"""A small pipeline-parallel job with plain `send`/`recv` for `shardlab profile -- torchrun ...`
(docs/profiling.md).

Each rank is one stage of the pipeline (one linear layer and a ReLU); each step splits the batch
into --micro micro-batches and runs them GPipe's way: every micro-batch's forward, stage to stage
(stage s receives its input from s-1 and sends its output to s+1), then every backward in reverse
(gradients from s+1 to s-1). The last stage computes the loss. Only point-to-point calls, no
collective, inside the steps. At the end the loss is checked to be finite (exit 1 if not).

    torchrun --standalone --nproc-per-node 2 train_pipeline.py [--steps 8] [--micro 4] [--width 256]
        [--straggler-rank R --straggler-ms MS]
"""
import argparse
import math
import sys
import time

from dist_common import add_common_args, check_common_args, setup, straggle


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_common_args(p)
    p.add_argument("--micro", type=int, default=4, help="micro-batches per step (default 4)")
    p.add_argument("--batch", type=int, default=16, help="samples per micro-batch (default 16)")
    p.add_argument("--width", type=int, default=256, help="width of each stage's layer (default 256)")
    args = p.parse_args()
    check_common_args(p, args)
    for name in ("micro", "batch", "width"):
        if getattr(args, name) < 1:
            p.error(f"--{name} must be at least 1")
    torch, dist, rank, world, device = setup("train_pipeline.py")
    if world < 2:
        p.error("a pipeline needs 2 or more ranks")
    first, last = rank == 0, rank == world - 1
    torch.manual_seed(rank)
    layer = torch.nn.Linear(args.width, args.width).to(device)
    optimizer = torch.optim.SGD(layer.parameters(), lr=1e-3)
    gen = torch.Generator(device=device).manual_seed(1000)
    shape = (args.batch, args.width)
    loss_sum = 0.0
    for step in range(args.steps):
        torch.cuda.synchronize(device)
        t0 = time.perf_counter()
        straggle(args, rank)
        optimizer.zero_grad(set_to_none=True)
        inputs, outputs = [], []
        for _ in range(args.micro):  # forwards
            if first:
                x = torch.randn(shape, device=device, generator=gen)
            else:
                x = torch.empty(shape, device=device)
                dist.recv(x, src=rank - 1)
                x.requires_grad_()
            out = torch.relu(layer(x))
            if not last:
                dist.send(out.detach().contiguous(), dst=rank + 1)
            inputs.append(x)
            outputs.append(out)
        step_loss = 0.0
        for m in reversed(range(args.micro)):  # backwards
            if last:
                loss = outputs[m].pow(2).mean() / args.micro
                loss.backward()
                step_loss += loss.item()
            else:
                g = torch.empty(shape, device=device)
                dist.recv(g, src=rank + 1)
                outputs[m].backward(g)
            if not first:
                dist.send(inputs[m].grad.contiguous(), dst=rank - 1)
        optimizer.step()
        torch.cuda.synchronize(device)
        if last:
            loss_sum += step_loss
            print(f"step {step}: {(time.perf_counter() - t0) * 1e3:.2f} ms, loss {step_loss:.5f} (last stage's)", flush=True)
    ok = math.isfinite(loss_sum) if last else True
    dist.destroy_process_group()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
