// Tuples as values: returned, passed, nested, destructured and compared.
fn split(x: f32) -> (f32, f32) {
    let whole = (x * 4.0) as i32 as f32 / 4.0;
    (whole, x - whole)
}

fn swap(p: (f32, i32)) -> (i32, f32) { (p.1, p.0) }

fn nest(x: f32) -> ((f32, f32), [f32; 2], (u32,)) {
    (split(x), [x, -x], (7,))
}

fn pick(t: ((f32, f32), [f32; 2], (u32,)), first: bool) -> f32 {
    if first { t.0.0 } else { t.1[1] + t.2.0 as f32 }
}

fn compute(x: f32, i: usize) -> f32 {
    let (a, b) = split(x);
    let s = swap((a, i as i32));
    let n = nest(b);
    let same = split(x) == (a, b);
    let differs = (i as u32, 2u32) != (3, 2);
    let mut acc = s.1 + s.0 as f32 + pick(n, i % 2 == 0) + pick(n, false);
    if same { acc += 1.0; }
    if differs { acc += 10.0; }
    if (a, i) < (b, 5) { acc += 100.0; }
    acc
}
