// Generic code as it is written: a const-generic struct whose `new()` takes N from the
// `let` annotation, a trait with an associated type used as `R::Out` and `<R as Tr>::Out` in
// generic signatures (and a where-clause on it), `?` in an Option function, `impl Fn`
// arguments, TryFrom/From, struct update syntax, `core::array::from_fn`, iterator adaptors.
use core::convert::TryFrom;

#[derive(Clone, Copy)]
struct Acc<const N: usize> { v: [f32; N], n: u32 }

impl<const N: usize> Acc<N> {
    fn new() -> Self { Acc { v: [0.0; N], n: 0 } }
    fn push(&mut self, x: f32) { let k = self.n as usize % N; self.v[k] += x; self.n += 1; }
    fn total(&self) -> f32 { self.v.iter().sum() }
}

trait Reducer { type Out; fn step(&mut self, x: f32); fn finish(self) -> Self::Out; }
struct MaxR { m: f32 }
struct CountR { c: u32 }
impl Reducer for CountR {
    type Out = u32;
    fn step(&mut self, x: f32) { if x > 0.5 { self.c += 1; } }
    fn finish(self) -> u32 { self.c }
}
fn run_qualified<R: Reducer>(mut r: R, xs: &[f32]) -> <R as Reducer>::Out {
    for &x in xs { r.step(x); }
    r.finish()
}
impl Reducer for MaxR {
    type Out = f32;
    fn step(&mut self, x: f32) { if x > self.m { self.m = x; } }
    fn finish(self) -> f32 { self.m }
}

fn run<R: Reducer>(mut r: R, xs: &[f32]) -> R::Out where R::Out: Copy {
    for &x in xs { r.step(x); }
    r.finish()
}

fn halve(v: u32) -> Option<u32> { if v % 2 == 0 { Some(v / 2) } else { None } }
fn quarter(v: u32) -> Option<u32> { let h = halve(v)?; halve(h) }

fn sum_pairs(xs: &[f32]) -> f32 {
    match xs.len() {
        0 => 0.0,
        1 => xs[0],
        _ => xs[0] * xs[1] + sum_pairs_tail(&xs[2..]),
    }
}
fn sum_pairs_tail(xs: &[f32]) -> f32 { xs.iter().map(|v| v * 0.5).sum() }

fn apply_twice(f: impl Fn(f32) -> f32, x: f32) -> f32 { f(f(x)) }

fn compute(x: f32, i: usize) -> f32 {
    let mut a: Acc<3> = Acc::new();
    for k in 0..(i % 5 + 2) { a.push(x * k as f32); }
    let mut s = a.total();
    s += run(MaxR { m: f32::NEG_INFINITY }, &[x, 1.5, -x, 0.25]);
    s += run_qualified(CountR { c: 0 }, &[x, 1.0, x * x, -0.5]) as f32;
    s += quarter(i as u32).map_or(-1.0, |q| q as f32);
    let xs = [x, 2.0, 3.0, x * x];
    s += sum_pairs(&xs[..(i % 5).min(4)]);
    let k = 1.5f32;
    s += apply_twice(|y| y * k + 1.0, x);
    let b = u8::try_from(i).unwrap_or(255);
    s += b as f32 + u32::from(b) as f32 * 0.5;
    let (q, r) = (i / 7, i % 7);
    s += (q * 10 + r) as f32;
    s += (i as u32).leading_zeros() as f32 + (i as u32).count_ones() as f32
        + (i as u32 | 1).trailing_zeros() as f32;
    s += if matches!(i % 4, 1 | 3) { 1.0 } else { -1.0 };
    let grid: [[i32; 3]; 2] = [[1, 2, 3], [4, 5, i as i32]];
    for row in grid.iter() { s += row.iter().map(|&g| g as f32).sum::<f32>(); }
    let w = (i as u8).wrapping_mul(37).rotate_left(3);
    s += w as f32;
    let t: [u32; 4] = core::array::from_fn(|j| (j * j + i) as u32);
    s += t.iter().rev().skip(1).step_by(2).sum::<u32>() as f32;
    let mut counter = 0;
    let mut bump = |d: i32| counter += d;
    bump(3); bump(i as i32 % 4);
    s += counter as f32;
    let v = Vec3 { z: x, ..Vec3::unit() };
    s += v.x + v.y + v.z;
    s
}

#[derive(Clone, Copy)]
struct Vec3 { x: f32, y: f32, z: f32 }
impl Vec3 { fn unit() -> Self { Vec3 { x: 1.0, y: 1.0, z: 1.0 } } }
