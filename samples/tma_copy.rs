//! A TMA tile copy (sm_90: H100, H200): global -> shared -> global, a box at a time.
//!
//! Block (bx, by) moves the 32 x 64 box of `src` whose first element is at column
//! 64 * bx, row 32 * by into shared memory with one bulk tensor copy (thread 0 issues it;
//! an mbarrier counts the bytes as they land), scales it there by `scale` (each of the
//! 128 threads a strided share), and writes it to the same box of `dst` with one bulk
//! tensor store.
//! The host describes both tensors with TMA descriptors (`oxidec.runtime.tma.TensorMap`):
//! boxes past the tensor's edge read zeros and are clipped when stored.
use cuda_device::barrier::{fence_mbarrier_init_release_cluster, fence_proxy_async_shared_cta};
use cuda_device::barrier::{mbarrier_arrive, mbarrier_arrive_expect_tx, mbarrier_init};
use cuda_device::barrier::{mbarrier_try_wait, Barrier};
use cuda_device::tma::{cp_async_bulk_commit_group, cp_async_bulk_wait_group};
use cuda_device::tma::{cp_async_bulk_tensor_2d_g2s, cp_async_bulk_tensor_2d_s2g, TmaDescriptor};
use cuda_device::{kernel, launch_contract, thread, SharedArray};

const BOX_ROWS: usize = 32;
const BOX_COLS: usize = 64;
const BOX: usize = BOX_ROWS * BOX_COLS;
const BOX_BYTES: u32 = (BOX * 4) as u32;
const THREADS: usize = 128;

#[kernel]
#[launch_contract(block = (THREADS, 1, 1))]
pub fn tma_copy(src: *const TmaDescriptor, dst: *const TmaDescriptor, scale: f32) {
    // TMA's shared destinations are 128-byte aligned
    static mut TILE: SharedArray<f32, BOX, 128> = SharedArray::UNINIT;
    static mut BAR: Barrier = Barrier::UNINIT;
    let tid = thread::threadIdx_x();
    let col = (thread::blockIdx_x() as usize * BOX_COLS) as i32;
    let row = (thread::blockIdx_y() as usize * BOX_ROWS) as i32;

    // 1. The barrier expects every thread once, and the box's bytes.
    if tid == 0 {
        unsafe {
            mbarrier_init(&raw mut BAR, THREADS as u32);
            fence_mbarrier_init_release_cluster();
            fence_proxy_async_shared_cta();
        }
    }
    thread::sync_threads();

    // 2. Global -> shared: thread 0 starts the copy and says how many bytes to expect.
    if tid == 0 {
        unsafe {
            cp_async_bulk_tensor_2d_g2s(&raw mut TILE as *mut u8, src, col, row, &raw mut BAR);
        }
    }
    let token = unsafe {
        if tid == 0 {
            mbarrier_arrive_expect_tx(&raw const BAR, 1, BOX_BYTES)
        } else {
            mbarrier_arrive(&raw const BAR)
        }
    };
    unsafe { while !mbarrier_try_wait(&raw const BAR, token) {} }

    // 3. Work on the box in shared memory: thread t takes elements t, t + 128, ...
    let mut k = 0;
    while k < BOX / THREADS {
        let i = k * THREADS + tid as usize;
        unsafe {
            TILE[i] = TILE[i] * scale;
        }
        k += 1;
    }

    // 4. Shared -> global: every thread's writes made visible to the copy engine first.
    unsafe { fence_proxy_async_shared_cta() };
    thread::sync_threads();
    if tid == 0 {
        unsafe {
            cp_async_bulk_tensor_2d_s2g(&raw const TILE as *const u8, dst, col, row);
        }
        cp_async_bulk_commit_group();
        cp_async_bulk_wait_group(0);
    }
}
