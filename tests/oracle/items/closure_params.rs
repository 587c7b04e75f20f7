// Functions taking closures (`impl Fn`, `impl FnMut`, `impl FnOnce`): each call is its own
// instance; the closures capture by reference, by mutable reference and by move.
fn twice(f: impl Fn(f32) -> f32, x: f32) -> f32 {
    f(f(x)) + f(0.5)
}

fn for_each_index(n: usize, mut f: impl FnMut(usize)) {
    for k in 0..n {
        f(k);
    }
}

fn find(a: &[f32; 6], pred: impl Fn(f32) -> bool) -> Option<usize> {
    for (i, v) in a.iter().enumerate() {
        if pred(*v) {
            return Some(i);
        }
    }
    None
}

fn once(f: impl FnOnce() -> f32) -> f32 {
    f() * 2.0
}

fn compose(f: impl Fn(f32) -> f32, g: impl Fn(f32) -> f32, x: f32) -> f32 {
    twice(|v| g(f(v)), x)
}

// the same through generic parameters bounded by the closure traits
fn twice_generic<F: Fn(f32) -> f32>(f: F, x: f32) -> f32 {
    f(f(x)) - f(0.25)
}

fn fold_generic<T: Copy, F>(mut f: F, init: T, n: usize) -> T
where
    F: FnMut(T, usize) -> T,
{
    let mut acc = init;
    for k in 0..n {
        acc = f(acc, k);
    }
    acc
}

fn compute(x: f32, i: usize) -> f32 {
    let k = (i % 5) as f32 - 2.0;
    let a = twice(|v| v * 0.5 + k, x);
    let mut acc = 0.0f32;
    for_each_index(i % 7, |j| acc = acc * 0.5 + j as f32 * x);
    let arr = [x, -x, k, 1.5, x * k, -0.25];
    let p = find(&arr, |v| v < k).map(|p| p as f32).unwrap_or(-1.0);
    let q = find(&arr, |v| v > 100.0).map(|p| p as f32).unwrap_or(-1.0);
    let captured = x * 3.0;
    let o = once(move || captured - k);
    let c = compose(|v| v + 1.0, |v| v * k, x);
    let mut calls = 0u32;
    let g = twice_generic(|v| v * k - 1.0, x);
    let h = fold_generic(|s, j| { calls += 1; s * 0.5 + j as f32 * k }, x, i % 6);
    let u = fold_generic(|s: u32, j| s.wrapping_mul(3).wrapping_add(j as u32), 7u32, i % 9);
    a + acc + p + q + o + c + g + h + u as f32 + calls as f32
}
