//! One Jacobi-style step of a 2D 5-point stencil on a rows x cols grid:
//!     out[r][c] = c0 * u[r][c] + c1 * (u[r-1][c] + u[r+1][c] + u[r][c-1] + u[r][c+1])
//! inside, and out = u on the boundary. A block of 16 x 16 threads stages its tile of u, plus
//! a one-cell halo around it, in shared memory, so every value is read from global memory once.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, launch_contract, thread, DisjointSlice, SharedArray};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const B: usize = 16;
    const HALO: usize = B + 2; // the tile with a one-cell border

    #[device]
    fn at(u: &[f32], r: usize, c: usize, rows: usize, cols: usize) -> f32 {
        if r < rows && c < cols { u[r * cols + c] } else { 0.0 }
    }

    #[kernel]
    #[launch_contract(block = (B, B, 1), requires = (u.len() == rows * cols, out.len() == rows * cols))]
    pub fn stencil5(u: &[f32], mut out: DisjointSlice<f32>, rows: usize, cols: usize, c0: f32, c1: f32) {
        static mut T: SharedArray<[f32; HALO], HALO> = SharedArray::UNINIT;
        let tx = thread::threadIdx_x() as usize;
        let ty = thread::threadIdx_y() as usize;
        let col = thread::blockIdx_x() as usize * B + tx;
        let row = thread::blockIdx_y() as usize * B + ty;

        // The tile, then the halo: edge threads also load the cell beyond their edge.
        // (row - 1 and col - 1 wrap to usize::MAX at 0, which `at` treats as outside.)
        unsafe {
            T[ty + 1][tx + 1] = at(u, row, col, rows, cols);
            if tx == 0 {
                T[ty + 1][0] = at(u, row, col.wrapping_sub(1), rows, cols);
            }
            if tx == B - 1 {
                T[ty + 1][B + 1] = at(u, row, col + 1, rows, cols);
            }
            if ty == 0 {
                T[0][tx + 1] = at(u, row.wrapping_sub(1), col, rows, cols);
            }
            if ty == B - 1 {
                T[B + 1][tx + 1] = at(u, row + 1, col, rows, cols);
            }
        }
        thread::sync_threads();

        if row < rows && col < cols {
            let center = unsafe { T[ty + 1][tx + 1] };
            let v = if row == 0 || col == 0 || row == rows - 1 || col == cols - 1 {
                center
            } else {
                let around = unsafe { T[ty][tx + 1] + T[ty + 2][tx + 1] + T[ty + 1][tx] + T[ty + 1][tx + 2] };
                c0 * center + c1 * around
            };
            // Sound: each (row, col) belongs to exactly one thread.
            unsafe {
                *out.get_unchecked_mut(row * cols + col) = v;
            }
        }
    }
}

fn main() {
    const ROWS: usize = 2048;
    const COLS: usize = 2048;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/stencil.ptx").unwrap();

    let u_host: Vec<f32> = (0..ROWS * COLS).map(|i| ((i % 101) as f32) * 0.01).collect();
    let u = DeviceBuffer::from_host(&stream, &u_host).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, ROWS * COLS).unwrap();

    let config = LaunchConfig {
        grid_dim: ((COLS / 16) as u32, (ROWS / 16) as u32, 1),
        block_dim: (16, 16, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::stencil5,
        stream: stream,
        module: module,
        config: config,
        args: [slice(u), slice_mut(out), ROWS, COLS, 0.5f32, 0.125f32]
    }
    .unwrap();

    let got = out.to_host_vec(&stream).unwrap();
    println!("stencil5: out[1][1] = {}", got[COLS + 1]);
}
