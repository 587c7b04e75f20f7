// CUDA C twin of samples/stencil.rs (kernel `stencil5`): one Jacobi step of a 2D 5-point
// stencil on a rows x cols grid,
//     out[r][c] = c0 * u[r][c] + c1 * (u[r-1][c] + u[r+1][c] + u[r][c-1] + u[r][c+1])
// inside, and out = u on the boundary. A block of 16 x 16 threads stages its tile of u plus a
// one-cell halo in shared memory (edge threads also load the cell beyond their edge).
// Launch: block 16 x 16, grid ceil(cols / 16) x ceil(rows / 16).
#define B 16
#define HALO (B + 2)

// u[r][c], or 0 outside the grid (r or c of -1 is outside: the unsigned compare).
__device__ __forceinline__ float at(const float* __restrict__ u, int r, int c, int rows, int cols)
{
    return ((unsigned)r < (unsigned)rows && (unsigned)c < (unsigned)cols) ? u[r * cols + c] : 0.0f;
}

extern "C" __global__ void stencil5(const float* __restrict__ u,
                                    float* __restrict__ out,
                                    int rows,
                                    int cols,
                                    float c0,
                                    float c1)
{
    __shared__ float t[HALO][HALO];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col = blockIdx.x * B + tx;
    int row = blockIdx.y * B + ty;

    t[ty + 1][tx + 1] = at(u, row, col, rows, cols);
    if (tx == 0) {
        t[ty + 1][0] = at(u, row, col - 1, rows, cols);
    }
    if (tx == B - 1) {
        t[ty + 1][B + 1] = at(u, row, col + 1, rows, cols);
    }
    if (ty == 0) {
        t[0][tx + 1] = at(u, row - 1, col, rows, cols);
    }
    if (ty == B - 1) {
        t[B + 1][tx + 1] = at(u, row + 1, col, rows, cols);
    }
    __syncthreads();

    if (row < rows && col < cols) {
        float center = t[ty + 1][tx + 1];
        float v;
        if (row == 0 || col == 0 || row == rows - 1 || col == cols - 1) {
            v = center;
        } else {
            float around = t[ty][tx + 1] + t[ty + 2][tx + 1] + t[ty + 1][tx] + t[ty + 1][tx + 2];
            v = c0 * center + c1 * around;
        }
        out[row * cols + col] = v;
    }
}
