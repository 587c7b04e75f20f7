// CUDA C twin of samples/gelu_silu.rs (kernel `silu`): y[i] = x / (1 + exp(-x)), one thread
// per element; expf and the division are nvcc's accurate defaults (no --use_fast_math).
// Launch: block 256, grid ceil(n/256).
extern "C" __global__ void silu(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = v / (1.0f + expf(-v));
    }
}
