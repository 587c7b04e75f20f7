// CUDA C twin of samples/conv3x3.rs (kernel `conv3x3`): a zero-padded 3x3 convolution of a
// rows x cols image, out[r][c] = sum over i, j of w[3i + j] * img[r + i - 1][c + j - 1],
// one thread per output pixel (the neighbours come from the L1 cache), fmaf in the same order.
// Launch: block 16x16, grid ceil(cols/16) x ceil(rows/16).
#define B 16

extern "C" __global__ void conv3x3(const float* __restrict__ img,
                                   const float* __restrict__ w,
                                   float* __restrict__ out,
                                   int rows,
                                   int cols)
{
    int c = blockIdx.x * B + threadIdx.x;
    int r = blockIdx.y * B + threadIdx.y;
    if (r >= rows || c >= cols) {
        return;
    }
    float acc = 0.0f;
#pragma unroll
    for (int i = 0; i < 3; ++i) {
        int rr = r + i - 1;
#pragma unroll
        for (int j = 0; j < 3; ++j) {
            int cc = c + j - 1;
            float v = (rr >= 0 && rr < rows && cc >= 0 && cc < cols) ? img[rr * cols + cc] : 0.0f;
            acc = fmaf(w[3 * i + j], v, acc);
        }
    }
    out[r * cols + c] = acc;
}
