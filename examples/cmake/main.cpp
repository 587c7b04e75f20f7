// relu then scale on the GPU, through the headers oxidec_add_kernels generated, checked
// element by element against the CPU.
#include <cmath>
#include <cstdio>
#include <vector>

#include "relu.h"
#include "scale.h"

static bool ok(CUresult r, const char* what, const char* detail = "") {
    if (r == CUDA_SUCCESS) return true;
    const char* name = nullptr;
    cuGetErrorName(r, &name);
    std::fprintf(stderr, "%s failed: %s %s\n", what, name ? name : "?", detail);
    return false;
}

int main() {
    const size_t n = 3 * 128 * 1000 + 17;  // not a multiple of the block: the tail is masked
    const float factor = 0.5f, offset = 2.0f;
    std::vector<float> x(n), out(n);
    for (size_t i = 0; i < n; i++) x[i] = std::sin(static_cast<float>(i)) * 10.0f;

    CUdevice dev;
    CUcontext ctx;
    if (!ok(cuInit(0), "cuInit") || !ok(cuDeviceGet(&dev, 0), "cuDeviceGet") ||
        !ok(cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain") ||
        !ok(cuCtxSetCurrent(ctx), "cuCtxSetCurrent"))
        return 2;
    CUdeviceptr dx, dtmp, dout;
    const size_t bytes = n * sizeof(float);
    if (!ok(cuMemAlloc(&dx, bytes), "cuMemAlloc") || !ok(cuMemAlloc(&dtmp, bytes), "cuMemAlloc") ||
        !ok(cuMemAlloc(&dout, bytes), "cuMemAlloc") ||
        !ok(cuMemcpyHtoD(dx, x.data(), bytes), "cuMemcpyHtoD") ||
        !ok(cuMemsetD32(dout, 0x7fc00000u, n), "cuMemsetD32"))  // poison: NaN
        return 2;

    relu_module relu;
    scale_module scale;
    if (!ok(relu_load(&relu), "relu_load", relu.error) ||
        !ok(scale_load(&scale), "scale_load", scale.error))
        return 2;
    const unsigned int blocks = static_cast<unsigned int>((n + 127) / 128);
    oxidec_disjoint_f32 tmp = {reinterpret_cast<float*>(dtmp), n};
    oxidec_disjoint_f32 res = {reinterpret_cast<float*>(dout), n};
    const float* px = reinterpret_cast<const float*>(dx);
    const float* ptmp = reinterpret_cast<const float*>(dtmp);

    // The contract fixes scale's block at 128 threads: 256 is refused before any launch.
    if (scale_launch_scale(&scale, oxidec_dim(blocks / 2 + 1, 1, 1), oxidec_dim(256, 1, 1), 0,
                           nullptr, ptmp, n, factor, offset, res) != CUDA_ERROR_INVALID_VALUE) {
        std::fprintf(stderr, "a wrong block shape was not refused\n");
        return 1;
    }
    std::printf("refused: %s\n", scale.error);

    if (!ok(relu_launch_relu(&relu, oxidec_dim(blocks, 1, 1), oxidec_dim(128, 1, 1), 0, nullptr,
                             px, n, tmp), "relu", relu.error) ||
        !ok(scale_launch_scale(&scale, oxidec_dim(blocks, 1, 1), oxidec_dim(128, 1, 1), 0,
                               nullptr, ptmp, n, factor, offset, res), "scale", scale.error) ||
        !ok(cuCtxSynchronize(), "cuCtxSynchronize") ||
        !ok(cuMemcpyDtoH(out.data(), dout, bytes), "cuMemcpyDtoH"))
        return 2;

    size_t wrong = 0;
    for (size_t i = 0; i < n; i++) {
        float want = std::fma(x[i] > 0.0f ? x[i] : 0.0f, factor, offset);
        if (!(std::fabs(out[i] - want) <= 1e-6f * std::fabs(want) + 1e-6f)) wrong++;
    }
    relu_unload(&relu);
    scale_unload(&scale);
    cuMemFree(dx); cuMemFree(dtmp); cuMemFree(dout);
    cuDevicePrimaryCtxRelease(dev);
    if (wrong) {
        std::printf("cmake: %zu of %zu elements wrong\n", wrong, n);
        return 1;
    }
    std::printf("cmake: %zu elements OK\n", n);
    return 0;
}
