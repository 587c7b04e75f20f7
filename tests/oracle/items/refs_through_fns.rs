// References to locals passed into and returned from functions (the locals then live in
// memory), with and without lifetime parameters.
fn pick<'a>(a: &'a mut f32, b: &'a mut f32, first: bool) -> &'a mut f32 {
    if first { a } else { b }
}

fn larger<'a>(a: &'a f32, b: &'a f32) -> &'a f32 {
    if *a > *b { a } else { b }
}

fn elided(a: &mut u32) -> &mut u32 {
    *a += 3;
    a
}

fn inc(a: &mut f32, by: f32) {
    *a += by;
}

fn twice(a: &f32) -> f32 {
    *a * 2.0
}

fn compute(x: f32, i: usize) -> f32 {
    let mut a = x;
    let mut b = 2.0f32;
    *pick(&mut a, &mut b, i % 2 == 0) += 1.0;
    let m = *larger(&a, &b);
    let mut k = i as u32;
    *elided(&mut k) *= 5;
    inc(&mut a, 0.25);
    let mut pair = (x, 1.0f32);
    inc(&mut pair.1, x);
    let mut r = &mut b;
    if i % 3 == 0 {
        r = &mut pair.0;
    }
    *r *= 2.0;
    a + b + m + k as f32 + twice(&a) + pair.0 + pair.1
}
