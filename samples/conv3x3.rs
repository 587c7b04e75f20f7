//! A 3x3 convolution of a rows x cols f32 image with zero padding (one channel, the weights
//! in a 9-element slice, row-major): out[r][c] = sum over i, j in 0..3 of
//! w[3 i + j] * img[r + i - 1][c + j - 1], where pixels outside the image count as 0.
//! One thread per output pixel, 16 x 16 blocks; the neighbours come from the cache.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, device, kernel, launch_contract, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const B: usize = 16;

    /// img[r][c], or 0 outside the image (r or c wrapped past 0 are huge, so outside too).
    #[device]
    fn pixel(img: &[f32], r: usize, c: usize, rows: usize, cols: usize) -> f32 {
        if r < rows && c < cols {
            img[r * cols + c]
        } else {
            0.0
        }
    }

    #[kernel]
    #[launch_contract(block = (B, B, 1),
                      requires = (img.len() == rows * cols, out.len() == rows * cols, w.len() == 9))]
    pub fn conv3x3(img: &[f32], w: &[f32], mut out: DisjointSlice<f32>, rows: usize, cols: usize) {
        let c = thread::blockIdx_x() as usize * B + thread::threadIdx_x() as usize;
        let r = thread::blockIdx_y() as usize * B + thread::threadIdx_y() as usize;
        if r < rows && c < cols {
            let mut acc = 0.0f32;
            for i in 0..3 {
                for j in 0..3 {
                    let v = pixel(img, (r + i).wrapping_sub(1), (c + j).wrapping_sub(1), rows, cols);
                    acc = w[3 * i + j].mul_add(v, acc);
                }
            }
            // Sound: each (r, c) belongs to exactly one thread, and r * cols + c < rows * cols.
            unsafe {
                *out.get_unchecked_mut(r * cols + c) = acc;
            }
        }
    }
}

fn main() {
    const ROWS: usize = 1024;
    const COLS: usize = 1024;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/conv3x3.ptx").unwrap();

    let img_host: Vec<f32> = (0..ROWS * COLS).map(|i| ((i % 13) as f32) * 0.25 - 1.5).collect();
    let w_host: Vec<f32> = vec![0.0625, 0.125, 0.0625, 0.125, 0.25, 0.125, 0.0625, 0.125, 0.0625];
    let img = DeviceBuffer::from_host(&stream, &img_host).unwrap();
    let w = DeviceBuffer::from_host(&stream, &w_host).unwrap();
    let mut out = DeviceBuffer::<f32>::zeroed(&stream, ROWS * COLS).unwrap();

    let config = LaunchConfig {
        grid_dim: ((COLS / 16) as u32, (ROWS / 16) as u32, 1),
        block_dim: (16, 16, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::conv3x3,
        stream: stream,
        module: module,
        config: config,
        args: [slice(img), slice(w), slice_mut(out), ROWS, COLS]
    }
    .unwrap();

    let got = out.to_host_vec(&stream).unwrap();
    println!("conv3x3: out[1][1] = {}", got[COLS + 1]);
}
