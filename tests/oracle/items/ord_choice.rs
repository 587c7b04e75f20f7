// `max`, `min` and `clamp` of `Ord` types: derived on a struct and a fieldless enum, and
// through a hand-written `cmp` that looks at one field only, so ties show which value core's
// defaults return (`max` the argument, `min` the receiver on `Equal`).
use core::cmp::Ordering;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key {
    major: u32,
    minor: u32,
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Low,
    Mid,
    Upper,
    High,
}

#[derive(Clone, Copy)]
struct ByWeight {
    weight: u32,
    tag: u32,
}

impl PartialEq for ByWeight {
    fn eq(&self, other: &Self) -> bool {
        self.weight == other.weight
    }
}

impl Eq for ByWeight {}

impl PartialOrd for ByWeight {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByWeight {
    fn cmp(&self, other: &Self) -> Ordering {
        other.weight.cmp(&self.weight) // heavier first: the reverse order
    }
}

fn level(v: u32) -> Level {
    match v % 4 {
        0 => Level::Low,
        1 => Level::Mid,
        2 => Level::Upper,
        _ => Level::High,
    }
}

fn code(l: Level) -> u32 {
    match l {
        Level::Low => 1,
        Level::Mid => 10,
        Level::Upper => 20,
        Level::High => 50,
    }
}

fn compute(x: f32, i: usize) -> f32 {
    let bits = x.to_bits();
    let v = i as u32;
    let a = Key { major: bits % 3, minor: v % 5 };
    let b = Key { major: 1, minor: (bits >> 3) % 5 };
    let m = a.max(b);
    let n = a.min(b);
    let c = a.clamp(Key { major: 0, minor: 3 }, Key { major: 1, minor: 2 });
    let keys = m.major * 7 + m.minor + (n.major * 7 + n.minor) * 31
        + (c.major * 7 + c.minor) * 961;

    let l = level(v).max(level(bits)).min(Level::Upper);
    let lc = level(v >> 1).clamp(Level::Mid, Level::Upper);

    let p = ByWeight { weight: v % 3, tag: 1 };
    let q = ByWeight { weight: bits % 3, tag: 2 };
    let lo = ByWeight { weight: 2, tag: 3 };
    let hi = ByWeight { weight: 1, tag: 4 };
    let w = p.max(q).tag * 100 + p.min(q).tag * 10 + p.clamp(lo, hi).tag;
    (keys + code(l) * 100_000 + code(lc) * 7_000_000) as f32 + w as f32 * 0.5
}
