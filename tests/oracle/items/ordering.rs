// core::cmp: Ordering (match, casts, `==`, is_* predicates, reverse, then), `cmp` on
// integers, char and bool, `partial_cmp` on floats (NaN -> None), `total_cmp`, derived and
// hand-written Ord/PartialOrd with `<`/`>` going through `partial_cmp`; `max_by`/`min_by`
// (ties: the last greatest, the first least).
use core::cmp::Ordering;

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Key { major: i32, minor: u8 }

// ordered by distance from 2.0 only: the hand-written impls are the subject
#[derive(Clone, Copy)]
struct Dist { v: f32 }
impl PartialEq for Dist {
    fn eq(&self, other: &Self) -> bool { (self.v - 2.0).abs() == (other.v - 2.0).abs() }
}
impl PartialOrd for Dist {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        (self.v - 2.0).abs().partial_cmp(&(other.v - 2.0).abs())
    }
}

#[derive(Clone, Copy)]
struct Wrap<T> { items: [T; 2] }
impl<T: Ord + Copy> Wrap<T> {
    fn order(&self, other: &Self) -> Ordering {
        self.items[0].cmp(&other.items[0]).then(self.items[1].cmp(&other.items[1]))
    }
}

fn code(o: Ordering) -> i32 {
    match o {
        Ordering::Less => 1,
        Ordering::Equal => 2,
        Ordering::Greater => 3,
    }
}

fn pcode(o: Option<Ordering>) -> i32 {
    match o { Some(v) => code(v), None => 7 }
}

fn preds(o: Ordering) -> i32 {
    (o.is_lt() as i32) | (o.is_le() as i32) << 1 | (o.is_gt() as i32) << 2
        | (o.is_ge() as i32) << 3 | (o.is_eq() as i32) << 4 | (o.is_ne() as i32) << 5
}

fn compute(x: f32, i: usize) -> f32 {
    let n = i as i32 - 60;
    let y = if i % 7 == 0 { f32::NAN } else if i % 11 == 0 { -0.0 } else { x * 0.5 };
    let a = n.cmp(&3);
    let b = (i as u8).cmp(&200u8.wrapping_add(i as u8));
    let c = ('a' as u8 + (i % 26) as u8) as char;
    let d = c.cmp(&'m');
    let e = (i % 2 == 0).cmp(&(i % 3 == 0));
    let f = x.partial_cmp(&y);
    let g = y.total_cmp(&x);
    let h = y.total_cmp(&0.0);
    let k1 = Key { major: n % 4, minor: (i % 5) as u8 };
    let k2 = Key { major: 1, minor: 2 };
    let kc = k1.cmp(&k2);
    let kp = k1.partial_cmp(&k2);
    let kl = (k1 < k2) as i32 + (k1 >= k2) as i32 * 2;
    let d1 = Dist { v: x };
    let d2 = Dist { v: y };
    let dl = (d1 < d2) as i32 | ((d1 > d2) as i32) << 1 | ((d1 <= d2) as i32) << 2
        | ((d1 >= d2) as i32) << 3 | ((d1 == d2) as i32) << 4;
    let w1 = Wrap { items: [n % 3, n % 5] };
    let w2 = Wrap { items: [0, 1] };
    let wo = w1.order(&w2);
    let r = a.reverse();
    let t = Ordering::Equal.then(b);
    let same = (a == Ordering::Less) as i32 + (r != b) as i32 * 2;
    let casts = a as i32 + (b as i8) as i32 * 3 + r as i32 * 9;
    let total = code(a) + code(b) * 4 + code(d) * 16 + code(e) * 64 + pcode(f) * 256
        + code(g) * 2048 + code(h) * 16384;
    let more = code(kc) + pcode(kp) * 4 + kl * 32 + dl * 128 + code(wo) * 4096 + preds(r) * 16
        + code(t) * 65536 + same * 262144 + (n.clamp(-5, 17) + 5) * 1048576;
    let arr = [x, y, -x, 0.5, x * 0.5, (i % 3) as f32];
    let hi = arr.iter().max_by(|p, q| p.total_cmp(q)).copied().unwrap_or(9.0);
    let lo = arr.iter().copied().min_by(|p, q| p.total_cmp(q)).unwrap_or(9.0);
    let keys = [Key { major: 1, minor: 2 }, k1, k2, Key { major: n % 2, minor: 9 }];
    let kmax = keys.iter().enumerate().max_by(|a, b| a.1.cmp(b.1)).map(|(j, _)| j).unwrap_or(9);
    let kmin = keys.iter().enumerate().min_by(|a, b| a.1.cmp(b.1)).map(|(j, _)| j).unwrap_or(9);
    let empty: &[f32] = &arr[..0];
    let none = empty.iter().max_by(|p, q| p.total_cmp(q)).is_none() as i32;
    total as f32 + more as f32 * 0.5 + casts as f32 * 0.25 + preds(g) as f32 * 3.0
        + (hi.to_bits() % 4093) as f32 * 7.0 + (lo.to_bits() % 4091) as f32 * 11.0 + (kmax * 10 + kmin) as f32 * 13.0 + none as f32
}
