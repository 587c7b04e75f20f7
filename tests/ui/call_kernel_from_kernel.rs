#[kernel]
pub fn a() {}

#[kernel]
pub fn b() {
    a();
}
