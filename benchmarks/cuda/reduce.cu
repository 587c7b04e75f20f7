// CUDA C twin of samples/reduce.rs (kernel `reduce_sum`): *total += sum(x).
// Each block sums a grid-stride share of x per thread, reduces its 256 partial sums through a
// shared-memory tree down to 64, lets warp 0 finish with shuffles, and lane 0 adds the block's
// sum with one atomicAdd. `total` must hold 0 (or the running total) before the launch.
// Launch: block 256 (the sample's launch contract), any grid (the reference picks it).
#define BLOCK 256

extern "C" __global__ void reduce_sum(const float* __restrict__ x,
                                      float* __restrict__ total,
                                      int n)
{
    __shared__ float sums[BLOCK];
    int tid = threadIdx.x;
    int stride = gridDim.x * blockDim.x;

    float acc = 0.0f;
    for (int i = blockIdx.x * BLOCK + tid; i < n; i += stride) {
        acc += x[i];
    }
    sums[tid] = acc;
    __syncthreads();

#pragma unroll
    for (int half = BLOCK / 2; half >= 64; half /= 2) {
        if (tid < half) {
            sums[tid] += sums[tid + half];
        }
        __syncthreads();
    }

    if (tid < 32) {
        float v = sums[tid] + sums[tid + 32];
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2) {
            v += __shfl_down_sync(0xffffffffu, v, offset);
        }
        if (tid == 0) {
            atomicAdd(total, v);
        }
    }
}
