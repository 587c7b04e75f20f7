// Unicode classifications need core's tables: refused (the ASCII form is suggested);
// `is_whitespace` is a fixed set and compiles.
#[device]
pub fn f(c: char) -> bool { c.is_alphabetic() || c.is_numeric() || c.is_whitespace() }
