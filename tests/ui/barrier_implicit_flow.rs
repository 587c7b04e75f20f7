// `flag` is set under a thread-dependent condition, so it depends on the thread too.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let t = thread::threadIdx_x();
    let mut flag = false;
    if t == 3 {
        flag = true;
    }
    if flag {
        thread::sync_threads();
    }
}
