// CUDA C twin of samples/transpose.rs: out = transpose(a) for a rows x cols row-major f32
// matrix, through a 32 x 33 tile in shared memory (the 33rd column avoids bank conflicts on
// the column reads). A block of 32 x 8 threads reads a 32 x 32 tile with coalesced row
// accesses (4 rows per thread) and writes it back transposed, also coalesced.
// Launch: block 32 x 8, grid ceil(cols / 32) x ceil(rows / 32).
#define TILE 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose(const float* __restrict__ a,
                                     float* __restrict__ out,
                                     int rows,
                                     int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int col0 = blockIdx.x * TILE;
    int row0 = blockIdx.y * TILE;

    int x = col0 + tx;
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int y = row0 + ty + j;
        if (x < cols && y < rows) {
            tile[ty + j][tx] = a[y * cols + x];
        }
    }
    __syncthreads();

    // out is cols x rows; this block writes its rows col0.. and columns row0..
    x = row0 + tx;
#pragma unroll
    for (int j = 0; j < TILE; j += BLOCK_ROWS) {
        int y = col0 + ty + j;
        if (x < rows && y < cols) {
            out[y * rows + x] = tile[tx][ty + j];
        }
    }
}
