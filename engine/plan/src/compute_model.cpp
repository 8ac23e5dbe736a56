// docs/planner.md, "Compute": the accelerators' figures and the GEMM model.
#include "shardlab/plan/compute_model.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace shardlab {

namespace {

// Dense tensor-core peaks from NVIDIA's datasheets (bf16/fp16 and fp8 without sparsity).
// Efficiencies: the share of that peak cuBLAS reaches on large bf16 GEMMs and FlashAttention on
// training shapes. A100: Dao 2023 (FlashAttention-2, section 4: 50-73 % of the peak forward, lower
// backward). Hopper: measured on this project's H200 (resources/compute/h200.json, 2026-12-04:
// cuBLAS 600-810 TFLOP/s on large bf16 GEMMs, 0.61-0.82 of the peak; PyTorch's FlashAttention-2
// 90-340 TFLOP/s, 0.09-0.34, rising with sequence length and heads, so 0.30). They apply where no
// measured calibration of the GPU is shipped (compute_calibration.h; resources/compute/h200.json,
// h100.json), and for attention where the shipped file has no attention rows (h100.json).
struct Row {
    const char* match;
    AcceleratorSpec spec;
};

const std::array<Row, 6>& table()
{
    static const std::array<Row, 6> rows{{
        {"B200", {"B200", 2250, 4500, 148, 8000, 0.72, 0.30, 0.85, "NVIDIA B200 datasheet (dense bf16 2.25 PFLOP/s)"}},
        {"H200",
         {"H200", 989, 1979, 132, 4800, 0.72, 0.30, 0.85, "NVIDIA H200 datasheet (dense bf16 989 TFLOP/s, 4.8 TB/s)"}},
        {"H100",
         {"H100", 989, 1979, 132, 3350, 0.72, 0.30, 0.85,
          "NVIDIA H100 SXM5 datasheet (dense bf16 989 TFLOP/s, 3.35 TB/s)"}},
        {"A100",
         {"A100", 312, 0, 108, 2039, 0.80, 0.60, 0.85, "NVIDIA A100 SXM4 datasheet (bf16 312 TFLOP/s, 2.0 TB/s)"}},
        {"V100", {"V100", 125, 0, 80, 900, 0.75, 0.45, 0.85, "NVIDIA V100 SXM2 datasheet (fp16 125 TFLOP/s)"}},
        {"P100",
         {"P100", 21.2, 0, 56, 732, 0.75, 0.45, 0.85,
          "NVIDIA P100 SXM2 datasheet (fp16 21.2 TFLOP/s, no tensor cores)"}},
    }};
    return rows;
}

} // namespace

AcceleratorSpec acceleratorOf(const Gpu& gpu)
{
    for (const Row& row : table())
        if (gpu.name.find(row.match) != std::string::npos)
            return row.spec;
    AcceleratorSpec spec;
    spec.name = gpu.name;
    spec.bf16Tflops = gpu.tflops;
    spec.sms = 0; // unknown: no wave quantisation
    spec.hbmGBps = gpu.memBandwidthGBps > 0 ? gpu.memBandwidthGBps : 1000;
    spec.gemmEfficiency = 0.75;
    spec.attentionEfficiency = 0.5;
    spec.source = "the topology's own figures for " + gpu.name;
    return spec;
}

ComputeModel::ComputeModel(AcceleratorSpec spec, Precision precision, std::optional<ComputeCalibration> calibration)
    : m_spec(std::move(spec)), m_precision(precision), m_calibration(std::move(calibration))
{
}

double ComputeModel::peakFlops() const
{
    const double tflops = m_precision == Precision::Fp8 && m_spec.fp8Tflops > 0 ? m_spec.fp8Tflops : m_spec.bf16Tflops;
    return tflops * 1e12;
}

