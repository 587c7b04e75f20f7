// The second stage, in its own translation unit: only square_step.cpp includes square.h,
// so editing kernels/axpy.rs does not recompile it (see the Makefile).
#pragma once
#include <cuda.h>
#include <cstddef>

// out[i] = x[i] * x[i] for n floats on the GPU; on failure `error` says why.
CUresult square_on_gpu(CUdeviceptr x, CUdeviceptr out, size_t n, const char** error);
