#!/usr/bin/env python3
"""Measure what the planner's compute model assumes (engine/plan/src/compute_model.cpp), on the GPU
of this machine: cuBLAS bf16 (and fp8 where the GPU has it) GEMMs of transformer shapes, causal
FlashAttention forward and backward, and element-wise HBM bandwidth. PyTorch drives cuBLAS and its
FlashAttention kernel; times are CUDA-event times of the median of 20 repetitions after warm-up.

    python3 bench/calibrate_compute.py OUT.json

Writes one JSON object (docs/planner.md, "Compute calibration"): the device, and rows of
{m, n, k, tflops} for the GEMMs, {seq, heads, head_dim, fwd_tflops, bwd_tflops} for attention
(causal FLOPs: 2*seq^2*heads*head_dim forward, 2.5 times that backward), {bytes, gbps} for copies.
"""
import json, sys, time
import torch
import torch.nn.functional as F


def timed(fn, reps=20, warmup=5):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record()
        b.synchronize()
        times.append(a.elapsed_time(b) / 1e3)
    times.sort()
    return times[len(times) // 2]


def main(out):
    dev = torch.cuda.get_device_properties(0)
    res = {"device": dev.name, "sms": dev.multi_processor_count, "torch": torch.__version__,
           "cuda": torch.version.cuda, "date": time.strftime("%Y-%m-%d"), "gemm_bf16": [], "gemm_fp8": [],
           "attention": [], "copy": []}
    sizes = [512, 1024, 2048, 4096, 8192, 16384]
    inner = [1024, 2048, 4096, 8192, 16384, 28672, 53248]
    for m in sizes:
        for n in inner:
            for k in inner:
                if m * n + n * k + m * k > 1.2e9 or 2 * m * n * k > 1e13:
                    continue
                a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
                b = torch.randn(k, n, device="cuda", dtype=torch.bfloat16)
                t = timed(lambda: a @ b)
                res["gemm_bf16"].append({"m": m, "n": n, "k": k, "tflops": 2 * m * n * k / t / 1e12})
                if hasattr(torch, "_scaled_mm") and dev.major >= 9 and m in (2048, 8192) and k in (4096, 16384):
                    try:
                        a8 = a.to(torch.float8_e4m3fn)
                        b8 = b.t().contiguous().to(torch.float8_e4m3fn).t()
                        one = torch.tensor(1.0, device="cuda")
                        t8 = timed(lambda: torch._scaled_mm(a8, b8, scale_a=one, scale_b=one, out_dtype=torch.bfloat16))
                        res["gemm_fp8"].append({"m": m, "n": n, "k": k, "tflops": 2 * m * n * k / t8 / 1e12})
                    except Exception as e:  # an fp8 path this PyTorch lacks: recorded, not fatal
                        res["fp8_error"] = str(e)[:200]
                del a, b
        print("gemm m", m, "done", flush=True)
    for seq in (2048, 4096, 8192, 16384):
        for heads in (8, 16, 32):
            d = 128
            q, k, v = (torch.randn(1, heads, seq, d, device="cuda", dtype=torch.bfloat16, requires_grad=True) for _ in range(3))
            with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.FLASH_ATTENTION):
                fwd = timed(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=True))
                o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
                g = torch.randn_like(o)
                both = timed(lambda: torch.autograd.grad(F.scaled_dot_product_attention(q, k, v, is_causal=True), (q, k, v), g))
            flops = 2 * seq * seq * heads * d  # causal: half of 4*seq^2*heads*d
            res["attention"].append({"seq": seq, "heads": heads, "head_dim": d, "fwd_tflops": flops / fwd / 1e12,
                                     "bwd_tflops": 2.5 * flops / max(both - fwd, 1e-9) / 1e12})
    for mb in (64, 256, 1024):
        x = torch.empty(mb * 2**20 // 2, device="cuda", dtype=torch.bfloat16)
        y = torch.empty_like(x)
        t = timed(lambda: y.copy_(x))
        res["copy"].append({"bytes": 2 * x.numel() * 2, "gbps": 2 * x.numel() * 2 / t / 1e9})
    json.dump(res, open(out, "w"), indent=1)
    print("wrote", out, len(res["gemm_bf16"]), "GEMMs", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
