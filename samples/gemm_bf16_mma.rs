//! C = A * B on the tensor cores: A (m x k) and B (k x n) are row-major bf16 matrices, kept
//! as their u16 bits; C (m x n) is f32, accumulated in f32. A block of 4 warps computes a
//! 64 x 64 tile of C, each warp a 32 x 32 quarter of it as 2 x 4 `mma.sync.m16n8k16`
//! accumulators. The k dimension goes in steps of 32: cp.async copies the next step's tiles
//! of A and B into the other half of a double buffer in shared memory while the warps
//! multiply the current one, whose fragments `ldmatrix` reads (A as it is, B transposed:
//! `mma` wants B's pairs along k). Sizes must be multiples of the tiles (m, n of 64, k of 32);
//! other sizes leave C untouched.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::async_copy::{cp_async_cg_16, cp_async_commit_group, cp_async_wait_group};
use cuda_device::wmma::{ldmatrix_x4, ldmatrix_x4_trans, mma_m16n8k16_f32_bf16};
use cuda_device::{cuda_module, kernel, launch_bounds, thread, DisjointSlice, SharedArray};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    pub const BM: usize = 64; // rows of C per block
    pub const BN: usize = 64; // columns of C per block
    pub const BK: usize = 32; // k per pipeline step
    pub const THREADS: usize = 128;
    // Shared rows are padded by 8 elements (16 bytes): the 8 rows an ldmatrix reads then
    // fall in different banks, and every row still starts 16-byte aligned for cp.async.
    const LDA: usize = BK + 8;
    const LDB: usize = BN + 8;

    /// Starts the copies of step `step`'s A tile (BM x BK) and B tile (BK x BN) into buffer
    /// `buf`: 512 chunks of 16 bytes, 4 per thread.
    unsafe fn issue(ta: *mut u16, tb: *mut u16, a: *const u16, b: *const u16, row0: usize,
                    col0: usize, n: usize, k: usize, step: usize, buf: usize, tid: usize) {
        for j in 0..2 {
            let chunk = tid + j * THREADS;
            let (r, c) = (chunk / 4, (chunk % 4) * 8);
            let dst = ta.add(buf * BM * LDA + r * LDA + c) as *mut u32;
            cp_async_cg_16(dst, a.add((row0 + r) * k + step * BK + c) as *const u32);
            let (r, c) = (chunk / 8, (chunk % 8) * 8);
            let dst = tb.add(buf * BK * LDB + r * LDB + c) as *mut u32;
            cp_async_cg_16(dst, b.add((step * BK + r) * n + col0 + c) as *const u32);
        }
        cp_async_commit_group();
    }

    #[kernel]
    #[launch_bounds(128)]
    pub fn gemm_bf16(a: &[u16], b: &[u16], mut c: DisjointSlice<f32>, m: u32, n: u32, k: u32) {
        static mut TA: SharedArray<u16, 5120, 16> = SharedArray::UNINIT; // 2 x BM x LDA
        static mut TB: SharedArray<u16, 4608, 16> = SharedArray::UNINIT; // 2 x BK x LDB
        let (m, n, k) = (m as usize, n as usize, k as usize);
        let row0 = thread::blockIdx_y() as usize * BM;
        let col0 = thread::blockIdx_x() as usize * BN;
        if m % BM != 0 || n % BN != 0 || k % BK != 0 || row0 >= m || col0 >= n
            || a.len() < m * k || b.len() < k * n || c.len() < m * n
            || thread::blockDim_x() as usize != THREADS
        {
            return; // the same for every thread of the block
        }
        let tid = thread::threadIdx_x() as usize;
        let lane = tid % 32;
        let wm = (tid / 64) * 32; // this warp's rows and columns in the block's tile
        let wn = (tid / 32 % 2) * 32;
        let ta = core::ptr::addr_of_mut!(TA) as *mut u16;
        let tb = core::ptr::addr_of_mut!(TB) as *mut u16;
        let mut acc = [[0.0f32; 4]; 8]; // [2 row blocks of 16] x [4 column blocks of 8]
        let steps = k / BK;
        unsafe { issue(ta, tb, a.as_ptr(), b.as_ptr(), row0, col0, n, k, 0, 0, tid) };
        for step in 0..steps {
            let buf = step % 2;
            unsafe {
                if step + 1 < steps {
                    issue(ta, tb, a.as_ptr(), b.as_ptr(), row0, col0, n, k, step + 1, 1 - buf,
                          tid);
                    cp_async_wait_group(1); // this step's group is done, the next may run
                } else {
                    cp_async_wait_group(0);
                }
            }
            thread::sync_threads(); // every thread's copies of this step are in
            for kk in 0..2 {
                // ldmatrix row addresses: lane l names row l % 16, column half l / 16
                let ar = lane % 16;
                let ac = kk * 16 + (lane / 16) * 8;
                let br = buf * BK * LDB + (kk * 16 + lane % 16) * LDB + wn + (lane / 16) * 8;
                let (fa0, fa1, fb0, fb1) = unsafe {
                    let at = ta.add(buf * BM * LDA + ac);
                    (ldmatrix_x4(at.add((wm + ar) * LDA) as *const u32),
                     ldmatrix_x4(at.add((wm + 16 + ar) * LDA) as *const u32),
                     ldmatrix_x4_trans(tb.add(br) as *const u32),
                     ldmatrix_x4_trans(tb.add(br + 16) as *const u32))
                };
                // fb0 holds the B fragments of column blocks 0 and 1, fb1 of 2 and 3
                let bs = [[fb0[0], fb0[1]], [fb0[2], fb0[3]], [fb1[0], fb1[1]], [fb1[2], fb1[3]]];
                for j in 0..4 {
                    unsafe {
                        acc[j] = mma_m16n8k16_f32_bf16(acc[j], fa0, bs[j]);
                        acc[4 + j] = mma_m16n8k16_f32_bf16(acc[4 + j], fa1, bs[j]);
                    }
                }
            }
            thread::sync_threads(); // the buffer may be overwritten by the step after next
        }
        // The accumulator layout: register i of lane l is row l / 4 + 8 * (i / 2), column
        // 2 * (l % 4) + i % 2 of its 16 x 8 block.
        let (g, q) = (lane / 4, lane % 4);
        for blk in 0..8 {
            let r = row0 + wm + (blk / 4) * 16 + g;
            let col = col0 + wn + (blk % 4) * 8 + 2 * q;
            for i in 0..4 {
                // Sound: every (row, column) of C belongs to one lane of one warp of one
                // block, and row * n + column < m * n (checked above).
                unsafe {
                    *c.get_unchecked_mut((r + 8 * (i / 2)) * n + col + i % 2) = acc[blk][i];
                }
            }
        }
    }
}

