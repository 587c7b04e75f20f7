// Parameters are immutable unless declared `mut`.
#[device]
fn clamp01(v: f32) -> f32 {
    if v < 0.0 {
        v = 0.0;
    }
    v
}
