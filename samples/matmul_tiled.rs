//! C = A * B for n x n row-major f32 matrices, through 32 x 32 tiles in shared memory: a
//! block of 32 x 32 threads computes one tile of C; for each tile step it loads a tile of A
//! and one of B (zeros past the edge), waits, and takes 32 multiply-adds from them.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, launch_contract, thread, DisjointSlice, SharedArray};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const TILE: usize = 32;

    #[kernel]
    #[launch_contract(block = (TILE, TILE, 1), requires = (a.len() == n * n, b.len() == n * n, c.len() == n * n))]
    pub fn matmul_tiled(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>, n: usize) {
        static mut TILE_A: SharedArray<[f32; TILE], TILE> = SharedArray::UNINIT;
        static mut TILE_B: SharedArray<[f32; TILE], TILE> = SharedArray::UNINIT;
        let tx = thread::threadIdx_x() as usize;
        let ty = thread::threadIdx_y() as usize;
        let row = thread::blockIdx_y() as usize * TILE + ty;
        let col = thread::blockIdx_x() as usize * TILE + tx;

        let mut acc = 0.0f32;
        let steps = (n + TILE - 1) / TILE;
        for step in 0..steps {
            let ka = step * TILE + tx; // column of A this thread loads
            let kb = step * TILE + ty; // row of B this thread loads
            unsafe {
                TILE_A[ty][tx] = if row < n && ka < n { a[row * n + ka] } else { 0.0 };
                TILE_B[ty][tx] = if kb < n && col < n { b[kb * n + col] } else { 0.0 };
            }
            thread::sync_threads();
            #[unroll]
            for k in 0..TILE {
                acc += unsafe { TILE_A[ty][k] * TILE_B[k][tx] };
            }
            thread::sync_threads();
        }
        if row < n && col < n {
            // Sound: each (row, col) belongs to exactly one thread, and row * n + col < n * n.
            unsafe {
                *c.get_unchecked_mut(row * n + col) = acc;
            }
        }
    }
}

fn main() {
    const N: usize = 1024;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/matmul_tiled.ptx").unwrap();

    let a_host: Vec<f32> = (0..N * N).map(|i| ((i % 17) as f32 - 8.0) * 0.125).collect();
    let b_host: Vec<f32> = (0..N * N).map(|i| ((i % 13) as f32 - 6.0) * 0.25).collect();
    let a = DeviceBuffer::from_host(&stream, &a_host).unwrap();
    let b = DeviceBuffer::from_host(&stream, &b_host).unwrap();
    let mut c = DeviceBuffer::<f32>::zeroed(&stream, N * N).unwrap();

    let blocks = ((N + 31) / 32) as u32;
    let config = LaunchConfig {
        grid_dim: (blocks, blocks, 1),
        block_dim: (32, 32, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::matmul_tiled,
        stream: stream,
        module: module,
        config: config,
        args: [slice(a), slice(b), slice_mut(c), N]
    }
    .unwrap();

    let c_host = c.to_host_vec(&stream).unwrap();
    let (r, s) = (N / 3, N / 7);
    let mut want = 0.0f32;
    for k in 0..N {
        want += a_host[r * N + k] * b_host[k * N + s];
    }
    println!("matmul_tiled: c[{}][{}] = {} (host {})", r, s, c_host[r * N + s], want);
}
