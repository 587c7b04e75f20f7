#[kernel]
pub fn k(a: &[f23], mut out: DisjointSlice<f32>) {
}
