// Closures: inline and `let`-bound, capturing by reference, by mutable reference and by
// move, called several times, passed to adapters and to `Option` combinators.
fn compute(x: f32, i: usize) -> f32 {
    let scale = 1.5f32;
    let offset = x - 0.25;
    let lin = |v: f32| v * scale + offset; // by reference
    let a = lin(x);
    let b = lin(2.0);
    let mut count = 0u32;
    let mut bump = |by: u32| count += by; // by mutable reference
    bump(2);
    bump(i as u32 % 3);
    bump(5);
    let mut base = x;
    let snap = move |v: f32| v + base; // by move: sees `base` as it was
    base = base * 4.0;
    let c = snap(1.0) + base;
    let mut total = 0.5f32;
    let mut acc = move |v: f32| {
        total = total * 0.5 + v; // its own copy of `total`
        total
    };
    let d = acc(1.0) + acc(2.0) + acc(x);
    let pair = |p: (f32, usize)| p.0 * p.1 as f32;
    let e: f32 = [x, 1.0, -2.0].iter().enumerate().map(|(j, v)| pair((*v, j))).sum();
    let g: f32 = (0..4).map(|j| lin(j as f32)).fold(0.0, |s, v| s + v);
    let h = Some(x).map(|v| lin(v)).unwrap_or(0.0);
    let ignore_args = |_a: f32, _b: u32| 3.0f32;
    let nested = |v: f32| lin(v) * 2.0 + ignore_args(v, 1);
    a + b + count as f32 + c + d + e + g + h + total + nested(x)
}
