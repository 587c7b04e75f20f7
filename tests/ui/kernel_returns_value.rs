#[kernel]
pub fn k(a: &[f32]) -> f32 {
    a[0]
}
