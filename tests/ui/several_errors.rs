#[kernel]
pub fn k(a: &[f32], mut out: DisjointSlice<f32>) {
    let x: u32 = 1.0;
    let y = undefined_name;
    let z = a[0] + 1u8;
}
