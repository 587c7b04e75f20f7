//! out = transpose(a) for a rows x cols row-major f32 matrix, through a 32 x 33 tile in shared
//! memory: a block of 32 x 8 threads reads a 32 x 32 tile with coalesced row accesses and
//! writes it back transposed, also coalesced. The 33rd column pads each tile row so that the
//! column reads of the second phase hit 32 different shared-memory banks.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, launch_contract, thread, DisjointSlice, SharedArray};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const TILE: usize = 32;
    const BLOCK_ROWS: usize = 8;

    #[kernel]
    #[launch_contract(block = (TILE, BLOCK_ROWS, 1), requires = (a.len() == rows * cols, out.len() == rows * cols))]
    pub fn transpose(a: &[f32], mut out: DisjointSlice<f32>, rows: usize, cols: usize) {
        static mut TILE_T: SharedArray<[f32; TILE + 1], TILE> = SharedArray::UNINIT;
        let tx = thread::threadIdx_x() as usize;
        let ty = thread::threadIdx_y() as usize;
        let col0 = thread::blockIdx_x() as usize * TILE;
        let row0 = thread::blockIdx_y() as usize * TILE;

        let x = col0 + tx;
        for j in (0..TILE).step_by(BLOCK_ROWS) {
            let y = row0 + ty + j;
            if x < cols && y < rows {
                unsafe {
                    TILE_T[ty + j][tx] = a[y * cols + x];
                }
            }
        }
        thread::sync_threads();

        // The tile's transpose: out is cols x rows, and this block writes its
        // rows col0.. and columns row0..
        let x = row0 + tx;
        for j in (0..TILE).step_by(BLOCK_ROWS) {
            let y = col0 + ty + j;
            if x < rows && y < cols {
                // Sound: (y, x) is written by this thread only, and y * rows + x < rows * cols.
                unsafe {
                    *out.get_unchecked_mut(y * rows + x) = TILE_T[tx][ty + j];
                }
            }
        }
    }
}

fn main() {
    const ROWS: usize = 4096;
    const COLS: usize = 2048;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/transpose.ptx").unwrap();

    let a_host: Vec<f32> = (0..ROWS * COLS).map(|i| i as f32).collect();
    let a = DeviceBuffer::from_host(&stream, &a_host).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, ROWS * COLS).unwrap();

    let config = LaunchConfig {
        grid_dim: ((COLS / 32) as u32, (ROWS / 32) as u32, 1),
        block_dim: (32, 8, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::transpose,
        stream: stream,
        module: module,
        config: config,
        args: [slice(a), slice_mut(out), ROWS, COLS]
    }
    .unwrap();

    let got = out.to_host_vec(&stream).unwrap();
    println!("transpose: out[1][0] = {} (a[0][1] = {})", got[ROWS], a_host[1]);
}
