// An accumulator that is not `mut`.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let total = 0.0f32;
    for j in 0..x.len() {
        total = total + x[j];
    }
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = total;
    }
}
