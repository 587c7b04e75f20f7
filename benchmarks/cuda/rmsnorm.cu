// CUDA C twin of samples/rmsnorm.rs (kernel `rmsnorm`): RMS normalisation of each row of a
// rows x cols matrix,
//     out[r][c] = x[r][c] / sqrt(mean over c of x[r][c]^2 + eps) * w[c]
// One block of 256 threads per row: each thread sums the squares of a strided share of the
// row (fmaf), the block adds the partial sums (butterfly shuffles in each warp, then the 8
// warps' sums through shared memory, added in warp order), and each thread scales its share.
// Launch: block 256 (the sample's launch contract), grid rows.
#define BLOCK 256
#define WARPS (BLOCK / 32)

extern "C" __global__ void rmsnorm(const float* __restrict__ x,
                                   const float* __restrict__ w,
                                   float* __restrict__ out,
                                   int rows,
                                   int cols,
                                   float eps)
{
    __shared__ float warp_sums[WARPS];
    int t = threadIdx.x;
    int row = blockIdx.x;
    if (row >= rows) {
        return;
    }
    const float* xr = x + (size_t)row * cols;
    float* outr = out + (size_t)row * cols;

    float squares = 0.0f;
    for (int j = t; j < cols; j += BLOCK) {
        float v = xr[j];
        squares = fmaf(v, v, squares);
    }
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        squares += __shfl_xor_sync(0xffffffffu, squares, offset);
    }
    if ((t & 31) == 0) {
        warp_sums[t / 32] = squares;
    }
    __syncthreads();
    float total = 0.0f;
#pragma unroll
    for (int i = 0; i < WARPS; ++i) {
        total += warp_sums[i];
    }
    float scale = 1.0f / sqrtf(total / (float)cols + eps);

    for (int j = t; j < cols; j += BLOCK) {
        outr[j] = xr[j] * scale * w[j];
    }
}
