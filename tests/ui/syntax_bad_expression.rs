#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let y = x[0] + * ;
}
