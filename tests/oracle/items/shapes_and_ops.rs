// A mix a kernel author writes without thinking about it: a Copy struct with an associated
// const, methods by value and by reference, `impl Add`; a trait with a default method used
// through a generic function over a slice; an enum with tuple, unit and struct variants
// matched with a guard; labelled breaks; iterator chains with filter/map/sum, fold, position,
// zip with rev and enumerate; Option combinators; `while let` on an expression.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Vec3 { x: f32, y: f32, z: f32 }

impl Vec3 {
    const ZERO: Vec3 = Vec3 { x: 0.0, y: 0.0, z: 0.0 };
    fn new(x: f32, y: f32, z: f32) -> Self { Self { x, y, z } }
    fn dot(self, o: Vec3) -> f32 { self.x * o.x + self.y * o.y + self.z * o.z }
    fn length(&self) -> f32 { self.dot(*self).sqrt() }
}

impl core::ops::Add for Vec3 {
    type Output = Vec3;
    fn add(self, o: Vec3) -> Vec3 { Vec3::new(self.x + o.x, self.y + o.y, self.z + o.z) }
}

trait Shape {
    fn area(&self) -> f32;
    fn scaled(&self, k: f32) -> f32 { self.area() * k }
}

struct Circle(f32);
struct Rect { w: f32, h: f32 }
impl Shape for Circle { fn area(&self) -> f32 { 3.14159 * self.0 * self.0 } }
impl Shape for Rect { fn area(&self) -> f32 { self.w * self.h } }

fn total<S: Shape>(shapes: &[S]) -> f32 {
    shapes.iter().map(|s| s.area()).sum()
}

enum Op { Add(f32), Mul(f32), Neg, Clamp { lo: f32, hi: f32 } }

fn apply(op: &Op, v: f32) -> f32 {
    match *op {
        Op::Add(a) => v + a,
        Op::Mul(m) if m > 1.5 => v * m,
        Op::Mul(_) => 0.5,
        Op::Neg => -v,
        Op::Clamp { lo, hi } => v.max(lo).min(hi),
    }
}

fn compute(x: f32, i: usize) -> f32 {
    let v = Vec3::new(x, 1.0, i as f32 * 0.25) + Vec3::ZERO;
    let m = if i % 3 == 0 { 2.0 } else { 1.0 };
    let ops = [Op::Add(x), Op::Mul(m), Op::Neg, Op::Clamp { lo: -5.0, hi: 3.0 }];
    let mut acc = v.length();
    for op in ops.iter() {
        acc = apply(op, acc);
    }
    let circles = [Circle(x), Circle(2.0)];
    acc += total(&circles);
    let r = Rect { w: x, h: 3.0 };
    acc += r.scaled(0.5);
    let evens: u32 = (0..(i as u32 % 13)).filter(|k| k % 2 == 0).map(|k| k * k).sum();
    acc += evens as f32;
    let mut count = 0;
    'outer: for j in 0..4 {
        for k in 0..4 {
            if j * k > (i % 7) { break 'outer; }
            count += 1;
        }
    }
    acc += count as f32;
    let arr = [3.0f32, x, 4.0, 1.0, -x];
    let mx = arr.iter().cloned().fold(f32::MIN, |a, b| a.max(b));
    let pos = arr.iter().position(|&y| y > 3.5).unwrap_or(99);
    acc += mx + pos as f32;
    for (n, (p, q)) in arr.iter().zip(arr.iter().rev()).enumerate() {
        acc += (n as f32) * (p - q);
    }
    let opt: Option<f32> = if acc > 0.0 { Some(acc) } else { None };
    acc = opt.map(|y| y * 2.0).unwrap_or_default();
    while let Some(y) = if acc > 10.0 { Some(acc) } else { None } {
        acc = y / 3.0;
    }
    acc
}
