#[device]
fn lerp(a: f32, b: f32, t: f32) -> f32 { a + (b - a) * t }

#[kernel]
pub fn k(x: &[f32], y: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        *o = lerp(x[i], y[i]);
    }
}
