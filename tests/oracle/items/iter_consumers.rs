// Iterator consumers: sum, product, fold, min, max, any, all, count, position, for_each.
fn compute(x: f32, i: usize) -> f32 {
    let a = [x, x * 2.0, x - 1.0, 0.5, x * x, -x, 3.0];
    let n = i % 9;
    let k = [(i % 7) as i32 - 3, 4, -2, (i % 5) as i32, 4, -2, 1];
    let s: f32 = a.iter().sum();
    let e: f32 = a.iter().take(n % 2).skip(1).sum(); // empty: -0.0 in Rust
    let p: f32 = a.iter().map(|v| v * 0.5 + 1.0).product();
    let si: i32 = k.iter().sum();
    let pi: i64 = k.iter().map(|v| *v as i64 + 5).product();
    let f = a.iter().fold(1.0f32, |acc, v| acc * 0.5 + *v);
    let mn = k.iter().copied().min().unwrap_or(100);
    let mx = k.iter().copied().max().unwrap_or(-100);
    // max keeps the last of equal maxima, min the first of equal minima
    let mxi = k.iter().enumerate().map(|(j, v)| (*v, j)).fold((i32::MIN, 0usize), |b, c| if c.0 >= b.0 { c } else { b });
    let mr = (0..n).map(|j| k[j % 7]).max();
    let none = (0..n).skip(10).min();
    let any = a.iter().any(|v| *v > 2.0);
    let all = k.iter().all(|v| *v < 4);
    let cnt = (0..20).step_by(n + 1).count();
    let pos = k.iter().position(|v| *v == 4).unwrap_or(99);
    let pos2 = a.iter().rev().position(|v| *v < 0.0);
    let mut sum_fe = 0.0f32;
    a.iter().skip(2).for_each(|v| sum_fe = sum_fe * 0.5 + v);
    let r: u32 = (1..=(n as u32)).sum();
    let empty: i32 = (5..n as i32).sum();
    s + e + p + f + sum_fe
        + (si as f32) * 0.25 + (pi % 1000) as f32 + mn as f32 + mx as f32 * 2.0 + mxi.1 as f32
        + mr.unwrap_or(-7) as f32 + none.unwrap_or(42) as f32
        + if any { 10.0 } else { 0.0 } + if all { 20.0 } else { 0.0 }
        + cnt as f32 + pos as f32 * 3.0 + pos2.map(|p| p as f32).unwrap_or(-1.0)
        + r as f32 + empty as f32 + (e.to_bits() >> 20) as f32
}
