// rustc: in `-(-128i8)` the literal `128i8` is not the operand of the negation that makes
// it fit (the outer one negates the inner negation): `overflowing_literals`, an error.
// (rustc also reports `arithmetic_overflow` on the outer negation; oxidec does not have
// that lint yet.)
#[kernel]
pub fn k(mut out: DisjointSlice<i8>) {
    let t = thread::index_1d();
    let a = -(-128i8);
    let c: i8 = -128;
    if let Some(o) = out.get_mut(t) { *o = a ^ c; }
}
