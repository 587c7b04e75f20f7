// Statics whose initialiser rustc evaluates at compile time beyond literals: a `const fn`
// call building an array, a block with a loop, a copy of an aggregate const.
const fn ramp() -> [u32; 8] {
    let mut t = [0u32; 8];
    let mut i = 0;
    while i < 8 {
        t[i] = (i * 3) as u32 ^ 5;
        i += 1;
    }
    t
}

const PAIRS: [(u16, f32); 3] = [(4, 0.5), (9, -1.25), (250, 3.0)];

static RAMP: [u32; 8] = ramp();
static BLOCK: [f32; 4] = {
    let mut t = [1.5f32; 4];
    t[2] = -9.25;
    t[3] *= 4.0;
    t
};
static PAIRS_COPY: [(u16, f32); 3] = PAIRS;

fn compute(x: f32, i: usize) -> f32 {
    let (a, b) = PAIRS_COPY[i % 3];
    x * BLOCK[i % 4] + RAMP[i % 8] as f32 + a as f32 * b
}