/// bf16 bits of x, rounded to nearest even.
fn bf16_bits(x: f32) -> u16 {
    let u = x.to_bits();
    ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) as u16
}

fn main() {
    const M: usize = 512;
    const N: usize = 256;
    const K: usize = 384;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/gemm_bf16_mma.ptx").unwrap();

    let a_host: Vec<u16> = (0..M * K).map(|i| bf16_bits(((i % 19) as f32 - 9.0) * 0.125)).collect();
    let b_host: Vec<u16> = (0..K * N).map(|i| bf16_bits(((i % 11) as f32 - 5.0) * 0.25)).collect();
    let a = DeviceBuffer::from_host(&stream, &a_host).unwrap();
    let b = DeviceBuffer::from_host(&stream, &b_host).unwrap();
    let mut c = DeviceBuffer::<f32>::zeroed(&stream, M * N).unwrap();

    let config = LaunchConfig {
        grid_dim: ((N / 64) as u32, (M / 64) as u32, 1),
        block_dim: (128, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::gemm_bf16,
        stream: stream,
        module: module,
        config: config,
        args: [slice(a), slice(b), slice_mut(c), M as u32, N as u32, K as u32]
    }
    .unwrap();

    let c_host = c.to_host_vec(&stream).unwrap();
    let value = |bits: u16| f32::from_bits((bits as u32) << 16);
    let (r, s) = (M / 3, N / 7);
    let mut want = 0.0f32;
    for i in 0..K {
        want += value(a_host[r * K + i]) * value(b_host[i * N + s]);
    }
    println!("gemm_bf16: c[{}][{}] = {} (host {})", r, s, c_host[r * N + s], want);
}
