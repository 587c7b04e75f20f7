// Functions and closures passed to `F: Fn..` parameters by value, by `&F` and by `&mut F`
// (Rust's `&F: Fn`, `&mut F: FnMut`), generic functions named with a turbofish as values,
// and patterns in parameters.
fn plus_seven(x: u32) -> u32 { x.wrapping_add(7) }
fn add_pair(a: u32, b: u32) -> u32 { a.wrapping_add(b.wrapping_mul(2)) }
fn add_const<const N: u32>(x: u32) -> u32 { x.wrapping_add(N) }
fn scale<T: Copy + core::ops::Mul<Output = T>>(x: T, k: T) -> T { x * k }
fn identity<T>(x: T) -> T { x }

fn nested_sum((a, (b, c)): (u32, (u32, u32))) -> u32 { a.wrapping_add(b).wrapping_add(c) }
fn swap_sum([p, q, _]: [u32; 3], Pair { lo, hi }: Pair) -> u32 { p * 3 + q + lo * 5 + hi }

#[derive(Clone, Copy)]
struct Pair { lo: u32, hi: u32 }

fn apply_once<F: FnOnce(u32) -> u32>(f: F, x: u32) -> u32 { f(x) }
fn apply_ref<F: Fn(u32) -> u32>(f: &F, x: u32) -> u32 { f(x) + f(x + 1) }
fn apply_mut<F: FnMut(u32) -> u32>(f: &mut F, x: u32) -> u32 { f(x) ^ f(x) }
fn apply_two<F: FnOnce(u32, u32) -> u32>(f: F, a: u32, b: u32) -> u32 { f(a, b) }
fn apply_value<T, R, F: FnOnce(T) -> R>(f: F, v: T) -> R { f(v) }
fn apply_ptr(f: fn(u32) -> u32, x: u32) -> u32 { f(x) }

fn compute(x: f32, i: usize) -> f32 {
    let raw = i as u32;
    let by_once = apply_once(plus_seven, raw);
    let by_ref = apply_ref(&plus_seven, raw);
    let mut callable = plus_seven;
    let by_mut = apply_mut(&mut callable, raw);
    let multi = apply_two(add_pair, raw, 3);
    let cg = apply_once(add_const::<9>, raw);
    let tg = apply_value(identity::<u32>, raw);
    let sc = apply_value(|v: f32| scale::<f32>(v, 1.5), x);
    let f: fn(f32, f32) -> f32 = scale::<f32>;
    let inferred: fn(u32) -> u32 = identity;  // T from the expected pointer type
    let by_ptr = apply_ptr(identity, raw) + apply_ptr(add_const::<2>, raw) + inferred(raw);
    let callable_ref = &plus_seven;
    let through_ref = apply_ref(&callable_ref, raw);
    let k = raw % 5;
    let c = |v: u32| v * k;
    let closure_ref = apply_ref(&c, raw);
    let mut count = 0u32;
    let mut counter = |v: u32| { count += 1; v + count };
    let closure_mut = apply_mut(&mut counter, raw);
    let nested = apply_value(nested_sum, (raw, (2, 3)));
    let pats = swap_sum([raw, 4, 5], Pair { lo: 6, hi: raw });
    let total = by_once + by_ref + by_mut + multi + cg + tg + through_ref + closure_ref
        + closure_mut + count + nested + pats + by_ptr;
    total as f32 + sc + f(x, 0.25)
}
