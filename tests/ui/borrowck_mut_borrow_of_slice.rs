// A mutable borrow of an element of a read-only slice.
#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let r = &mut x[0];
    *r = 2.0;
}
