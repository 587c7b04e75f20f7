// An immutable binding may be declared first and assigned once later, on every path.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let scale: f32;
    if i % 2 == 0 {
        scale = 2.0;
    } else {
        scale = 0.5;
    }
    let bias;
    bias = 1.0f32;
    if let Some(o) = out.get_mut(idx) {
        *o = x[i] * scale + bias;
    }
}
