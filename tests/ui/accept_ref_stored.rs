// A reference to a local stored in a value.
#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let mut v = 1.0f32;
    let maybe = Some(&mut v);
}
