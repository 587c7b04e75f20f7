#[device]
fn half(x: f32) -> f32 {
    x as f64 / 2.0
}

#[kernel]
pub fn k() {}
