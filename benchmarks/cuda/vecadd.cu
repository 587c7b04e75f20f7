// CUDA C twin of samples/vecadd.rs: c[i] = a[i] + b[i].
// Launch: block 256, grid ceil(n / 256) (LaunchConfig::for_num_elems).
extern "C" __global__ void vecadd(const float* __restrict__ a,
                                  const float* __restrict__ b,
                                  float* __restrict__ c,
                                  int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        c[i] = a[i] + b[i];
    }
}
