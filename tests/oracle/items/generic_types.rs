// Generic structs, tuple structs and enums, generic impl blocks (methods, associated
// functions, `Self`), const generic structs, and generic methods inside generic impls.
use core::ops::{Add, Mul};

#[derive(Clone, Copy)]
struct Pair<T> {
    a: T,
    b: T,
}

impl<T: Copy + Add<Output = T> + Mul<Output = T>> Pair<T> {
    fn new(a: T, b: T) -> Self {
        Pair { a, b }
    }

    fn dot(&self, o: Pair<T>) -> T {
        self.a * o.a + self.b * o.b
    }

    fn swapped(self) -> Pair<T> {
        Pair { a: self.b, b: self.a }
    }

    fn first_and<U: Copy>(&self, u: U) -> (T, U) {
        (self.a, u)
    }
}

#[derive(Clone, Copy)]
struct Wrap<T>(T, u32);

#[derive(Clone, Copy)]
enum Maybe<T> {
    Nothing,
    Just(T),
    Both { first: T, second: T },
}

impl<T: Copy + Add<Output = T>> Maybe<T> {
    fn total_or(self, fallback: T) -> T {
        match self {
            Maybe::Nothing => fallback,
            Maybe::Just(v) => v,
            Maybe::Both { first, second } => first + second,
        }
    }
}

struct Window<const N: usize> {
    v: [f32; N],
}

impl<const N: usize> Window<N> {
    fn mean(&self) -> f32 {
        let mut s = 0.0;
        let mut k = 0;
        while k < N {
            s += self.v[k];
            k += 1;
        }
        s / N as f32
    }
}

fn pick<T: Copy>(m: Maybe<T>, d: T) -> T {
    match m {
        Maybe::Just(v) => v,
        Maybe::Both { first, .. } => first,
        Maybe::Nothing => d,
    }
}

fn compute(x: f32, i: usize) -> f32 {
    let p = Pair::new(x, 2.0);
    let q: Pair<f64> = Pair::new(x as f64, -1.25);
    let r = Pair::<u32>::new(i as u32, 3);
    let s = p.swapped();
    let t = p.first_and(3u16);
    let w = Wrap(x * 0.5, i as u32);
    let m = if i % 3 == 0 { Maybe::Just(x) } else if i % 3 == 1 { Maybe::Nothing } else {
        Maybe::Both { first: x, second: 1.0 }
    };
    let n: Maybe<i32> = if i % 2 == 0 { Maybe::Just(i as i32) } else { Maybe::Nothing };
    let win = Window { v: [x, 1.0, 2.0, 4.0] };
    let win3 = Window::<3> { v: [x, x, 0.5] };
    p.dot(s) + q.dot(q) as f32 + r.dot(r) as f32 + t.0 + t.1 as f32 + w.0 + w.1 as f32
        + m.total_or(-1.0) + n.total_or(7) as f32 + pick(m, 0.25) + win.mean() + win3.mean()
}
