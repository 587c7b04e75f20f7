// `.len()` through a reference to an array (auto-deref), as rustc accepts it.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let t = thread::index_1d();
    let arr = [1.0f32, 2.0, 3.0, 4.0];
    let r = &arr;
    let rr = &r;
    let n = r.len() + rr.len();
    if let Some(o) = out.get_mut(t) { *o = n as f32 + r[1]; }
}
