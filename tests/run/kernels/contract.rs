#[kernel]
#[launch_contract(block = (128, 1, 1), domain = n, requires = (a.len() == n, out.len() >= n))]
pub fn scale(a: &[f32], n: usize, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = a[i] * 2.0;
    }
}
