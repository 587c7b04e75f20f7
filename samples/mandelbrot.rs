//! Escape-time Mandelbrot set: one thread per pixel of a W-wide image, each writing
//! the number of iterations of z <- z^2 + c before |z| > 2 (max_iter if it never escapes).
//!
//! The update is written with explicit `mul_add` so that the result does not depend
//! on whether the compiler contracts a*b+c into an fma: each step is rounded exactly
//! as written, and the iteration counts match a CPU reference bit for bit.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

/// Image width in pixels; the height is the output length divided by W.
const W: usize = 512;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn mandelbrot(
        x0: f32,
        y0: f32,
        dx: f32,
        dy: f32,
        max_iter: u32,
        mut image: DisjointSlice<u32, thread::Index2D<W>>,
    ) {
        let col = thread::blockIdx_x() * thread::blockDim_x() + thread::threadIdx_x();
        let row = thread::blockIdx_y() * thread::blockDim_y() + thread::threadIdx_y();
        // None for a column past W; get_mut gives None for a row past the image.
        if let Some(idx) = thread::index_2d::<W>() {
            if let Some(pixel) = image.get_mut(idx) {
                let cx = (col as f32).mul_add(dx, x0);
                let cy = (row as f32).mul_add(dy, y0);
                let mut x = 0.0f32;
                let mut y = 0.0f32;
                let mut n = 0u32;
                while n < max_iter && x.mul_add(x, y * y) <= 4.0 {
                    // (x + iy)^2 + c = (x^2 - y^2 + cx) + i(2xy + cy)
                    let xt = x.mul_add(x, (-y).mul_add(y, cx));
                    y = (2.0 * x).mul_add(y, cy);
                    x = xt;
                    n += 1;
                }
                *pixel = n;
            }
        }
    }
}

fn main() {
    const H: usize = 384;
    const MAX_ITER: u32 = 256;
    let (x0, x1) = (-2.2f32, 1.0f32);
    let (y0, y1) = (-1.2f32, 1.2f32);
    let dx = (x1 - x0) / W as f32;
    let dy = (y1 - y0) / H as f32;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/mandelbrot.ptx").unwrap();

    let mut image = DeviceBuffer::<u32>::zeroed(&stream, W * H).unwrap();
    let config = LaunchConfig {
        grid_dim: (((W + 15) / 16) as u32, ((H + 15) / 16) as u32, 1),
        block_dim: (16, 16, 1),
        shared_mem_bytes: 0,
    };

    cuda_launch! {
        kernel: kernels::mandelbrot,
        stream: stream,
        module: module,
        config: config,
        args: [x0, y0, dx, dy, MAX_ITER, slice_mut(image)]
    }
    .unwrap();

    let counts = image.to_host_vec(&stream).unwrap();
    // A coarse ASCII rendering: one character per 8x16 block of pixels.
    for r in (0..H).step_by(16) {
        let line: String = (0..W)
            .step_by(8)
            .map(|c| if counts[r * W + c] == MAX_ITER { '#' } else { ' ' })
            .collect();
        println!("{}", line);
    }
}
