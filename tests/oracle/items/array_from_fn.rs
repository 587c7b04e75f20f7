// core::array::from_fn: N from the annotation or the turbofish, f(0) called first; a large
// array is built in a loop, a small one unrolled.
fn compute(x: f32, i: usize) -> f32 {
    let a: [f32; 5] = core::array::from_fn(|k| x * k as f32 + i as f32);
    let b = core::array::from_fn::<u32, 4, _>(|k| (k * k) as u32 + 1);
    let mut calls = 0u32;
    let c: [u32; 100] = std::array::from_fn(|k| { calls += 1; (k as u32).wrapping_mul(2654435761) >> 7 });
    let s: f32 = a.iter().sum();
    let t: u32 = b.iter().sum();
    let u = c[i % 100] ^ c[(i * 7) % 100];
    s + t as f32 + (u % 1000) as f32 + calls as f32
}
