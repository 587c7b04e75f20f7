#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let i = thread::index_1d().get();
    out[i] = 1.0;
}
