#[kernel]
pub fn k(a: bool, b: bool) {
    let c = a + b;
}
