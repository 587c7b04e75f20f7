// An error inside an instance of a generic function points at the generic function's source;
// the note names the instance (`wrap::<f32>`) and the chain of calls that reaches it.
fn wrap<T: Copy>(x: T) -> T {
    let v: Vec<T> = Vec::new();
    x
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = wrap(x[i]);
    }
}
