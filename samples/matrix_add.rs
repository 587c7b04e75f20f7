//! C = A + B for row-major matrices with COLS columns, one thread per element on a
//! 2D grid. `thread::index_2d::<COLS>()` gives row * COLS + col, or None for a
//! thread whose column is past the last one; `get_mut` gives None past the last row.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

const COLS: usize = 250;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn matrix_add(a: &[f32], b: &[f32], mut c: DisjointSlice<f32, thread::Index2D<COLS>>) {
        if let Some(idx) = thread::index_2d::<COLS>() {
            let i = idx.get();
            if let Some(out) = c.get_mut(idx) {
                *out = a[i] + b[i];
            }
        }
    }
}

fn main() {
    const ROWS: usize = 401;
    const N: usize = ROWS * COLS;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/matrix_add.ptx").unwrap();

    let a_host: Vec<f32> = (0..N).map(|i| (i / COLS) as f32).collect();
    let b_host: Vec<f32> = (0..N).map(|i| (i % COLS) as f32 * 0.001).collect();
    let a = DeviceBuffer::from_host(&stream, &a_host).unwrap();
    let b = DeviceBuffer::from_host(&stream, &b_host).unwrap();
    let mut c = DeviceBuffer::<f32>::zeroed(&stream, N).unwrap();

    let config = LaunchConfig {
        grid_dim: (((COLS + 15) / 16) as u32, ((ROWS + 15) / 16) as u32, 1),
        block_dim: (16, 16, 1),
        shared_mem_bytes: 0,
    };

    cuda_launch! {
        kernel: kernels::matrix_add,
        stream: stream,
        module: module,
        config: config,
        args: [slice(a), slice(b), slice_mut(c)]
    }
    .unwrap();

    let c_host = c.to_host_vec(&stream).unwrap();
    println!("matrix_add: c[{}][{}] = {}", ROWS - 1, COLS - 1, c_host[N - 1]);
}
