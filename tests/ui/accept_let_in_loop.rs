// A `let` in a loop body is a new binding on every iteration, not a reassignment.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let mut acc = 0.0f32;
    for j in 0..x.len() {
        let v = x[j];
        let w;
        w = v * v;
        acc += w;
    }
    if let Some(o) = out.get_mut(idx) {
        *o = acc;
    }
}
