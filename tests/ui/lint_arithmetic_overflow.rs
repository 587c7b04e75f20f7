// rustc's arithmetic_overflow (deny by default): known operands whose `+ - *`, shift or
// negation overflows, through constants, `const` items and locals in straight-line code.
const N: u8 = 200;

#[kernel]
pub fn k(mut out: DisjointSlice<i64>) {
    let x: u8 = 255 + 1;
    let y = 1i32 << 40;
    let a = 200u8;
    let b = a + 100;
    let c = N * 2;
    let d = -i8::MIN;
    let e = 5u64 >> 64u32;
    let f = -100i8 - 100;
    let g = 0usize - 1;
    let h = i64::MIN * -1;
    let s = 1u8 << -1i32;
    let mut m = 250u8;
    m += 10;
    let w = (3u8 as u32) << 33;
    let t = x as i64 + y as i64 + b as i64 + c as i64 + d as i64 + e as i64 + f as i64
        + g as i64 + h + s as i64 + m as i64 + w as i64;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = t;
    }
}
