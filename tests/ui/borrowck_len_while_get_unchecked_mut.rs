// The reference `get_unchecked_mut` returns borrows `out` mutably for as long as it lives,
// exactly as `get_mut`'s does: `out.len()` while it is alive is E0502.
#[kernel]
pub unsafe fn k(mut out: DisjointSlice<usize>) {
    let i = thread::index_1d().get();
    let o = unsafe { out.get_unchecked_mut(i) };
    *o = out.len();
}
