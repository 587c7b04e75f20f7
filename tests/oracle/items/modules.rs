// Nested modules, paths, uses (globs, renames, groups), items in function bodies.
const SCALE: f32 = 1.5;

mod physics {
    pub const G: f32 = 9.75;

    pub mod units {
        use super::*;
        pub fn weight(m: f32) -> f32 { m * G * crate::SCALE }
        pub fn half(v: f32) -> f32 { v * self::HALF }
        const HALF: f32 = 0.5;
    }

    pub fn energy(m: f32, h: f32) -> f32 { units::weight(m) * h }
}

mod api {
    pub use crate::physics::units::{half as halve, weight};
    pub use crate::physics::*;
}

use api::{energy, halve};

fn compute(x: f32, i: usize) -> f32 {
    const K: f32 = 0.75;
    fn local(v: f32) -> f32 { v * K - 1.0 }
    struct Pair { a: f32, b: f32 }
    let p = Pair { a: x, b: i as f32 };
    let e = energy(p.a, 2.0) + api::weight(p.b) + physics::G;
    local(halve(e)) + super_path(x)
}

fn super_path(x: f32) -> f32 {
    self::physics::units::half(x) + crate::physics::G
}
