// Writing through a shared reference.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut v = 1.0f32;
    let r = &v;
    *r = 2.0;
}
