// A DisjointSlice passed by value is given away.
#[device]
fn fill(mut s: DisjointSlice<f32>, v: f32) {
    if let Some(o) = s.get_mut(thread::index_1d()) {
        *o = v;
    }
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    fill(out, 1.0);
    fill(out, 2.0);
}
