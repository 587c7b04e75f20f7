// Iterator adapters over arrays, slices and ranges: the values and the order Rust gives.
fn weights(i: usize) -> [f32; 7] {
    let b = (i % 5) as f32;
    [1.5, -2.0 + b, 0.25, 3.0 * b, -0.5, b, 7.0]
}

fn compute(x: f32, i: usize) -> f32 {
    let a = [x, x * 2.0, x - 1.0, 0.5, x * x, -x, 3.0];
    let w = weights(i);
    let n = i % 9;
    let mut acc = 0.0f32;
    // enumerate + iter over an array
    for (k, v) in a.iter().enumerate() {
        acc += *v * (k as f32 + 1.0);
    }
    // zip stops at the shorter; map over references
    for (p, q) in a.iter().zip(w.iter().take(n)) {
        acc = acc * 0.5 + p * q;
    }
    // rev, step_by, skip, take on ranges (order matters for floats)
    for k in (0..n).rev().step_by(2) {
        acc = acc * 0.75 + a[k % 7];
    }
    for k in (1..n + 1).step_by(3).rev() {
        acc = acc * 0.5 - w[k % 7];
    }
    for k in (0..10).skip(n).take(3) {
        acc = acc * 0.25 + k as f32;
    }
    // filter, then enumerate counts only what passed
    for (k, v) in a.iter().filter(|v| **v > 0.0).enumerate() {
        acc = acc - *v * k as f32;
    }
    // chain, with a rev inside each part and of the whole
    for v in a.iter().take(3).chain(w.iter().rev().skip(n % 4)).rev() {
        acc = acc * 0.875 + *v;
    }
    // map with a rev on top: the closure runs from the back
    let mut order = 0.0f32;
    for v in a.iter().map(|v| { order = order * 2.0 + 1.0; *v + order }).rev() {
        acc = acc * 0.5 + v;
    }
    // enumerate then rev: the indices are the forward ones
    for (k, v) in w.iter().enumerate().rev() {
        acc = acc * 0.5 + *v * k as f32;
    }
    // iter_mut writes through, into_iter by value, copied
    let mut b = a;
    for v in b.iter_mut().skip(1).step_by(2) {
        *v = *v * 3.0 + 1.0;
    }
    for v in b.into_iter().rev() {
        acc = acc * 0.5 + v;
    }
    for v in a.iter().copied().skip(n).chain(w.into_iter().take(n)) {
        acc = acc * 0.5 + v;
    }
    // zip after a filter: the second iterator is pulled only for items that pass
    for (v, k) in a.iter().filter(|v| **v < 1.0).zip(0..n) {
        acc = acc + v * k as f32;
    }
    // take after map stops before the next closure call
    let mut calls = 0.0f32;
    for v in (0..7).map(|k| { calls += 1.0; a[k] }).take(n % 4) {
        acc = acc * 0.5 + v;
    }
    // an inclusive range of signed integers, iterated with step_by and skip
    for k in (-3i32..=4).skip(1).step_by(2) {
        acc = acc + (k as f32) * 0.125;
    }
    acc + calls + order
}
