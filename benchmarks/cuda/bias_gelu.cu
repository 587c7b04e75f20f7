// CUDA C twin of samples/gelu_silu.rs (kernel `bias_gelu`): y[r][c] = gelu(x[r][c] + bias[c])
// over a rows x cols matrix (a linear layer's bias and activation fused), the tanh form of
// GELU with nvcc's accurate tanhf.
// Launch: block 256, grid (ceil(cols/256), rows).
#define BLOCK 256

__device__ __forceinline__ float gelu_tanh(float x)
{
    float inner = 0.7978845608f * fmaf(0.044715f * x * x, x, x);
    return 0.5f * x * (1.0f + tanhf(inner));
}

extern "C" __global__ void bias_gelu(const float* __restrict__ x,
                                     const float* __restrict__ bias,
                                     float* __restrict__ y,
                                     int rows,
                                     int cols)
{
    int col = blockIdx.x * BLOCK + threadIdx.x;
    int row = blockIdx.y;
    if (row < rows && col < cols) {
        size_t i = (size_t)row * cols + col;
        y[i] = gelu_tanh(x[i] + bias[col]);
    }
}
