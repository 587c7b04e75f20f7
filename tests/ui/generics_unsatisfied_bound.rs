// E0277 at the use that makes an instance whose argument lacks a bound: a core operator
// trait on `bool`, a user trait the type does not implement, `Copy` on a struct without it.
use core::ops::Add;

trait Half {
    fn half(self) -> Self;
}

impl Half for f32 {
    fn half(self) -> f32 {
        self * 0.5
    }
}

struct Plain {
    v: f32,
}

fn twice<T: Copy + Add<Output = T>>(a: T) -> T {
    a + a
}

fn halve<T>(a: T) -> T
where
    T: Half,
{
    a.half()
}

fn keep<T: Copy>(a: T) -> T {
    a
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let b = twice(i > 3);
    let h = halve(3u32);
    let p = keep(Plain { v: x[i] });
    let ok = halve(x[i]) + twice(x[i]);
    if let Some(o) = out.get_mut(idx) {
        *o = ok + p.v + h as f32 + if b { 1.0 } else { 0.0 };
    }
}
