// Constants, tables and functions reached from nested modules: `super::NAME`,
// `super::super::NAME`, `use super::*`, `crate::` and `self::` paths.
const SCALE: f32 = 1.5;
const TABLE: [f32; 4] = [0.5, -1.0, 2.25, 4.0];

mod outer {
    use super::*;

    pub const OFFSET: f32 = SCALE * 2.0;
    pub const LOCAL: [(u8, f32); 2] = [(3, 0.75), (5, -0.25)];

    pub mod inner {
        use super::*;

        pub fn apply(x: f32, i: usize) -> f32 {
            let (k, w) = LOCAL[i % 2];
            x * super::super::SCALE + super::OFFSET + TABLE[i % 4] + k as f32 * w
                + self::bias() + crate::TABLE[(i + 1) % 4]
        }

        fn bias() -> f32 { super::OFFSET - SCALE }
    }
}

fn compute(x: f32, i: usize) -> f32 {
    outer::inner::apply(x, i) + outer::LOCAL[1].1
}
