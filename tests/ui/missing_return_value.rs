#[device]
fn clamp01(x: f32) -> f32 {
    if x < 0.0 { return 0.0; }
}

#[kernel]
pub fn k() {}
