// Methods on a sub-slice place (`data[a..b].iter()`, `.iter_mut()`, `.len()`, `.into_iter()`):
// the call borrows the place, as rustc's auto-ref does.
fn compute(x: f32, i: usize) -> f32 {
    let mut data = [x, 1.5, -2.0, x * x, 0.25, -x, 3.0, 0.5];
    let n = i % 9;
    for v in data[2..n.max(2)].iter_mut() { *v *= 2.0; }
    let mut s = data[..n].len() as f32 + data[1..].into_iter().sum::<f32>();
    s += data[..n].iter().rev().take(2).sum::<f32>();
    s
}
