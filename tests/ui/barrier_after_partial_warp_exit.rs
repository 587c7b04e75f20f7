// An early return under a condition that splits a warp (40 is not a multiple of 32),
// and one under a warp-uniform condition whose other threads go on working after the
// barrier's `if`: both leave threads that do not reach the barrier.
#[kernel]
pub fn split_warp(mut out: DisjointSlice<u32>) {
    let t = thread::threadIdx_x() as usize;
    if t >= 40 {
        return;
    }
    thread::sync_threads();
    unsafe {
        *out.get_unchecked_mut(t) = 1;
    }
}

#[kernel]
pub fn skip_then_work(mut out: DisjointSlice<u32>) {
    let t = thread::threadIdx_x() as usize;
    if t < 64 {
        thread::sync_threads();
    }
    unsafe {
        *out.get_unchecked_mut(t) = 2;
    }
}
