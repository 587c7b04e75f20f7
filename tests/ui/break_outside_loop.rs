#[kernel]
pub fn k(n: u32) {
    if n > 4 {
        break;
    }
}
