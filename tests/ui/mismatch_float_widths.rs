#[kernel]
pub fn k(x: &[f32], y: &[f64], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let a = x[i];
    let b = y[i];
    let prod = a * b;
    let mut acc = a;
    acc += b;
    let twice = a * 2;
    if a < b {
        acc = twice + prod;
    }
    if let Some(o) = out.get_mut(idx) {
        *o = acc;
    }
}
