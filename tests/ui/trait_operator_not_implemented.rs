// An operator on a user type needs the operator's trait (E0369), for the right operand's
// type too (E0277); `==` needs `PartialEq`.
use core::ops::Mul;

#[derive(Clone, Copy)]
struct V {
    x: f32,
}

impl Mul<f32> for V {
    type Output = V;
    fn mul(self, k: f32) -> V {
        V { x: self.x * k }
    }
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let v = V { x: x[idx.get()] };
    let a = v + v;
    let b = v * v;
    let same = v == v;
    if let Some(o) = out.get_mut(idx) {
        *o = (v * 2.0).x;
    }
}

#[device]
fn more(v: V) -> f32 {
    let mut w = v;
    w += v;
    let n = -v;
    w.x
}
