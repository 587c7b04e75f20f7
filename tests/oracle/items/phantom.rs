// core::marker::PhantomData: zero-sized marker fields in generic structs (size, copies,
// derives, construction by every path spelling).
use core::marker::PhantomData;

#[derive(Clone, Copy, PartialEq, Default)]
struct Tagged<T, U> { value: T, unit: PhantomData<U> }

#[derive(Clone, Copy, PartialEq, Default)]
struct Meters;
#[derive(Clone, Copy, PartialEq, Default)]
struct Feet;

impl<T: Copy, U> Tagged<T, U> {
    fn new(value: T) -> Self { Tagged { value, unit: PhantomData } }
    fn get(&self) -> T { self.value }
}

fn to_feet(m: Tagged<f32, Meters>) -> Tagged<f32, Feet> {
    Tagged { value: m.get() * 3.28084, unit: core::marker::PhantomData }
}

struct Pair<A> { a: u16, b: u16, _m: PhantomData<A>, _n: PhantomData<(A, u64)> }

fn compute(x: f32, i: usize) -> f32 {
    let m: Tagged<f32, Meters> = Tagged::new(x);
    let f = to_feet(m);
    let d: Tagged<i32, Feet> = Default::default();
    let same = (m == Tagged { value: x, unit: PhantomData::<Meters> }) as i32;
    let p = Pair::<f64> { a: i as u16, b: 7, _m: PhantomData, _n: PhantomData };
    let sizes = core::mem::size_of::<Tagged<f32, Meters>>()
        + core::mem::size_of::<PhantomData<[f64; 8]>>() * 100
        + core::mem::size_of::<Pair<f64>>() * 1000
        + core::mem::align_of::<Pair<u64>>() * 10000;
    let copy = f;
    f.get() + copy.value + d.value as f32 + same as f32 * 2.0 + (p.a + p.b) as f32
        + sizes as f32
}
