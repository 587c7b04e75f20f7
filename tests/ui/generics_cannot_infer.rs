// E0282: a type parameter that neither the arguments nor the expected type determine.
fn zero<T>() -> f32 {
    0.0
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    if let Some(o) = out.get_mut(idx) {
        *o = zero();
    }
}
