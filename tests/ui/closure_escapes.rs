// A closure is inlined at its calls: it can be bound with `let`, called and passed as an
// argument, but it may not be stored in a value or leave the block that creates it.
#[device]
fn stored(a: f32) -> f32 {
    let pair = (|x: f32| x * a, 1.0f32);
    pair.1
}

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
