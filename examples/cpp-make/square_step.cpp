#include "square_step.hpp"

#include "square.h"  // generated from kernels/square.rs

CUresult square_on_gpu(CUdeviceptr x, CUdeviceptr out, size_t n, const char** error) {
    static square_module module;
    static bool loaded = false;
    *error = module.error;
    if (!loaded) {
        CUresult r = square_load(&module);
        if (r != CUDA_SUCCESS) return r;
        loaded = true;
    }
    unsigned int blocks = static_cast<unsigned int>((n + 255) / 256);
    oxidec_disjoint_f32 result = {reinterpret_cast<float*>(out), n};
    return square_launch_square(&module, oxidec_dim(blocks, 1, 1), oxidec_dim(256, 1, 1), 0,
                                nullptr, reinterpret_cast<const float*>(x), n, result);
}
