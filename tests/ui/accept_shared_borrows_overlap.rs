// Any number of shared borrows may overlap.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let a = [1.0f32, 2.0, 3.0, 4.0];
    let r1 = &a;
    let r2 = &a[2];
    let r3 = &a;
    let s = r1[0] + *r2 + r3[3] + a[1];
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = s;
    }
}
