// User traits with required and default methods, associated consts (with defaults) and
// types, impls for structs, enums and primitive types, every calling syntax.
trait Shape {
    const SIDES: u32;
    const SCALE: f32 = 1.5;
    type Unit;
    fn area(&self) -> f32;
    fn perimeter(&self) -> f32;
    // a default method calling the required ones and an associated const
    fn ratio(&self) -> f32 {
        self.area() / (self.perimeter() + Self::SCALE)
    }
    fn sides(&self) -> u32 {
        Self::SIDES
    }
}

#[derive(Clone, Copy)]
struct Rect {
    w: f32,
    h: f32,
}

#[derive(Clone, Copy)]
struct Tri(f32, f32, f32);

impl Shape for Rect {
    const SIDES: u32 = 4;
    type Unit = f32;
    fn area(&self) -> f32 {
        self.w * self.h
    }
    fn perimeter(&self) -> f32 {
        2.0 * (self.w + self.h)
    }
}

impl Shape for Tri {
    const SIDES: u32 = 3;
    const SCALE: f32 = 0.25;
    type Unit = f64;
    fn area(&self) -> f32 {
        let s = (self.0 + self.1 + self.2) * 0.5;
        (s * (s - self.0).abs() * (s - self.1).abs() * (s - self.2).abs()).sqrt()
    }
    fn perimeter(&self) -> f32 {
        self.0 + self.1 + self.2
    }
    // overrides the default
    fn sides(&self) -> u32 {
        Self::SIDES * 10
    }
}

// an inherent method with the same name as a trait's: the inherent one wins
impl Rect {
    fn sides(&self) -> u32 {
        99
    }
}

trait Halve {
    fn halve(self) -> Self;
    fn quarter(self) -> Self;
}

impl Halve for f32 {
    fn halve(self) -> f32 {
        self * 0.5
    }
    fn quarter(self) -> f32 {
        self.halve().halve()
    }
}

impl Halve for u32 {
    fn halve(self) -> u32 {
        self >> 1
    }
    fn quarter(self) -> Self {
        Self::halve(Self::halve(self))
    }
}

#[derive(Clone, Copy)]
enum Mode {
    Low,
    High,
}

trait Weight {
    fn weight(self) -> f32;
}

impl Weight for Mode {
    fn weight(self) -> f32 {
        match self {
            Mode::Low => 0.5,
            Mode::High => 2.0,
        }
    }
}

fn unit_bytes(r: Rect) -> f32 {
    let u: <Rect as Shape>::Unit = r.w;
    let t: <Tri as Shape>::Unit = 2.0;
    u + t as f32
}

fn compute(x: f32, i: usize) -> f32 {
    let r = Rect { w: x, h: (i % 7) as f32 + 0.5 };
    let t = Tri(x.abs() + 3.0, 4.0, 5.0);
    let mode = if i % 2 == 0 { Mode::Low } else { Mode::High };
    let a = r.ratio() + t.ratio();
    let b = Shape::area(&r) + <Tri as Shape>::perimeter(&t) + Rect::area(&r);
    let c = (r.sides() + Shape::sides(&r) + t.sides() + Rect::SIDES + <Tri as Shape>::SIDES) as f32;
    let d = x.halve() + f32::quarter(x) + (i as u32).quarter() as f32 + Halve::halve(x);
    let e = mode.weight() * Tri::SCALE + Rect::SCALE;
    a + b + c + d + e + unit_bytes(r)
}
