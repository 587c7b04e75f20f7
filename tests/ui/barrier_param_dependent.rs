// The barrier in `maybe_sync` depends on its parameter: a thread-dependent argument
// makes it divergent; a block-uniform one is fine.
#[device]
fn maybe_sync(t: u32) {
    if t < 32 {
        thread::sync_threads();
    }
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    maybe_sync(thread::blockIdx_x());
    maybe_sync(thread::threadIdx_x());
}
