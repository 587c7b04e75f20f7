#[derive(Clone, Copy)]
struct Pair { lo: f32, hi: f32 }

#[device]
fn width(p: Pair) -> f32 { p.hi - p.low }

#[kernel]
pub fn k() {}
