// CUDA C twin of samples/scan.rs (kernel `block_scan`): inclusive prefix sums (u32, wrapping)
// within each block of 256 elements. Each warp scans its 32 values with __shfl_up_sync, warp 0
// scans the 8 warps' totals the same way through shared memory, and every value adds the
// totals of the warps before it.
// Launch: block 256 (the sample's launch contract), grid ceil(n / 256).
#define BLOCK 256
#define WARPS (BLOCK / 32)

__device__ __forceinline__ unsigned int warp_scan(unsigned int v, unsigned int lane)
{
#pragma unroll
    for (unsigned int delta = 1; delta < 32; delta *= 2) {
        unsigned int up = __shfl_up_sync(0xffffffffu, v, delta);
        if (lane >= delta) {
            v += up;
        }
    }
    return v;
}

extern "C" __global__ void block_scan(const unsigned int* __restrict__ x,
                                      unsigned int* __restrict__ out,
                                      int n)
{
    __shared__ unsigned int warp_totals[WARPS];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int lane = threadIdx.x & 31;
    unsigned int w = threadIdx.x >> 5;

    unsigned int v = i < n ? x[i] : 0u;
    v = warp_scan(v, lane);
    if (lane == 31) {
        warp_totals[w] = v;
    }
    __syncthreads();

    if (w == 0) {
        unsigned int total = lane < WARPS ? warp_totals[lane] : 0u;
        unsigned int scanned = warp_scan(total, lane);
        if (lane < WARPS) {
            warp_totals[lane] = scanned;
        }
    }
    __syncthreads();

    if (w > 0) {
        v += warp_totals[w - 1];
    }
    if (i < n) {
        out[i] = v;
    }
}
