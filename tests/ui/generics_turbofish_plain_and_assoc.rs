// E0107: generic arguments for a function that has no generic parameters; E0599: an
// associated item of a bare type parameter, which no bound provides.
fn plain(a: f32) -> f32 {
    a
}

fn top<T: Copy>(a: T) -> T {
    let _m = T::MAX;
    a
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = plain::<f32>(x[i]) + top(x[i]);
    }
}
