#[kernel] pub fn k() { let x = 1; } @@@ ### $$$
