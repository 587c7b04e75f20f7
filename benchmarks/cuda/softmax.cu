// CUDA C twin of samples/softmax.rs: row softmax of a rows x cols f32 matrix, one block of
// 256 threads per row. The block finds the row's maximum, then the sum of exp(x - max), each
// with a per-thread pass over a strided share of the row, warp shuffles and a shared-memory
// exchange between the 8 warps, and finally writes exp(x - max) / sum.
// expf and the division are nvcc's accurate defaults (no --use_fast_math), like oxidec's.
// Launch: block 256, grid rows.
#define BLOCK 256
#define WARPS (BLOCK / 32)

// The maximum (is_max) or the sum of v over the block; every thread gets it.
__device__ __forceinline__ float block_reduce(float v, bool is_max)
{
    __shared__ float scratch[WARPS];
    unsigned int lane = threadIdx.x & 31;
#pragma unroll
    for (int mask = 16; mask > 0; mask /= 2) {
        float other = __shfl_xor_sync(0xffffffffu, v, mask);
        v = is_max ? fmaxf(v, other) : v + other;
    }
    if (lane == 0) {
        scratch[threadIdx.x >> 5] = v;
    }
    __syncthreads();
    float r = scratch[0];
#pragma unroll
    for (int w = 1; w < WARPS; ++w) {
        float y = scratch[w];
        r = is_max ? fmaxf(r, y) : r + y;
    }
    __syncthreads();  // the scratch is reused by the next reduction
    return r;
}

extern "C" __global__ void softmax(const float* __restrict__ x,
                                   float* __restrict__ out,
                                   int rows,
                                   int cols)
{
    int t = threadIdx.x;
    int base = blockIdx.x * cols;

    float m = -INFINITY;
    for (int j = t; j < cols; j += BLOCK) {
        m = fmaxf(m, x[base + j]);
    }
    m = block_reduce(m, true);

    float s = 0.0f;
    for (int j = t; j < cols; j += BLOCK) {
        s += expf(x[base + j] - m);
    }
    s = block_reduce(s, false);

    for (int j = t; j < cols; j += BLOCK) {
        out[base + j] = expf(x[base + j] - m) / s;
    }
}
