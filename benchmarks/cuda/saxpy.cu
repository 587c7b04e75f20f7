// CUDA C twin of samples/saxpy.rs: out[i] = a * x[i] + y[i] (one fma with nvcc's default --fmad=true).
// Launch: block 256, grid ceil(n / 256).
extern "C" __global__ void saxpy(float a,
                                 const float* __restrict__ x,
                                 const float* __restrict__ y,
                                 float* __restrict__ out,
                                 int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = a * x[i] + y[i];
    }
}
