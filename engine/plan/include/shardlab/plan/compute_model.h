// How long a GPU takes for the pieces of a transformer layer: GEMMs by shape, attention, and the
// memory-bound element-wise work between them. docs/planner.md, "Compute".
//
// GEMM [M,K] x [K,N] (2MNK FLOP): the tensor cores' rate times the library's best efficiency,
// times the share of the last wave of output tiles that is full (tiles of 128 x 256 on the GPU's
// SMs), and never faster than reading both inputs and writing the output through HBM:
//   t = max(2MNK / (peak * eta * waves_full / waves), (MK + KN + MN) * bytes / HBM).
// Attention: FlashAttention's FLOPs at its own efficiency; without it, two batched GEMMs and the
// softmax's memory traffic over the s*s scores.
// With a calibration (compute_calibration.h) a GEMM takes the time of the shape model scaled by
// measured / modelled at the nearest measured shape (nearest in log m, log n, log k); FlashAttention
// runs at the TFLOP/s measured at the nearest sequence length and head count; element-wise work at
// the measured copy bandwidth.
#pragma once

#include "shardlab/model/topology.h"
#include "shardlab/plan/compute_calibration.h"
#include "shardlab/plan/training.h"

#include <optional>
#include <string>

namespace shardlab {

struct AcceleratorSpec {
    std::string name;      // the GPU model it matched ("A100", "H100", ...)
    double bf16Tflops = 0; // dense tensor-core peak
    double fp8Tflops = 0;  // 0: no fp8 tensor cores
    int sms = 0;           // streaming multiprocessors
    double hbmGBps = 0;
    double gemmEfficiency = 0;      // share of the peak a large GEMM reaches (cuBLAS)
    double attentionEfficiency = 0; // share of the peak FlashAttention reaches (forward and backward)
    double memoryEfficiency = 0.85; // share of HBM bandwidth element-wise kernels reach
    std::string source;
};
// The spec of a topology GPU, matched by its device name (A100, H100, H200, B200, V100, P100...);
// an unknown device keeps its own TFLOP/s and HBM figures with the generic efficiencies.
AcceleratorSpec acceleratorOf(const Gpu& gpu);

class ComputeModel {
public:
    ComputeModel(AcceleratorSpec spec, Precision precision, std::optional<ComputeCalibration> calibration = {});
    const AcceleratorSpec& spec() const { return m_spec; }
    const std::optional<ComputeCalibration>& calibration() const { return m_calibration; }
    double peakFlops() const; // FLOP/s of the precision's tensor cores

    double gemmUs(double m, double n, double k) const;
    // Causal attention of `tokens` queries over `context` keys, `heads` heads of `headDim`, forward.
    double attentionForwardUs(double tokens, double context, double heads, double headDim, bool flash) const;
    // Its backward pass: FlashAttention's five GEMMs against the forward's two (2.5 times, the scores
    // recomputed), otherwise twice the forward's work.
    double attentionBackwardUs(double tokens, double context, double heads, double headDim, bool flash) const;
    // Element-wise work that reads and writes `bytes` in all.
    double memoryBoundUs(double bytes) const;

private:
    double shapeModelUs(double m, double n, double k) const;
    const AttentionPoint* nearestAttention(double context, double heads) const;
    AcceleratorSpec m_spec;
    Precision m_precision;
    std::optional<ComputeCalibration> m_calibration;
};

} // namespace shardlab
