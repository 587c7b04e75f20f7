// CUDA C twin of samples/gemv_batched.rs (kernel `gemv_batched`): y_b = A_b x_b for a batch of
// m x n row-major matrices. One warp per output row: the lanes read the row's strided
// elements (128 contiguous bytes per warp read), fmaf into a partial sum, then butterfly
// shuffles; 8 rows of one matrix per 256-thread block.
// Launch: block 256, grid (ceil(m / 8), batch).
#define BLOCK 256
#define WARPS (BLOCK / 32)

extern "C" __global__ void gemv_batched(const float* __restrict__ a,
                                        const float* __restrict__ x,
                                        float* __restrict__ y,
                                        int batch,
                                        int m,
                                        int n)
{
    int lane = threadIdx.x & 31;
    int b = blockIdx.y;
    int i = blockIdx.x * WARPS + threadIdx.x / 32;
    if (b >= batch || i >= m) {
        return;  // the whole warp
    }
    const float* arow = a + ((size_t)b * m + i) * n;
    const float* xb = x + (size_t)b * n;
    float acc = 0.0f;
    for (int j = lane; j < n; j += 32) {
        acc = fmaf(arow[j], xb[j], acc);
    }
#pragma unroll
    for (int mask = 16; mask > 0; mask /= 2) {
        acc += __shfl_xor_sync(0xffffffffu, acc, mask);
    }
    if (lane == 0) {
        y[(size_t)b * m + i] = acc;
    }
}
