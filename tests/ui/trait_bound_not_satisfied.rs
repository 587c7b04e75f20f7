// A generic function's bounds are checked for the types it is called with (E0277): a
// user trait the type does not implement, and a core trait (`Copy`) it does not have.
trait Shape {
    fn area(&self) -> f32;
}

#[derive(Clone, Copy)]
struct Square {
    side: f32,
}

struct Circle {
    r: f32,
}

impl Shape for Square {
    fn area(&self) -> f32 {
        self.side * self.side
    }
}

fn doubled<T: Shape>(s: &T) -> f32 {
    2.0 * s.area()
}

fn first<T>(a: T, b: T) -> T
where
    T: Copy,
{
    a
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let s = Square { side: x[idx.get()] };
    let c = Circle { r: 1.0 };
    let a = doubled(&s) + doubled(&c);
    let d = first(c, Circle { r: 2.0 });
    if let Some(o) = out.get_mut(idx) {
        *o = a + d.r;
    }
}
