use core::ops::{Add, AddAssign, Index, IndexMut, Mul, Neg, Sub};

#[derive(Clone, Copy, Debug, PartialEq)]
struct V2<T> { x: T, y: T }
impl<T: Add<Output = T>> Add for V2<T> { type Output = V2<T>; fn add(self, o: Self) -> Self { V2 { x: self.x + o.x, y: self.y + o.y } } }
impl<T: Sub<Output = T>> Sub for V2<T> { type Output = Self; fn sub(self, o: Self) -> Self { V2 { x: self.x - o.x, y: self.y - o.y } } }
impl Mul<f32> for V2<f32> { type Output = V2<f32>; fn mul(self, k: f32) -> V2<f32> { V2 { x: self.x * k, y: self.y * k } } }
impl Neg for V2<f32> { type Output = Self; fn neg(self) -> Self { V2 { x: -self.x, y: -self.y } } }
impl AddAssign for V2<f32> { fn add_assign(&mut self, o: Self) { self.x += o.x; self.y += o.y; } }

struct Grid { cells: [f32; 6], w: usize }
impl Index<(usize, usize)> for Grid { type Output = f32; fn index(&self, (r, c): (usize, usize)) -> &f32 { &self.cells[r * self.w + c] } }
impl IndexMut<(usize, usize)> for Grid { fn index_mut(&mut self, (r, c): (usize, usize)) -> &mut f32 { &mut self.cells[r * self.w + c] } }

fn apply<F>(f: F, v: f32) -> f32 where F: Fn(f32) -> f32 { f(v) }
fn apply_mut<F: FnMut(f32)>(mut f: F, xs: &[f32]) { for &x in xs { f(x); } }
fn compose<A: Fn(f32) -> f32, B: Fn(f32) -> f32>(a: A, b: B, x: f32) -> f32 { b(a(x)) }

fn compute(x: f32, i: usize) -> f32 {
    let a = V2 { x, y: 2.0 };
    let b = V2 { x: 0.5, y: x * x };
    let mut c = (a + b) * 3.0 - -a;
    c += V2 { x: 1.0, y: i as f32 };
    let vi = V2 { x: 3u32, y: i as u32 } + V2 { x: 1, y: 2 };
    let mut g = Grid { cells: [0.0; 6], w: 3 };
    g[(1, 2)] = x;
    g[(0, 1)] += 2.5;
    let k = 1.25;
    let mut total = 0.0;
    apply_mut(|v| total += v * k, &[x, 1.0, g[(1, 2)]]);
    let sq = |v: f32| v * v;
    let r = apply(sq, x) + apply(|v| v + k, x) + compose(sq, |v| v - 1.0, x);
    let mut counter = 0u32;
    let mut tick = || { counter += 1; counter };
    let t1 = tick(); let t2 = tick();
    c.x + c.y + vi.x as f32 + vi.y as f32 + g[(1, 2)] + g[(0, 1)] + total + r + (t1 * 10 + t2) as f32
}
