// A closure is inlined at its calls: it can be bound with `let`, called, passed as an
// argument or held in a value built where it is written, but it may not leave the block
// that creates it; nor may an iterator be kept in a variable.

#[device]
fn leaves_block(a: f32) -> f32 {
    let g = {
        let s = a * 2.0;
        move |x: f32| x * s
    };
    g(a)
}

#[device]
fn iterator_kept(a: &[f32]) -> f32 {
    let it = a.iter().map(|x| x * 2.0);
    let mut s = 0.0;
    for x in it {
        s += x;
    }
    s
}
