// Consts of enum type: `None`, unit variants, and variants whose payload is a reference
// to a static (`Some(&TABLE[1])`, `Tagged::Present(&TABLE[0])`), returned from functions
// and matched.
const FIRST: u32 = 0x1122_3344;
const SECOND: u32 = 0x0877_6655;

static TABLE: [u32; 2] = [FIRST, SECOND];

const SOME_REF: Option<&'static u32> = Some(&TABLE[1]);
const NO_REF: Option<&'static u32> = None;

#[derive(Clone, Copy)]
enum Tagged {
    Empty,
    Present(&'static u32),
    Count(u16),
}

const EMPTY: Tagged = Tagged::Empty;
const PRESENT: Tagged = Tagged::Present(&TABLE[0]);
const COUNT: Tagged = Tagged::Count(513);

fn pick(i: usize) -> Tagged {
    match i % 3 {
        0 => EMPTY,
        1 => PRESENT,
        _ => COUNT,
    }
}

fn value_of(t: Tagged) -> u32 {
    match t {
        Tagged::Empty => 1,
        Tagged::Present(r) => *r >> 8,
        Tagged::Count(n) => n as u32 * 3,
    }
}

fn opt(i: usize) -> Option<&'static u32> {
    if i % 2 == 0 { SOME_REF } else { NO_REF }
}

fn compute(x: f32, i: usize) -> f32 {
    let a = value_of(pick(i));
    let b = match opt(i) {
        Some(r) => *r & 0xffff,
        None => 17,
    };
    x + (a % 10_000) as f32 + b as f32
}
