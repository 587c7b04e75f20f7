// Traits in a module used through `use`, a supertrait whose default method calls the
// supertrait's, trait functions without `self` (`T::zero()`), and trait impls on an ADT
// defined with derives.
mod geo {
    pub trait Area {
        fn area(&self) -> f32;
    }
    pub trait Describe: Area {
        const K: f32 = 2.0;
        fn double_area(&self) -> f32 {
            self.area() * Self::K
        }
    }
    #[derive(Clone, Copy, Default, PartialEq, PartialOrd, Debug)]
    pub struct Sq(pub f32);
    impl Area for Sq {
        fn area(&self) -> f32 {
            self.0 * self.0
        }
    }
    impl Describe for Sq {}
}
use geo::{Area, Describe, Sq};

trait Zero {
    fn zero() -> Self;
    fn is_zero(self) -> bool;
}

impl Zero for f32 {
    fn zero() -> f32 {
        0.0
    }
    fn is_zero(self) -> bool {
        self == 0.0
    }
}

impl Zero for Sq {
    fn zero() -> Sq {
        Sq(0.0)
    }
    fn is_zero(self) -> bool {
        self.0 == 0.0
    }
}

fn compute(x: f32, i: usize) -> f32 {
    let s = Sq(x);
    let z = <f32 as Zero>::zero() + f32::zero() + (i as f32).is_zero() as u32 as f32;
    let q = Sq::zero();
    let d = s.double_area() + Describe::double_area(&s) + <Sq as Describe>::K;
    let m = if s > q && q.is_zero() { 1.0 } else { 0.5 };
    d + z + m + (s == Sq::default()) as i32 as f32 + (s <= q) as i32 as f32 * 3.0
}
