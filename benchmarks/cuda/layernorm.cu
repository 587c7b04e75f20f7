// CUDA C twin of samples/layernorm.rs (kernel `layernorm`): layer normalisation of each row
// of a rows x cols matrix,
//     out[r][c] = (x[r][c] - mean_r) / sqrt(var_r + eps) * gamma[c] + beta[c]
// One block of 256 threads per row: a pass for the sum, a pass for the squared deviations
// from the mean (fmaf), each block sum by butterfly shuffles in each warp and the 8 warps'
// sums through shared memory (added in warp order), then a pass that writes the result.
// Launch: block 256 (the sample's launch contract), grid rows.
#define BLOCK 256
#define WARPS (BLOCK / 32)

__device__ __forceinline__ float block_sum(float v, float* partial)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        v += __shfl_xor_sync(0xffffffffu, v, offset);
    }
    if ((threadIdx.x & 31) == 0) {
        partial[threadIdx.x / 32] = v;
    }
    __syncthreads();
    float total = 0.0f;
#pragma unroll
    for (int i = 0; i < WARPS; ++i) {
        total += partial[i];
    }
    __syncthreads();  // partial is reused by the next sum
    return total;
}

extern "C" __global__ void layernorm(const float* __restrict__ x,
                                     const float* __restrict__ gamma,
                                     const float* __restrict__ beta,
                                     float* __restrict__ out,
                                     int rows,
                                     int cols,
                                     float eps)
{
    __shared__ float partial[WARPS];
    int t = threadIdx.x;
    int row = blockIdx.x;
    if (row >= rows) {
        return;
    }
    const float* xr = x + (size_t)row * cols;
    float* outr = out + (size_t)row * cols;

    float sum = 0.0f;
    for (int j = t; j < cols; j += BLOCK) {
        sum += xr[j];
    }
    float mean = block_sum(sum, partial) / (float)cols;

    float squares = 0.0f;
    for (int j = t; j < cols; j += BLOCK) {
        float d = xr[j] - mean;
        squares = fmaf(d, d, squares);
    }
    float rstd = 1.0f / sqrtf(block_sum(squares, partial) / (float)cols + eps);

    for (int j = t; j < cols; j += BLOCK) {
        outr[j] = fmaf((xr[j] - mean) * rstd, gamma[j], beta[j]);
    }
}
