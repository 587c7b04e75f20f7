// Inherent impls: &self, &mut self, self, associated fns and consts, Self; tuple and unit
// structs; struct update syntax.
#[derive(Clone, Copy)]
struct Vec2 { x: f32, y: f32 }

impl Vec2 {
    const ORIGIN: Vec2 = Vec2 { x: 0.0, y: 0.0 };
    const HALF: f32 = 0.5;
    fn new(x: f32, y: f32) -> Self { Self { x, y } }
    fn dot(&self, o: Vec2) -> f32 { self.x * o.x + self.y * o.y }
    fn scaled(self, k: f32) -> Vec2 { Vec2::new(self.x * k, self.y * k) }
    fn add_to(&mut self, o: &Vec2) { self.x += o.x; self.y += o.y; }
    fn nudge(&mut self, d: f32) -> f32 {
        self.add_to(&Vec2::new(d, -d));
        self.y *= Self::HALF;
        self.x - self.y
    }
    fn swap(self: Self) -> Self { Vec2 { x: self.y, ..self } }
}

struct Meters(f32, f32);
struct Zero;

impl Meters {
    fn total(&self) -> f32 { self.0 + self.1 }
}

impl Zero {
    fn value(&self) -> f32 { 0.25 }
}

fn compute(x: f32, i: usize) -> f32 {
    let mut v = Vec2::new(x, i as f32);
    let w = v.scaled(Vec2::HALF);
    let d = v.nudge(x * 0.125);
    let m = Meters(w.x, d);
    let s = Vec2 { y: 3.0, ..w }.swap();
    v.dot(w) + m.total() + Zero.value() + s.x - s.y + Vec2::ORIGIN.x + compute2(x, i)
}

// `Self(..)` constructors, methods on array elements and through `&mut` parameters.
#[derive(Clone, Copy)]
struct Acc(f32, u32);

impl Acc {
    fn zero() -> Self { Self(0.0, 0) }
    fn push(&mut self, x: f32) { self.0 += x; self.1 += 1; }
    fn mean(&self) -> f32 { if self.1 == 0 { 0.0 } else { self.0 / self.1 as f32 } }
}

fn fill(accs: &mut [Acc; 3], x: f32) {
    for k in 0..3 {
        accs[k].push(x * k as f32);
    }
    accs[1].push(1.0);
}

fn compute2(x: f32, i: usize) -> f32 {
    let mut accs = [Acc::zero(); 3];
    fill(&mut accs, x);
    accs[i % 3].push(x);
    accs[0].mean() + accs[1].mean() * 2.0 + accs[2].mean() + accs[i % 3].1 as f32
}
