// The threads that return early never reach the barrier.
#[kernel]
pub fn k(x: &[f32], n: usize, mut out: DisjointSlice<f32>) {
    let i = thread::index_1d().get();
    if i >= n {
        return;
    }
    thread::sync_threads();
}
