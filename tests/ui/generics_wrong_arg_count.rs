// E0107: a generic function given more generic arguments than it has parameters.
fn scale<T: Copy + core::ops::Mul<Output = T>>(a: T, x: T) -> T {
    a * x
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = scale::<f32, f32>(2.0, x[i]);
    }
}
