#[device]
fn f(x: f32) -> f32 { x }

#[device]
fn f(x: f32) -> f32 { x + 1.0 }

#[kernel]
pub fn k() {}
