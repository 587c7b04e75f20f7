mod geom {
    pub mod consts { pub const SCALE: f32 = 0.5; pub const N: usize = 3; }
    #[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
    pub struct P { pub x: f32, pub y: f32 }
    impl P { pub fn norm1(&self) -> f32 { self.x.abs() + self.y.abs() } }
    pub(crate) fn mid(a: P, b: P) -> P { P { x: (a.x + b.x) * super::geom::consts::SCALE, y: (a.y + b.y) * self::consts::SCALE } }
}
use geom::{consts::N, P};

trait Num: Copy { const ONE: Self; fn zero() -> Self; fn add(self, o: Self) -> Self; }
impl Num for f32 { const ONE: f32 = 1.0; fn zero() -> f32 { 0.0 } fn add(self, o: f32) -> f32 { self + o } }
impl Num for u32 { const ONE: u32 = 1; fn zero() -> u32 { 0 } fn add(self, o: u32) -> u32 { self.wrapping_add(o) } }
fn count_up<T: Num>(k: usize) -> T { let mut acc = T::zero(); for _ in 0..k { acc = acc.add(T::ONE); } acc }

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Level { Low = 1, Mid = 5, High = 9 }

#[derive(Default, Clone, Copy)]
struct Cfg { a: f32, b: u32, c: bool }

const fn twice(n: usize) -> usize { n * 2 }
const LEN: usize = twice(N) + 1;

fn classify(v: f32) -> Option<Level> {
    if v.is_nan() { None } else if v < 0.0 { Some(Level::Low) } else if v < 2.0 { Some(Level::Mid) } else { Some(Level::High) }
}

fn first_pos(xs: &[f32]) -> Option<usize> {
    let mut k = 0;
    let found = loop {
        if k >= xs.len() { break None; }
        if xs[k] > 0.0 { break Some(k); }
        k += 1;
    };
    found
}

fn compute(x: f32, i: usize) -> f32 {
    let p = P { x, y: -1.5 };
    let q = geom::mid(p, P::default());
    let mut s = q.norm1() + if p > q { 1.0 } else { 2.0 };
    s += count_up::<f32>(i % 5) + count_up::<u32>(i % 7) as f32;
    let lv = classify(x).unwrap_or(Level::Low);
    s += lv as u32 as f32 + if lv >= Level::Mid { 10.0 } else { 0.0 };
    s += match lv.cmp(&Level::Mid) { core::cmp::Ordering::Less => 1.0, core::cmp::Ordering::Equal => 2.0, core::cmp::Ordering::Greater => 3.0 };
    let c = Cfg { b: 3, ..Default::default() };
    s += c.a + c.b as f32 + c.c as u32 as f32;
    let arr = [x; LEN];
    s += arr.len() as f32;
    let Some(fp) = first_pos(&[-1.0, x, 2.0]) else { return -100.0; };
    s += fp as f32;
    if let Some(Level::High) = classify(x * 3.0) { s += 0.5; } else if let Some(l) = classify(x - 1.0) { s += l as i32 as f32 * 0.25; }
    let ch = (b'a' + (i % 26) as u8) as char;
    s += ch.is_ascii_lowercase() as u32 as f32 + (ch as u32 - 'a' as u32) as f32;
    s += ch.to_ascii_uppercase() as u32 as f32 * 0.01;
    s
}
