//! Elementwise activations of transformer MLPs with f32 math: GELU (the tanh form of GPT-2 and
//! BERT), SiLU (x sigmoid(x), as in SwiGLU), and a fused bias + GELU over a rows x cols matrix
//! (the bias is per column: the output of a linear layer before its activation).
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, device, kernel, launch_contract, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const BLOCK: usize = 256;

    /// 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))
    #[device]
    fn gelu_tanh(x: f32) -> f32 {
        let inner = 0.7978845608f32 * (0.044715f32 * x * x).mul_add(x, x);
        0.5 * x * (1.0 + inner.tanh())
    }

    #[kernel]
    pub fn gelu(x: &[f32], mut y: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(out) = y.get_mut(idx) {
            *out = gelu_tanh(x[i]);
        }
    }

    #[kernel]
    pub fn silu(x: &[f32], mut y: DisjointSlice<f32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(out) = y.get_mut(idx) {
            let v = x[i];
            *out = v / (1.0 + (-v).exp());
        }
    }

    /// y[r][c] = gelu(x[r][c] + bias[c]): one block row of 256 columns per block, grid
    /// (ceil(cols / 256), rows).
    #[kernel]
    #[launch_contract(block = (BLOCK, 1, 1),
                      requires = (x.len() == rows * cols, y.len() == rows * cols, bias.len() == cols))]
    pub fn bias_gelu(x: &[f32], bias: &[f32], mut y: DisjointSlice<f32>, rows: usize, cols: usize) {
        let col = thread::blockIdx_x() as usize * BLOCK + thread::threadIdx_x() as usize;
        let row = thread::blockIdx_y() as usize;
        if row < rows && col < cols {
            let i = row * cols + col;
            // Sound: (row, col) belongs to this thread only, and i < rows * cols.
            unsafe {
                *y.get_unchecked_mut(i) = gelu_tanh(x[i] + bias[col]);
            }
        }
    }
}

fn main() {
    const ROWS: usize = 512;
    const COLS: usize = 3072;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/gelu_silu.ptx").unwrap();

    let x_host: Vec<f32> = (0..ROWS * COLS).map(|i| ((i % 41) as f32) * 0.2 - 4.0).collect();
    let b_host: Vec<f32> = (0..COLS).map(|i| ((i % 9) as f32) * 0.05).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let bias = DeviceBuffer::from_host(&stream, &b_host).unwrap();
    let mut y = DeviceBuffer::<f32>::zeroed(&stream, ROWS * COLS).unwrap();

    let config = LaunchConfig {
        grid_dim: ((COLS / 256) as u32, ROWS as u32, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::bias_gelu,
        stream: stream,
        module: module,
        config: config,
        args: [slice(x), slice(bias), slice_mut(y), ROWS, COLS]
    }
    .unwrap();

    let got = y.to_host_vec(&stream).unwrap();
    println!("bias_gelu: y[0][0] = {}", got[0]);
}
