// `bool::then_some` (its argument evaluated either way) and `bool::then` (its closure called
// only when the bool holds: the count of calls shows it).
fn compute(x: f32, i: usize) -> f32 {
    let a = (i % 2 == 0).then_some(x * 3.0).unwrap_or(1.0);
    let mut calls = 0u32;
    let b = (i % 3 == 0).then(|| { calls += 1; i as u32 + 5 }).unwrap_or(2);
    let c = (x > 0.5).then(|| (x * 10.0) as i32).map(|v| v - 1).unwrap_or(-7);
    let d = match (i % 5 == 1).then_some((i as u8, x)) { Some((k, y)) => k as f32 + y, None => 0.25 };
    a + b as f32 + calls as f32 + c as f32 + d
}
