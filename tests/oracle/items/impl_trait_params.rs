// `impl Trait` in argument position (also behind `&` and `&mut`): an anonymous generic
// parameter per occurrence, instantiated per call.
trait Shape {
    const SIDES: u32;
    fn area(&self) -> f32;
    fn grow(&mut self, by: f32);
    fn describe(&self) -> f32 { self.area() + Self::SIDES as f32 }
}

#[derive(Clone, Copy)]
struct Sq(f32);
#[derive(Clone, Copy)]
struct Tri { b: f32, h: f32 }

impl Shape for Sq {
    const SIDES: u32 = 4;
    fn area(&self) -> f32 { self.0 * self.0 }
    fn grow(&mut self, by: f32) { self.0 += by; }
}

impl Shape for Tri {
    const SIDES: u32 = 3;
    fn area(&self) -> f32 { 0.5 * self.b * self.h }
    fn grow(&mut self, by: f32) { self.h *= by; }
}

fn total(a: impl Shape, b: &impl Shape) -> f32 { a.describe() * 2.0 + b.describe() }
fn enlarge(s: &mut impl Shape, by: f32) -> f32 { s.grow(by); s.area() }
fn scaled(x: impl Into<f64>, k: f64) -> f64 { x.into() * k }

fn compute(x: f32, i: usize) -> f32 {
    let mut sq = Sq(x);
    let mut tri = Tri { b: 2.0, h: i as f32 };
    let t = total(sq, &tri) + total(tri, &sq);
    let e = enlarge(&mut sq, 1.5) + enlarge(&mut tri, 0.5);
    t + e + sq.0 + tri.h + scaled(i as u32, 0.25) as f32 + scaled(x, 2.0) as f32
}
