// CUDA C twin of samples/dot_i8.rs (kernel `dot_i8`): the dot product of two vectors of signed
// bytes, four per 32-bit word, with __dp4a over a grid-stride share per thread, one
// __reduce_add_sync per warp and one atomicAdd per warp; the sum wraps modulo 2^32.
// Launch: any 1-D grid of 256-thread blocks. `result` must hold 0.
extern "C" __global__ void dot_i8(const int* __restrict__ a,
                                  const int* __restrict__ b,
                                  unsigned int* __restrict__ result,
                                  int n)
{
    int stride = gridDim.x * blockDim.x;
    int acc = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        acc = __dp4a(a[i], b[i], acc);
    }
    unsigned int total = __reduce_add_sync(0xffffffffu, (unsigned int)acc);
    if ((threadIdx.x & 31) == 0) {
        atomicAdd(result, total);
    }
}
