// Constants rustc computes at compile time: a table built by a block with a `while` loop,
// arrays of tuples and of structs, indexing and field reads inside other constants, a
// const fn filling an array, references to tables and a slice of a static.
const N: usize = 16;

#[derive(Clone, Copy)]
struct Knot { at: u32, w: f32, on: bool }

const RAMP: [f32; N] = {
    let mut t = [0.0_f32; N];
    let mut i = 0;
    while i < N {
        t[i] = (i as f32) * 0.375 - 2.5;
        i += 1;
    }
    t
};

const fn squares() -> [u32; 8] {
    let mut s = [0u32; 8];
    let mut k = 0;
    while k < 8 {
        s[k] = (k * k) as u32 + 1;
        k += 1;
    }
    s
}

const SQ: [u32; 8] = squares();
const PAIRS: [(u16, f32); 3] = [(4, 0.5), (9, -1.25), (250, 3.0)];
const KNOTS: [Knot; 2] = [Knot { at: 7, w: 0.75, on: true }, Knot { at: 2, w: -4.0, on: false }];
const PICKED: f32 = RAMP[5] * PAIRS[1].1 + KNOTS[0].w;
const AT_SUM: u32 = KNOTS[0].at + KNOTS[1].at + SQ[7];
const GRID: [[i8; 3]; 2] = {
    let mut g = [[0i8; 3]; 2];
    g[1][2] = -7;
    g[0][1] = 5;
    g[1][0] += 3;
    g
};
const MIXED: (u8, [f32; 2], Knot) = (200, [1.5, -0.5], Knot { at: 11, w: 2.0, on: true });
const RAMP_REF: &[f32; N] = &RAMP;
static LEVELS: [f32; 4] = [0.25, 0.5, 1.0, 2.0];
const LEVELS_SLICE: &[f32] = &LEVELS;

fn levels() -> &'static [f32] {
    LEVELS_SLICE
}

fn compute(x: f32, i: usize) -> f32 {
    let k = KNOTS[i % 2];
    let on = if k.on { 1.0 } else { -1.0 };
    let (small, half, knot) = MIXED;
    let g = GRID[i % 2][i % 3] as f32;
    x * RAMP[i % N] + RAMP_REF[(i + 3) % N] + SQ[i % 8] as f32 + PAIRS[i % 3].0 as f32
        + PAIRS[i % 3].1 + k.w * on + k.at as f32 + PICKED + AT_SUM as f32 + g
        + small as f32 + half[i % 2] + knot.w + levels()[i % levels().len()]
        + levels().len() as f32
}
