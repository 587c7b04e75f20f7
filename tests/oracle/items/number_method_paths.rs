// A number type's method through its path: called (`f32::max(a, b)`, `u32::max(3, n)` with
// the literal typed by the path) and passed where a closure goes (`.fold(f32::MIN, f32::max)`,
// `.map(f32::sqrt)`, `Option::map(u32::count_ones)`).
fn compute(x: f32, i: usize) -> f32 {
    let n = i as u32;
    let mut s = f32::max(x, 0.5) + f32::min(x, -0.5) + f32::mul_add(x, 2.0, 1.0);
    s += u32::max(3, n) as f32 + i32::abs(2 - n as i32) as f32 + u32::count_ones(n) as f32;
    s += f32::sqrt(x.abs()) + f64::sqrt(x as f64 * x as f64) as f32;
    let data = [x, 1.0, -2.0, x * 3.0, 0.25];
    s += data.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    s += data.iter().copied().fold(f32::INFINITY, f32::min);
    s += data.iter().map(|v| v.abs()).map(f32::sqrt).sum::<f32>();
    s += Some(n).map(u32::count_ones).unwrap_or(0) as f32;
    s += (0..n % 9).map(u32::trailing_zeros).sum::<u32>() as f32;
    s
}
