#!/usr/bin/env python3
"""The small DDP-like job behind tests/import/data (issue 28, "Real files"); run by
bench/make_import_samples.sh under torchrun, ranks sharing the GPU (examples/profile/dist_common.py).

A perceptron (--width, --layers) trained for --steps steps on random data, rank --straggler-rank
sleeping --sleep-ms on the host at the start of each step listed in --sleep-steps (inside a
record_function "straggler_sleep", so a Kineto trace shows it).

  --mode ddp   DistributedDataParallel (its gradient buckets all-reduced during backward). With
               --kineto, torch.profiler records steps wait+warmup .. wait+warmup+active-1 (schedule
               wait=1, warmup=1, active=4: ProfilerStep#2..#5) and writes OUT/kineto_rank<R>.json.
               At the end every rank dumps its Flight Recorder (OUT/fr_rank<R>.pkl, .json) when
               TORCH_FR_BUFFER_SIZE is set.
  --mode hang  the same perceptron without DDP: after backward, one all_reduce of the flattened
               gradients per step; rank --straggler-rank SKIPS that all_reduce at step --skip-step,
               so every later one pairs with the others' previous one and the others' last one never
               completes: their watchdog times out after --timeout-s (TORCH_NCCL_DUMP_ON_TIMEOUT
               dumps there). --dump-after-s seconds after its loop every rank also dumps explicitly
               (OUT/fr_hang_rank<R>.pkl, .json), while the others still wait.
"""
import argparse
import datetime
import os
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples", "profile"))


def parse_args():
    p = argparse.ArgumentParser()
    p.add_argument("--mode", choices=("ddp", "hang"), default="ddp")
    p.add_argument("--out", required=True)
    p.add_argument("--steps", type=int, default=8)
    p.add_argument("--width", type=int, default=256)
    p.add_argument("--layers", type=int, default=3)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--bucket-mb", type=float, default=0.25)
    p.add_argument("--straggler-rank", type=int, default=1)
    p.add_argument("--sleep-ms", type=float, default=300.0)
    p.add_argument("--sleep-steps", default="3,5")
    p.add_argument("--kineto", action="store_true")
    p.add_argument("--skip-step", type=int, default=4)
    p.add_argument("--timeout-s", type=float, default=20.0)
    p.add_argument("--dump-after-s", type=float, default=8.0)
    a = p.parse_args()
    a.sleep_set = {int(s) for s in a.sleep_steps.split(",") if s.strip()}
    return a


def dump_fr(torch, out, stem, rank):
    """Writes this rank's Flight Recorder as pickle (stack traces included) and JSON; says what failed."""
    c10d = torch._C._distributed_c10d
    done = []
    try:
        try:
            data = c10d._dump_nccl_trace(includeCollectives=True, includeStackTraces=True, onlyActive=False)
        except TypeError:
            data = c10d._dump_nccl_trace()
        with open(os.path.join(out, f"{stem}_rank{rank}.pkl"), "wb") as f:
            f.write(data)
        done.append(f"pkl {len(data)} B")
    except Exception as e:  # noqa: BLE001
        done.append(f"pkl FAILED: {type(e).__name__}: {e}")
    try:
        fn = getattr(c10d, "_dump_nccl_trace_json")
        try:
            text = fn(includeCollectives=True, onlyActive=False)
        except TypeError:
            text = fn()
        with open(os.path.join(out, f"{stem}_rank{rank}.json"), "w") as f:
            f.write(text if isinstance(text, str) else text.decode())
        done.append(f"json {len(text)} B")
    except Exception as e:  # noqa: BLE001
        done.append(f"json FAILED: {type(e).__name__}: {e}")
    print(f"rank {rank}: flight recorder {stem}: " + "; ".join(done), flush=True)


