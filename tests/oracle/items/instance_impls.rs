// Impls of single instances of a generic type (`impl Wrap<f32>`, `impl Tr for Wrap<u32>`),
// the same method name in two instances' impls, a generic impl beside them, qualified
// paths `<Wrap<u32> as Measure>::measure`, and blanket impls (`impl<T: Measure> Describe
// for T`) reached by method calls, through a bound and on a scalar.
#[derive(Clone, Copy)]
struct Wrap<T> {
    v: T,
    k: u32,
}

impl Wrap<f32> {
    fn get(self) -> f32 {
        self.v * 2.0 + self.k as f32
    }
    fn make(v: f32) -> Self {
        Wrap { v, k: 3 }
    }
}

impl Wrap<u32> {
    fn get(self) -> f32 {
        (self.v ^ self.k) as f32
    }
}

impl<T: Copy> Wrap<T> {
    fn doubled_k(&self) -> u32 {
        self.k * 2
    }
}

trait Measure {
    fn measure(&self) -> f32;
    fn twice(&self) -> f32 {
        self.measure() * 2.0
    }
}

impl Measure for Wrap<f32> {
    fn measure(&self) -> f32 {
        self.v + 100.0
    }
}

impl Measure for Wrap<u32> {
    fn measure(&self) -> f32 {
        self.v as f32 - 100.0
    }
}

impl Measure for f32 {
    fn measure(&self) -> f32 {
        *self * 3.0
    }
}

trait Describe {
    fn describe(&self) -> f32;
    fn label(&self) -> u32 {
        7
    }
}

impl<T: Measure> Describe for T {
    fn describe(&self) -> f32 {
        self.measure() + 1.0
    }
}

fn through_bound<D: Describe>(d: &D) -> f32 {
    d.describe() * 0.5 + d.label() as f32
}

fn compute(x: f32, i: usize) -> f32 {
    let a = Wrap::<f32>::make(x);
    let b = Wrap { v: i as u32 * 3, k: 5 };
    let c: Wrap<u32> = Wrap { v: 11, k: i as u32 };
    a.get() + b.get() - c.get() + a.doubled_k() as f32 + b.doubled_k() as f32
        + b.measure() + a.twice() + <Wrap<u32> as Measure>::measure(&c)
        + <Wrap<f32> as Describe>::describe(&a) + b.describe() + through_bound(&a)
        + through_bound(&x) + x.describe() + x.measure() + a.label() as f32
}
