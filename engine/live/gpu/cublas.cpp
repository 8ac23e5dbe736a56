#include "cublas.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace shardlab::live {
namespace {

constexpr const char* kLibrary = "libcublas.so.13";

template <class F>
bool bind(void* h, F& f, const char* name)
{
    f = reinterpret_cast<F>(dlsym(h, name));
    return f != nullptr;
}

void* openLibrary()
{
    std::vector<std::string> tries{kLibrary};
    if (const char* home = std::getenv("CUDA_HOME"); home && *home)
        tries.push_back(std::string(home) + "/lib64/" + kLibrary);
    tries.push_back(std::string("/usr/local/cuda/lib64/") + kLibrary);
    for (const std::string& path : tries)
        if (void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL))
            return h;
    return nullptr;
}

const char* statusName(cublasStatus_t s)
{
    switch (s) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
    }
    return "CUBLAS_STATUS_(unknown)";
}

} // namespace

Cublas::~Cublas()
{
    if (handle && destroy)
        destroy(handle);
}

Error cublasError(cublasStatus_t status, const char* call)
{
    return runFailed(Message("error.live.cublas_call").with("status", statusName(status)).with("call", call));
}

Status openCublas(Cublas& c)
{
    c.library = openLibrary();
    if (!c.library)
        return badInput(Message("error.live.cublas_missing")
                            .with("library", kLibrary)
                            .with("variable", "LD_LIBRARY_PATH")
                            .with("script", "bench/calibrate_compute.py"));
    const bool ok = bind(c.library, c.create, "cublasCreate_v2") && bind(c.library, c.destroy, "cublasDestroy_v2")
                    && bind(c.library, c.setStream, "cublasSetStream_v2")
                    && bind(c.library, c.getVersion, "cublasGetVersion_v2")
                    && bind(c.library, c.gemmEx, "cublasGemmEx");
    if (!ok)
        return badInput(Message("error.live.cublas_incomplete").with("library", kLibrary));
    if (const cublasStatus_t s = c.create(&c.handle); s != CUBLAS_STATUS_SUCCESS) {
        c.handle = nullptr;
        return cublasError(s, "cublasCreate");
    }
    int v = 0;
    if (c.getVersion(c.handle, &v) == CUBLAS_STATUS_SUCCESS)
        c.version = "cuBLAS " + std::to_string(v / 10000) + "." + std::to_string(v % 10000 / 100) + "."
                    + std::to_string(v % 100);
    return {};
}

Status launchGemm(Cublas& c, const GemmShape& s, const void* a, const void* b, void* out)
{
    const float alpha = 1, beta = 0;
    // Row-major C[m,n] = A[m,k] B[k,n] is column-major C^T = B^T A^T: cuBLAS's (m, n, k) is (n, m, k)
    // with B first, as PyTorch calls it for a @ b.
    const int m = static_cast<int>(s.m), n = static_cast<int>(s.n), k = static_cast<int>(s.k);
    const cublasStatus_t st =
        c.gemmEx(c.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &alpha, b, CUDA_R_16BF, n, a, CUDA_R_16BF, k, &beta, out,
                 CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    if (st != CUBLAS_STATUS_SUCCESS)
        return cublasError(st, "cublasGemmEx");
    return {};
}

} // namespace shardlab::live
