// cuBLAS, opened at run time (dlopen, as NVML is): only `shardlab calibrate --compute` needs it, so
// live mode runs where cuBLAS is not installed. Types come from CUDA's header; no symbol is linked.
#pragma once

#include "shardlab/base/result.h"
#include "shardlab/model/gemm_shape.h"

#include <cublas_api.h>

#include <string>

namespace shardlab::live {

struct Cublas {
    void* library = nullptr;
    cublasHandle_t handle = nullptr;
    cublasStatus_t (*create)(cublasHandle_t*) = nullptr;
    cublasStatus_t (*destroy)(cublasHandle_t) = nullptr;
    cublasStatus_t (*setStream)(cublasHandle_t, cudaStream_t) = nullptr;
    cublasStatus_t (*getVersion)(cublasHandle_t, int*) = nullptr;
    cublasStatus_t (*gemmEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const void*,
                             const void*, cudaDataType, int, const void*, cudaDataType, int, const void*, void*,
                             cudaDataType, int, cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
    std::string version; // "cuBLAS 13.1.0"

    Cublas() = default;
    Cublas(const Cublas&) = delete;
    Cublas& operator=(const Cublas&) = delete;
    ~Cublas(); // destroys the handle; the library stays loaded (cuBLAS does not like being unloaded)
};

// Opens libcublas.so.13 (the loader's path, then $CUDA_HOME/lib64 and /usr/local/cuda/lib64) and
// creates a handle on the current device. BadInput naming the library when it is missing.
Status openCublas(Cublas& cublas);

// Row-major bf16 C[m, n] = A[m, k] B[k, n] with fp32 accumulation on the handle's stream, as
// PyTorch calls cuBLAS for a @ b (what `calibrate --compute` times and live compute steps run).
Status launchGemm(Cublas& cublas, const GemmShape& shape, const void* a, const void* b, void* c);

// "cuBLAS: CUBLAS_STATUS_... in <call>" as an error.
Error cublasError(cublasStatus_t status, const char* call);

} // namespace shardlab::live
