// Fills two arrays, runs axpy (kernels/axpy.rs) then square (kernels/square.rs) on the GPU
// through the headers oxidec generated, and checks every element against the CPU.
#include <cmath>
#include <cstdio>
#include <vector>

#include "axpy.h"  // generated from kernels/axpy.rs
#include "square_step.hpp"

static bool ok(CUresult r, const char* what, const char* detail = "") {
    if (r == CUDA_SUCCESS) return true;
    const char* name = nullptr;
    cuGetErrorName(r, &name);
    std::fprintf(stderr, "%s failed: %s %s\n", what, name ? name : "?", detail);
    return false;
}

int main() {
    const size_t n = 1 << 20;
    const float a = 1.5f;
    std::vector<float> x(n), y(n), out(n, -1.0f);
    for (size_t i = 0; i < n; i++) {
        x[i] = static_cast<float>(i % 1000) * 0.001f;
        y[i] = 1.0f - static_cast<float>(i % 7) * 0.25f;
    }

    CUdevice dev;
    CUcontext ctx;
    if (!ok(cuInit(0), "cuInit") || !ok(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
        !ok(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") ||
        !ok(cuCtxSetCurrent(ctx), "cuCtxSetCurrent"))
        return 2;
    CUdeviceptr dx, dy, dtmp, dout;
    const size_t bytes = n * sizeof(float);
    if (!ok(cuMemAlloc(&dx, bytes), "cuMemAlloc") || !ok(cuMemAlloc(&dy, bytes), "cuMemAlloc") ||
        !ok(cuMemAlloc(&dtmp, bytes), "cuMemAlloc") || !ok(cuMemAlloc(&dout, bytes), "cuMemAlloc") ||
        !ok(cuMemcpyHtoD(dx, x.data(), bytes), "cuMemcpyHtoD") ||
        !ok(cuMemcpyHtoD(dy, y.data(), bytes), "cuMemcpyHtoD") ||
        !ok(cuMemsetD32(dout, 0x7fc00000u, n), "cuMemsetD32"))  // poison: NaN
        return 2;

    axpy_module axpy;
    if (!ok(axpy_load(&axpy), "axpy_load", axpy.error)) return 2;
    const float* px = reinterpret_cast<const float*>(dx);
    const float* py = reinterpret_cast<const float*>(dy);
    oxidec_disjoint_f32 tmp = {reinterpret_cast<float*>(dtmp), n};

    // A launch that breaks the contract is refused before it reaches the GPU.
    CUresult bad = axpy_launch_axpy(&axpy, oxidec_dim(n / 256, 1, 1), oxidec_dim(256, 1, 1), 0,
                                    nullptr, a, px, n, py, n - 1, tmp);
    if (bad != CUDA_ERROR_INVALID_VALUE) {
        std::fprintf(stderr, "a wrong length was not refused\n");
        return 1;
    }
    std::printf("refused: %s\n", axpy.error);

    const unsigned int blocks = static_cast<unsigned int>((n + 255) / 256);
    if (!ok(axpy_launch_axpy(&axpy, oxidec_dim(blocks, 1, 1), oxidec_dim(256, 1, 1), 0, nullptr,
                             a, px, n, py, n, tmp), "axpy", axpy.error))
        return 2;
    const char* error = "";
    if (!ok(square_on_gpu(dtmp, dout, n, &error), "square", error)) return 2;
    if (!ok(cuCtxSynchronize(), "cuCtxSynchronize") ||
        !ok(cuMemcpyDtoH(out.data(), dout, bytes), "cuMemcpyDtoH"))
        return 2;

    size_t bad_count = 0;
    double max_rel = 0.0;
    for (size_t i = 0; i < n; i++) {
        double t = static_cast<double>(a) * x[i] + y[i];
        double want = t * t;
        double rel = std::fabs(out[i] - want) / std::fmax(std::fabs(want), 1e-6);
        if (!(rel <= 1e-5)) bad_count++;
        if (!(rel <= max_rel)) max_rel = rel;  // a NaN (an unwritten element) shows
    }
    axpy_unload(&axpy);
    cuMemFree(dx); cuMemFree(dy); cuMemFree(dtmp); cuMemFree(dout);
    cuDevicePrimaryCtxRelease(dev);
    if (bad_count) {
        std::printf("cpp-make: %zu of %zu elements wrong (max rel err %.3g)\n", bad_count, n, max_rel);
        return 1;
    }
    std::printf("cpp-make: %zu elements OK (max rel err %.3g)\n", n, max_rel);
    return 0;
}
