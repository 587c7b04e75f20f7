// A thread that traps aborts the launch, so a trap under a thread-dependent condition
// does not make the barrier after it divergent (nor do bounds checks).
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let i = thread::index_1d().get();
    if i > 1000000 {
        debug::trap();
    }
    let v = x[i];
    thread::sync_threads();
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = v;
    }
}
