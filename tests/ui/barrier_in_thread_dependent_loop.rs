// A grid-stride loop runs a different number of times in each thread.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::threadIdx_x() as usize;
    let mut j = t;
    while j < x.len() {
        thread::sync_threads();
        j += 256;
    }
}
