// Slice patterns: a match that misses some lengths (E0004 names them, as rustc does), an
// arm no length reaches (unreachable_patterns), and `rest @ ..` by value on an unsized
// slice (E0277).
#[device]
fn f(xs: &[f32]) -> f32 {
    let a = match xs {
        [] => 0.0,
        [x, y] => x + y,
    };
    let b = match xs {
        [.., l] => *l,
        [] => 1.0,
        [p, q] => p * q,
    };
    a + b
}

#[device]
fn g(xs: &[f32]) -> f32 {
    match *xs {
        [x, rest @ ..] => x + rest.len() as f32,
        _ => 0.0,
    }
}

