#[kernel]
pub fn k(n: u32) {
    let mut i = n;
    while i {
        i -= 1;
    }
}
