// E0599: a method that no bound of the type parameter provides, even though the instance's
// type (f32) has it: generic code may only use what its bounds promise.
fn root<T: Copy>(x: T) -> T {
    x.sqrt()
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = root(x[i]);
    }
}
