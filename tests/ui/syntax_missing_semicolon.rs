#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d()
    let i = idx.get();
}
