// Fully qualified paths `<T as Trait>::f` / `<T as Trait>::K` on a type parameter, on a
// struct and on a scalar, beside `T::f`.
trait Scale {
    const K: u32;
    fn scale(x: u32) -> u32;
    fn twice(&self) -> u32;
}

#[derive(Clone, Copy)]
struct A(u32);

impl Scale for A {
    const K: u32 = 3;
    fn scale(x: u32) -> u32 {
        x * Self::K
    }
    fn twice(&self) -> u32 {
        self.0 * 2
    }
}

impl Scale for u32 {
    const K: u32 = 5;
    fn scale(x: u32) -> u32 {
        x + Self::K
    }
    fn twice(&self) -> u32 {
        *self * 2
    }
}

fn go<T: Scale>(t: &T, x: u32) -> u32 {
    <T as Scale>::scale(x) + <T as Scale>::K + <T as Scale>::twice(t) + T::scale(1)
}

fn compute(x: f32, i: usize) -> f32 {
    let v = (x.to_bits() >> 20) ^ i as u32;
    let total = go(&A(v), v) + go(&v, 7) + <A as Scale>::K + <u32 as Scale>::scale(v);
    total as f32
}
