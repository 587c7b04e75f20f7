// CUDA C twin of samples/matmul_tiled.rs: C = A * B for n x n row-major f32 matrices through
// 32 x 32 tiles in shared memory. A block of 32 x 32 threads computes one tile of C; for each
// tile step it loads a tile of A and one of B (zeros past the edge), waits, and takes 32
// multiply-adds from them (fully unrolled).
// Launch: block 32 x 32, grid ceil(n / 32) x ceil(n / 32); x is the column, y the row.
#define TILE 32

extern "C" __global__ void matmul_tiled(const float* __restrict__ a,
                                        const float* __restrict__ b,
                                        float* __restrict__ c,
                                        int n)
{
    __shared__ float tile_a[TILE][TILE];
    __shared__ float tile_b[TILE][TILE];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    int steps = (n + TILE - 1) / TILE;
    for (int step = 0; step < steps; ++step) {
        int ka = step * TILE + tx;  // column of A this thread loads
        int kb = step * TILE + ty;  // row of B this thread loads
        tile_a[ty][tx] = (row < n && ka < n) ? a[row * n + ka] : 0.0f;
        tile_b[ty][tx] = (kb < n && col < n) ? b[kb * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) {
            acc += tile_a[ty][k] * tile_b[k][tx];
        }
        __syncthreads();
    }
    if (row < n && col < n) {
        c[row * n + col] = acc;
    }
}
