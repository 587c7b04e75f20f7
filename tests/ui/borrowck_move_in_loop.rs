// The index is moved by the first iteration and used again by the next one.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    for j in 0..4 {
        if let Some(o) = out.get_mut(idx) {
            *o += 1.0;
        }
    }
}
