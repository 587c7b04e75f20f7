// Generic kernels: instantiated by a type list (`#[kernel(f32, f64)]`) and by the turbofish
// launch sites in `main` (type and const generic), plus generic helpers, a generic struct
// with a generic impl, and a generic enum used inside them.
use core::ops::{Add, Mul};
use cuda_device::{kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[derive(Clone, Copy)]
struct Affine<T> {
    a: T,
    b: T,
}

impl<T: Copy + Add<Output = T> + Mul<Output = T>> Affine<T> {
    fn apply(&self, x: T) -> T {
        self.a * x + self.b
    }
}

#[derive(Clone, Copy)]
enum Clip<T> {
    Keep,
    Below(T),
}

fn clip<T: Copy + PartialOrd>(c: Clip<T>, x: T) -> T {
    match c {
        Clip::Keep => x,
        Clip::Below(m) => if x < m { x } else { m },
    }
}

#[kernel(f32, f64)]
pub fn affine_clip<T: Copy + Add<Output = T> + Mul<Output = T> + PartialOrd>(
    a: T,
    b: T,
    limit: T,
    x: &[T],
    mut out: DisjointSlice<T>,
) {
    let idx = thread::index_1d();
    let i = idx.get();
    let f = Affine { a, b };
    let c = if i % 2 == 0 { Clip::Below(limit) } else { Clip::Keep };
    if let Some(o) = out.get_mut(idx) {
        *o = clip(c, f.apply(x[i]));
    }
}

#[kernel]
pub fn add_const<const V: u32>(input: &[u32], mut output: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = output.get_mut(idx) {
        *o = input[i].wrapping_add(V);
    }
}

#[kernel]
pub fn window_sum<T: Copy + Add<Output = T>, const W: usize>(x: &[T], mut out: DisjointSlice<T>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let mut s = x[i];
        let mut k = 1;
        while k < W {
            s = s + x[(i + k) % x.len()];
            k += 1;
        }
        *o = s;
    }
}

fn main() {
    unsafe {
        cuda_launch! { kernel: add_const::<7>, stream: s, module: m, config: c, args: [] };
        cuda_launch! { kernel: add_const::<4000000000>, stream: s, module: m, config: c, args: [] };
        cuda_launch! { kernel: window_sum::<i32, 3>, stream: s, module: m, config: c, args: [] };
    }
}
