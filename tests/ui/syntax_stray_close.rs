}
#[kernel]
pub fn k() {}
