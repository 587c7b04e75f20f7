// A stopping adapter inside the first half of a `chain` ends only that half: `take`,
// `take_while` and `map_while` before `.chain(..)`, then the second half runs.
fn compute(x: f32, i: usize) -> f32 {
    let a = [x, 1.0, 2.0, -x, 5.0];
    let b = [10.0f32, 20.0, x * 3.0];
    let n = i % 4;
    let mut s = a.iter().take(n).chain(b.iter()).sum::<f32>();
    s += a.iter().take_while(|v| **v < 1.5).chain(b.iter()).sum::<f32>();
    s += a.iter().map_while(|v| if *v < 3.0 { Some(v * 2.0) } else { None })
        .chain(b.iter().copied()).sum::<f32>();
    s += a.iter().chain(b.iter()).take_while(|v| **v < 15.0).count() as f32;
    s += a.iter().filter(|v| **v > 0.0).take(1 + n % 2).chain(b.iter()).sum::<f32>();
    for (k, v) in a.iter().take_while(|v| **v != 5.0).chain(b.iter().skip(1)).enumerate() {
        if k == 5 { break; }
        s += v * k as f32;
    }
    s
}
