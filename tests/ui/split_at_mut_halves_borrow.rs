// `split_at_mut` gives two disjoint `&mut` halves that may be used together, but the
// slice itself stays mutably borrowed while either half is alive (E0502, E0506).
#[device]
pub fn both_halves(s: &mut [u32], k: usize) -> u32 {
    let (l, r) = s.split_at_mut(k);
    l[0] += r[0];
    l[0]
}

#[device]
pub fn slice_while_half_alive(s: &mut [u32], k: usize) -> u32 {
    if let Some((l, r)) = s.split_at_mut_checked(k) {
        s[0] = 1;
        l[0] += r[0];
    }
    s[0]
}
