// Generic functions: type parameters inferred from arguments and from the expected type,
// explicit turbofish, const generics, where clauses, several instances of one function.
use core::ops::{Add, Mul, Sub};

fn axpy<T: Copy + Add<Output = T> + Mul<Output = T>>(a: T, x: T, y: T) -> T {
    a * x + y
}

fn lerp<T>(a: T, b: T, t: T) -> T
where
    T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>,
{
    a + (b - a) * t
}

fn pick<T: Copy>(first: bool, a: T, b: T) -> T {
    if first { a } else { b }
}

fn sum_n<const N: usize>(a: [f32; N]) -> f32 {
    let mut s = 0.0;
    let mut k = 0;
    while k < N {
        s += a[k];
        k += 1;
    }
    s
}

fn scaled_len<const N: usize>(x: f32) -> f32 {
    x * N as f32
}

fn twice<T: Copy + Add<Output = T>>(v: T) -> T {
    add_to(v, v)
}

fn add_to<U: Copy + Add<Output = U>>(a: U, b: U) -> U {
    a + b
}

fn filled<const N: usize>(v: f32) -> [f32; N] {
    [v; N]
}

fn first_of<T: Copy, const N: usize>(a: &[T; N]) -> T {
    a[N - 1]
}

fn stepped<T: Copy + Add<Output = T>>(x: T, step: T, n: u32) -> T {
    let mut v = x;
    let mut k = 0;
    while k < n {
        v = v + step;
        k += 1;
    }
    v
}

fn swap_pair<A: Copy, B: Copy>(a: A, b: B) -> (B, A) {
    (b, a)
}

fn compute(x: f32, i: usize) -> f32 {
    let f4: [f32; 4] = filled(x);
    let f2 = filled::<2>(0.5);
    let arr = [i as u64, 7, 9];
    let (p, q) = swap_pair(i as u8, x);
    let extra = f4[3] + f2[1] + first_of(&arr) as f32 + stepped(x, 0.25, (i % 5) as u32)
        + p + q as f32;
    let a = axpy(2.0f32, x, 1.5);
    let b = axpy::<f64>(0.5, x as f64, -3.25) as f32;
    let c = axpy(3u32, i as u32, 7) as f32;
    let d = axpy(-2i64, i as i64, 11) as f32;
    let e: f32 = lerp(x, 4.0, 0.25);
    let f = pick(i % 2 == 0, x, -x);
    let g = pick::<i32>(i % 3 == 0, 5, i as i32) as f32;
    let h = sum_n([x, 1.0, 2.5]) + sum_n::<2>([x, x]);
    let k = scaled_len::<3>(x) + scaled_len::<7>(0.5);
    let m = twice(x) + twice(i as u16) as f32;
    a + b + c + d + e + f + g + h + k + m + extra
}
