// CUDA C twin of samples/gelu_silu.rs (kernel `gelu`): the tanh form of GELU,
//     y[i] = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
// one thread per element; tanhf is nvcc's accurate default (no --use_fast_math).
// Launch: block 256, grid ceil(n/256).
__device__ __forceinline__ float gelu_tanh(float x)
{
    float inner = 0.7978845608f * fmaf(0.044715f * x * x, x, x);
    return 0.5f * x * (1.0f + tanhf(inner));
}

extern "C" __global__ void gelu(const float* __restrict__ x, float* __restrict__ y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        y[i] = gelu_tanh(x[i]);
    }
}
