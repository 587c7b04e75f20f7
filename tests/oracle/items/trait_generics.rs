// Traits with generics: bounds on type parameters (methods, associated consts and
// functions through `T`), `where` clauses, operator bounds, and generic impls
// (`impl<T: ..> Trait for V2<T>`) with default methods and associated types.
use core::ops::{Add, Mul, Sub};

trait Shape {
    const SIDES: u32;
    fn area(&self) -> f32;
    fn scaled_area(&self, k: f32) -> f32 {
        self.area() * k
    }
}

trait Zero {
    fn zero() -> Self;
}

#[derive(Clone, Copy)]
struct Sq(f32);

#[derive(Clone, Copy)]
struct Tri(f32, f32);

impl Shape for Sq {
    const SIDES: u32 = 4;
    fn area(&self) -> f32 {
        self.0 * self.0
    }
}

impl Shape for Tri {
    const SIDES: u32 = 3;
    fn area(&self) -> f32 {
        0.5 * self.0 * self.1
    }
}

impl Zero for f32 {
    fn zero() -> f32 {
        0.0
    }
}

impl Zero for u32 {
    fn zero() -> u32 {
        0
    }
}

fn weigh<T: Shape>(s: &T, k: f32) -> f32 {
    s.scaled_area(k) + T::SIDES as f32 + <T as Shape>::SIDES as f32
}

fn sum3<T>(a: T, b: T, c: T) -> T
where
    T: Zero + Add<Output = T> + Copy,
{
    T::zero() + a + b + c
}

fn lerp<T: Copy + Add<Output = T> + Sub<Output = T> + Mul<Output = T>>(a: T, b: T, t: T) -> T {
    a + (b - a) * t
}

#[derive(Clone, Copy)]
struct V2<T> {
    x: T,
    y: T,
}

trait Norm {
    type Out;
    fn norm2(&self) -> Self::Out;
    fn tag(&self) -> u32 {
        7
    }
}

impl<T: Copy + Mul<Output = T> + Add<Output = T>> Norm for V2<T> {
    type Out = T;
    fn norm2(&self) -> T {
        self.x * self.x + self.y * self.y
    }
}

impl<T: Copy + Add<Output = T>> Add for V2<T> {
    type Output = V2<T>;
    fn add(self, o: V2<T>) -> V2<T> {
        V2 { x: self.x + o.x, y: self.y + o.y }
    }
}

fn compute(x: f32, i: usize) -> f32 {
    let a = weigh(&Sq(x), 2.0) + weigh(&Tri(x, 3.0), 0.5);
    let b = sum3(x, 1.0, 2.5) + sum3(i as u32, 3, 4) as f32;
    let c = lerp(x, 10.0, 0.25) + lerp(i as i32, 100, 2) as f32;
    let p = V2 { x, y: 2.0f32 };
    let q = V2 { x: i as u32, y: 4u32 };
    let d = (p + p).norm2() + (q + q).norm2() as f32 + p.tag() as f32;
    a + b + c + d
}
