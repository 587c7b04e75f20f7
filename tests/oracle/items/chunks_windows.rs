// Sub-slice iterators: `chunks_exact` (with `remainder`), `chunks`, `windows` over arrays
// and slices, in `for` loops and in adapter chains, and `chunks_exact_mut` writing back.
fn sum(s: &[f32]) -> f32 {
    let mut t = 0.0;
    for v in s { t += *v; }
    t
}

fn compute(x: f32, i: usize) -> f32 {
    let mut a = [0.0f32; 11];
    for k in 0..11 { a[k] = x * (k as f32 + 1.0) - (i % 5) as f32; }
    let n = i % 4 + 1;
    let s: &[f32] = &a[..(i % 11) + 1];
    let mut acc = 0.0f32;
    for c in a.chunks_exact(3) { acc += c[0] * 2.0 + c[2]; }
    for c in s.chunks_exact(n) { acc += sum(c) * c.len() as f32; }
    acc += sum(s.chunks_exact(n).remainder()) * 7.0;
    acc += a.chunks_exact(4).remainder().len() as f32;
    for c in s.chunks(n) { acc += c[c.len() - 1] - c.len() as f32; }
    for w in s.windows(3) { acc += w[0] * w[1] - w[2]; }
    acc += a.windows(n).map(|w| w[n - 1]).sum::<f32>();
    acc += s.chunks(2).enumerate().map(|(k, c)| k as f32 * c[0]).sum::<f32>();
    acc += s.windows(20).count() as f32 + a.chunks(5).count() as f32 * 100.0;
    let mut b = [1u32, 2, 3, 4, 5, 6, 7];
    for c in b.chunks_exact_mut(2) { c[0] += c[1] * (i as u32); }
    for c in b.chunks_mut(3) { c[c.len() - 1] ^= 1; }
    acc + b.iter().sum::<u32>() as f32
}
