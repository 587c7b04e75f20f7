// Device globals: read-only tables of scalars, structs and tuples; a `static mut` read in
// `unsafe`.
#[derive(Clone, Copy)]
struct Coeff { a: f32, b: i32, on: bool }

const BASE: [f32; 4] = [0.25, -0.5, 1.0, 2.0];
static TABLE: [f32; 4] = BASE;
static COEFFS: [Coeff; 3] = [
    Coeff { a: 1.5, b: -3, on: true },
    Coeff { a: 2.0, b: 7, on: false },
    Coeff { a: -0.75, b: 1, on: true },
];
static PAIR: (u16, f64) = (5, 0.125);
static GRID: [[u8; 3]; 2] = [[1, 2, 3], [4, 5, 6]];
static mut OFFSET: i64 = -9;

fn compute(x: f32, i: usize) -> f32 {
    let c = COEFFS[i % 3];
    let off = unsafe { OFFSET };
    let g = GRID[i % 2][i % 3] as f32;
    let on = if c.on { 1.0 } else { -1.0 };
    TABLE[i % 4] * x * c.a + c.b as f32 + PAIR.0 as f32 + PAIR.1 as f32 + off as f32 + g * on
}
