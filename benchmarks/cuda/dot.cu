// CUDA C twin of samples/dot.rs (kernel `dot`, f32): *result += sum(a[i] * b[i]).
// Each thread accumulates a grid-stride share with fmaf, each warp adds its 32 partial sums
// with butterfly shuffles (__shfl_xor_sync), and lane 0 of each warp adds the warp's sum with
// one atomicAdd. `result` must hold 0 before the launch.
// Launch: any 1-D block (a multiple of 32) and grid; the reference picks them.
extern "C" __global__ void dot(const float* __restrict__ a,
                               const float* __restrict__ b,
                               float* __restrict__ result,
                               int n)
{
    int stride = gridDim.x * blockDim.x;
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        acc = fmaf(a[i], b[i], acc);
    }
#pragma unroll
    for (int mask = 16; mask > 0; mask /= 2) {
        acc += __shfl_xor_sync(0xffffffffu, acc, mask);
    }
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(result, acc);
    }
}
