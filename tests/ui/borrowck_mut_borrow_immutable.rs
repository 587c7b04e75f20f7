// A mutable borrow of a binding that is not `mut`.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let v = 1.0f32;
    let r = &mut v;
    *r = 2.0;
}
