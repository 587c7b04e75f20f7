// Slice patterns on slices: a `match` over lengths (exhaustive without `_`), `rest @ ..`
// bound as a sub-slice at the front, middle and end, `if let` on `windows(3)`, and `let else`.
fn sum_pairs(xs: &[f32]) -> f32 {
    match xs {
        [] => 0.0,
        [a] => *a,
        [a, b, rest @ ..] => a * b + rest.iter().sum::<f32>() * 0.5 + rest.len() as f32,
    }
}

fn ends(xs: &[f32]) -> f32 {
    match xs {
        [first, .., last] => first - last,
        [only] => *only * 2.0,
        [] => -1.0,
    }
}

fn middle(xs: &[u32]) -> u32 {
    if let [_, mid @ .., _] = xs { mid.iter().sum() } else { 99 }
}

fn head3(xs: &[f32]) -> f32 {
    let [a, b, c, ..] = xs else { return -7.0 };
    a + 2.0 * b + 3.0 * c
}

fn compute(x: f32, i: usize) -> f32 {
    let data = [x, 1.5, -2.0, x * x, 0.25, 3.0, -x];
    let n = i % 8;
    let mut s = sum_pairs(&data[..n.min(7)]) + ends(&data[n.min(7)..]) + head3(&data[..n.min(7)]);
    for w in data.windows(3) {
        if let [l, c, r] = w {
            s += (l + r) * 0.5 - c;
        }
    }
    let ints = [3u32, i as u32, 7, 11, 2];
    s += middle(&ints[..(i % 6)]) as f32;
    s
}
