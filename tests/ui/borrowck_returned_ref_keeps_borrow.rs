// A reference a function returns keeps its reference arguments borrowed while it is used.
fn pick<'a>(a: &'a mut f32, b: &'a mut f32, first: bool) -> &'a mut f32 {
    if first { a } else { b }
}

fn longest<'a>(a: &'a [f32], b: &'a [f32]) -> &'a [f32] {
    if a.len() >= b.len() { a } else { b }
}

#[kernel]
pub fn k(flag: u32, mut out: DisjointSlice<f32>) {
    let mut a = 1.0f32;
    let mut b = 2.0f32;
    let r = pick(&mut a, &mut b, flag > 0);
    let s = &mut b;
    *s += 1.0;
    *r += 1.0;
    let mut xs = [1.0f32, 2.0];
    let ys = [3.0f32];
    let l = longest(&xs, &ys);
    xs[0] = 5.0;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a + b + l[0];
    }
}