double ComputeModel::gemmUs(double m, double n, double k) const
{
    if (m <= 0 || n <= 0 || k <= 0)
        return 0;
    const double model = shapeModelUs(m, n, k);
    if (!m_calibration)
        return model;
    const std::vector<GemmPoint>& points = m_precision == Precision::Fp8 && !m_calibration->gemmFp8.empty()
                                               ? m_calibration->gemmFp8
                                               : m_calibration->gemmBf16;
    const GemmPoint* nearest = nullptr;
    double best = 0;
    for (const GemmPoint& p : points) {
        const double d =
            std::pow(std::log(m / p.m), 2) + std::pow(std::log(n / p.n), 2) + std::pow(std::log(k / p.k), 2);
        if (!nearest || d < best) {
            nearest = &p;
            best = d;
        }
    }
    if (!nearest)
        return model;
    const double measuredUs = 2 * nearest->m * nearest->n * nearest->k / (nearest->tflops * 1e12) * 1e6;
    return model * measuredUs / shapeModelUs(nearest->m, nearest->n, nearest->k);
}

double ComputeModel::shapeModelUs(double m, double n, double k) const
{
    const double flops = 2 * m * n * k;
    double waveShare = 1;
    if (m_spec.sms > 0) {
        // output tiles of 128 x 128; the last wave of them may leave SMs idle
        const double tiles = std::ceil(m / 128) * std::ceil(n / 128);
        const double waves = std::ceil(tiles / m_spec.sms);
        waveShare = tiles / (waves * m_spec.sms);
    }
    const double computeUs = flops / (peakFlops() * m_spec.gemmEfficiency * waveShare) * 1e6;
    const double elementBytes = m_precision == Precision::Fp8 ? 1 : 2;
    const double memoryUs =
        (m * k + k * n + m * n) * elementBytes / (m_spec.hbmGBps * 1e9 * m_spec.memoryEfficiency) * 1e6;
    return std::max(computeUs, memoryUs);
}

double ComputeModel::attentionForwardUs(double tokens, double context, double heads, double headDim, bool flash) const
{
    if (tokens <= 0 || heads <= 0)
        return 0;
    // bf16 always: FlashAttention in fp8 is not what the training runs cited use.
    const double peak = m_spec.bf16Tflops * 1e12;
    if (flash) { // QK^T and PV, 2 * tokens * context * headDim each per head, half under the causal mask
        const double flops = 2 * tokens * context * headDim * heads;
        if (const AttentionPoint* p = nearestAttention(context, heads))
            return flops / (p->forwardTflops * 1e12) * 1e6;
        return flops / (peak * m_spec.attentionEfficiency) * 1e6;
    }
    // Without it the full s x s scores are computed, masked, and pass through the softmax in memory:
    // written by QK^T, read and written by the softmax, read by PV: 2 bytes each (8 per score).
    const ComputeModel bf16(m_spec, Precision::Bf16);
    const double gemms = heads * (bf16.gemmUs(tokens, context, headDim) + bf16.gemmUs(tokens, headDim, context));
    return gemms + memoryBoundUs(8 * heads * tokens * context);
}

double ComputeModel::attentionBackwardUs(double tokens, double context, double heads, double headDim, bool flash) const
{
    if (!flash)
        return 2 * attentionForwardUs(tokens, context, heads, headDim, false);
    if (const AttentionPoint* p = nearestAttention(context, heads))
        return 2.5 * 2 * tokens * context * headDim * heads / (p->backwardTflops * 1e12) * 1e6;
    return 2.5 * attentionForwardUs(tokens, context, heads, headDim, true);
}

const AttentionPoint* ComputeModel::nearestAttention(double context, double heads) const
{
    if (!m_calibration)
        return nullptr;
    const AttentionPoint* nearest = nullptr;
    double best = 0;
    for (const AttentionPoint& p : m_calibration->attention) {
        const double d = std::pow(std::log(context / p.seq), 2) + std::pow(std::log(std::max(1.0, heads) / p.heads), 2);
        if (!nearest || d < best) {
            nearest = &p;
            best = d;
        }
    }
    return nearest;
}

double ComputeModel::memoryBoundUs(double bytes) const
{
    if (m_calibration && m_calibration->copyGBps > 0)
        return bytes / (m_calibration->copyGBps * 1e9) * 1e6;
    return bytes / (m_spec.hbmGBps * 1e9 * m_spec.memoryEfficiency) * 1e6;
}

} // namespace shardlab
