#[kernel]
pub fn scale(data: &mut [f32], s: f32) {
}
