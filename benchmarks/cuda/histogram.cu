// CUDA C twin of samples/histogram.rs (kernel `histogram`): a 256-bin byte histogram per block.
// Each block zeroes a 256-bin histogram in shared memory, counts a grid-stride share of the
// bytes into it with one shared-memory atomicAdd per byte, and writes it out as its row:
// partial[256 * blockIdx.x + v] = how often block blockIdx.x saw byte v.
// Launch: block 256 (the sample's launch contract), grid = partial's length / 256.
#define BINS 256

extern "C" __global__ void histogram(const unsigned char* __restrict__ data,
                                     unsigned int* __restrict__ partial,
                                     int n)
{
    __shared__ unsigned int hist[BINS];
    int t = threadIdx.x;
    hist[t] = 0;
    __syncthreads();

    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * BINS + t; i < n; i += stride) {
        atomicAdd(&hist[data[i]], 1u);
    }
    __syncthreads();

    partial[blockIdx.x * BINS + t] = hist[t];
}
