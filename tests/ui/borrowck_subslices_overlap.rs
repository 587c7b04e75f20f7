// Two live `&mut` sub-slices of one slice are two mutable borrows of it (E0499), and a
// shared sub-slice keeps the slice from being written while it is used (E0506).
#[kernel]
pub unsafe fn k(s: &mut [f32]) {
    let a = &mut s[0..2];
    let b = &mut s[1..3];
    a[0] = b[0];
    let c = &s[2..];
    s[0] = 1.0;
    let d = c[0];
    s[1] = d;
}
