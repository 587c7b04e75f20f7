#[kernal]
pub fn k() {}