def main():
    a = parse_args()
    os.makedirs(a.out, exist_ok=True)
    import torch
    import torch.distributed as dist
    orig_init = dist.init_process_group

    def init_with_timeout(*args, **kw):  # dist_common.setup's init, with our timeout
        kw.setdefault("timeout", datetime.timedelta(seconds=a.timeout_s))
        return orig_init(*args, **kw)

    dist.init_process_group = init_with_timeout
    from dist_common import setup
    torch, dist, rank, world, device = setup("import_samples_train.py")
    import torch.nn as nn
    from torch.autograd.profiler import record_function

    torch.manual_seed(0)
    layers = []
    for _ in range(a.layers):
        layers += [nn.Linear(a.width, a.width), nn.ReLU()]
    model = nn.Sequential(*layers, nn.Linear(a.width, 1)).to(device)
    if a.mode == "ddp":
        from torch.nn.parallel import DistributedDataParallel
        net = DistributedDataParallel(model, device_ids=[device.index], bucket_cap_mb=a.bucket_mb)
    else:
        net = model
        for p in model.parameters():  # equal start without DDP's broadcast
            dist.broadcast(p.data, 0)
    opt = torch.optim.SGD(net.parameters(), lr=1e-4)
    gen = torch.Generator(device=device).manual_seed(1000 + rank)

    prof = None
    if a.kineto:
        from torch.profiler import ProfilerActivity, profile, schedule

        def ready(p):
            path = os.path.join(a.out, f"kineto_rank{rank}.json")
            p.export_chrome_trace(path)
            print(f"rank {rank}: wrote {path} ({os.path.getsize(path)} B)", flush=True)

        prof = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],
                       schedule=schedule(wait=1, warmup=1, active=4, repeat=1), on_trace_ready=ready)
        prof.start()

    last_work = None
    t_start = time.time()
    for step in range(a.steps):
        torch.cuda.synchronize(device) if a.mode == "ddp" else None
        t0 = time.perf_counter()
        if rank == a.straggler_rank and step in a.sleep_set and a.sleep_ms > 0:
            with record_function("straggler_sleep"):
                time.sleep(a.sleep_ms / 1e3)
        x = torch.randn(a.batch, a.width, device=device, generator=gen)
        y = torch.randn(a.batch, 1, device=device, generator=gen)
        opt.zero_grad(set_to_none=True)
        loss = nn.functional.mse_loss(net(x), y)
        loss.backward()
        if a.mode == "hang":
            grads = [p.grad for p in model.parameters()]
            flat = torch.cat([g.reshape(-1) for g in grads])
            if rank == a.straggler_rank and step == a.skip_step:
                print(f"rank {rank}: step {step}: SKIPS its gradient all_reduce", flush=True)
            else:
                last_work = dist.all_reduce(flat, async_op=True)
                last_work.wait()  # stream order only (no host block)
            flat /= world
            off = 0
            for g in grads:
                g.copy_(flat[off:off + g.numel()].view_as(g))
                off += g.numel()
        opt.step()
        if a.mode == "ddp":
            torch.cuda.synchronize(device)
            if rank == 0:
                print(f"step {step}: {(time.perf_counter() - t0) * 1e3:.2f} ms (rank 0)", flush=True)
        if prof is not None:
            prof.step()
    if prof is not None:
        prof.stop()

    if a.mode == "ddp":
        checksum = torch.stack([p.detach().double().sum() for p in model.parameters()]).sum().reshape(1)
        hi, lo = checksum.clone(), checksum.clone()
        dist.all_reduce(hi, op=dist.ReduceOp.MAX)
        dist.all_reduce(lo, op=dist.ReduceOp.MIN)
        torch.cuda.synchronize(device)
        if rank == 0:
            print("replicas agree" if hi.item() == lo.item() else "replicas DIFFER", flush=True)
        if os.environ.get("TORCH_FR_BUFFER_SIZE") or os.environ.get("TORCH_NCCL_TRACE_BUFFER_SIZE"):
            dump_fr(torch, a.out, "fr", rank)
        dist.destroy_process_group()
        return 0

    # hang: an explicit dump while the others still wait, then wait for the watchdog
    print(f"rank {rank}: loop issued in {time.time() - t_start:.2f} s; waiting", flush=True)
    timer = threading.Timer(a.dump_after_s, dump_fr, args=(torch, a.out, "fr_hang", rank))
    timer.start()
    deadline = time.time() + a.timeout_s + 40
    while time.time() < deadline:
        if last_work is not None and rank != a.straggler_rank and last_work.is_completed():
            print(f"rank {rank}: its last all_reduce completed (no hang?)", flush=True)
            break
        time.sleep(0.2)
    print(f"rank {rank}: still alive after the wait; exiting", flush=True)
    os._exit(0)


if __name__ == "__main__":
    sys.exit(main())
