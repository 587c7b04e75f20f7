// Whole warps that leave the kernel before a barrier do not hold it up (PTX `exit`
// releases a barrier that waits only on exited threads): the early return is under a
// warp-uniform condition (threadIdx.x >= 64, a multiple of 32), and nothing after the
// barrier's join runs in the exiting threads.
#[kernel]
pub fn first_two_warps(mut out: DisjointSlice<u32>) {
    static mut TILE: SharedArray<u32, 64> = SharedArray::UNINIT;
    let t = thread::threadIdx_x() as usize;
    if t >= 64 {
        return;
    }
    unsafe {
        TILE[t] = t as u32 * 3;
    }
    thread::sync_threads();
    unsafe {
        *out.get_unchecked_mut(t) = TILE[63 - t];
    }
}
