// No arithmetic_overflow where rustc gives none: an unrolled loop's variable is a variable
// to Rust, a value merged from two branches is unknown, wrapping_* never overflows, and
// `#[allow(arithmetic_overflow)]` silences the lint.
#[kernel]
pub fn k(a: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let mut t = 0u32;
    for j in 0..4u32 {
        t += 1u32 << (j * 11);
    }
    let mut m = 250u8;
    if i < a.len() && a[i] > 3 {
        m = 1;
    }
    m += 10;
    let v: u8;
    if i % 2 == 0 {
        v = 255;
    } else {
        v = 0;
    }
    let w = v + 1;
    let z = 255u8.wrapping_add(1);
    if let Some(o) = out.get_mut(idx) {
        *o = t + m as u32 + w as u32 + z as u32 + allowed() + dead_branch(3) as u32;
    }
}

#[device]
#[allow(arithmetic_overflow)]
fn allowed() -> u32 {
    (1u8 << 9) as u32
}

// Code a known condition makes unreachable is not linted (as rustc's const propagation).
#[device]
fn dead_branch(x: i64) -> i64 {
    if (0x4000u16 & u16::MAX) != 16384 {
        8i64 - -9223372036854775807i64
    } else if false || 3 > 4 {
        x + (1i64 << 70)
    } else {
        x
    }
}
