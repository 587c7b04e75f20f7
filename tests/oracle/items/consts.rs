// Consts of aggregate type, consts inside function bodies, consts computed by calls.
#[derive(Clone, Copy)]
struct Range { lo: f32, hi: f32 }

impl Range {
    const UNIT: Range = Range { lo: 0.0, hi: 1.0 };
    fn clamp(self, x: f32) -> f32 { x.max(self.lo).min(self.hi) }
    fn width(&self) -> f32 { self.hi - self.lo }
}

const fn square(x: u32) -> u32 { x * x }
const fn widen(r: Range, by: f32) -> Range { Range { lo: r.lo - by, hi: r.hi + by } }

const WEIGHTS: [f32; 3] = [0.5, 0.25, 0.125];
const PAIRS: [(u32, f32); 2] = [(3, 1.5), (4, -2.0)];
const WIDE: Range = widen(Range::UNIT, 1.5);
const SQ: u32 = square(7) + 1;

fn compute(x: f32, i: usize) -> f32 {
    const LOCAL: (f32, [u32; 2]) = (0.75, [10, 20]);
    let p = PAIRS[i % 2];
    let r = WIDE;
    r.clamp(x) * WEIGHTS[i % 3] + p.0 as f32 * p.1 + LOCAL.0 * LOCAL.1[i % 2] as f32
        + SQ as f32 + Range::UNIT.width() + WIDE.width()
}
