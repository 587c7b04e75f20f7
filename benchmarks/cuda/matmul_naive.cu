// CUDA C twin of samples/matmul_naive.rs: C = A * B for n x n row-major f32 matrices,
// one thread per element of C, each walking a row of A and a column of B.
// Launch: block 16 x 16, grid ceil(n / 16) x ceil(n / 16); x is the column, y the row.
extern "C" __global__ void matmul_naive(const float* __restrict__ a,
                                        const float* __restrict__ b,
                                        float* __restrict__ c,
                                        int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < n && col < n) {
        float acc = 0.0f;
        for (int k = 0; k < n; ++k) {
            acc += a[row * n + k] * b[k * n + col];
        }
        c[row * n + col] = acc;
    }
}
