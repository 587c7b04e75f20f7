// rustc's unconditional_panic (deny by default): a division by a known zero, a known
// `MIN / -1`, an index past the end of an array, with values known in straight-line code.
const ZERO: u32 = 0;

#[kernel]
pub fn k(v: i32, w: u32, mut out: DisjointSlice<i64>) {
    let table = [3i64, 5, 7, 9];
    let d = v / 0;
    let r = w % ZERO;
    let m = i16::MIN / -1;
    let mut i = 3;
    i += 2;
    let e = table[i];
    let t = &table;
    let f = t[4];
    let g = 9u8 % 0;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = d as i64 + r as i64 + m as i64 + e + f + g as i64;
    }
}

// Not errors: an index that a known condition makes unreachable, a divisor that is only
// zero on a path the lint does not know about, and the lint allowed on a statement.
#[kernel]
pub fn fine(n: usize, mut out: DisjointSlice<i64>) {
    let table = [3i64, 5, 7, 9];
    let mut s = 0i64;
    if 2 + 2 == 5 {
        s += table[7];
    }
    let mut z = 1i64;
    if n == 0 {
        z = 0;
    }
    s += 100 / z;
    #[allow(unconditional_panic)]
    let trap = table[6];
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = s + trap;
    }
}
