// Closures and iterators together: closures over loop items, iter_mut with for_each,
// closures inside loops, number methods on `&f32` items.
fn compute(x: f32, i: usize) -> f32 {
    let mut a = [x, 1.0, -2.0, x * 3.0, 0.5];
    let k = (i % 4) as f32;
    for v in a.iter() {
        let g = || *v * 2.0 + k;
        let h = |y: f32| g() + y;
        let _ = h(1.0);
    }
    a.iter_mut().for_each(|v| *v = *v * k + 1.0);
    for (j, v) in a.iter_mut().enumerate().skip(1) {
        *v += j as f32;
    }
    let mut t = 0.0f32;
    for j in 0..3 {
        let add = |z: f32| z * j as f32;
        t += a.iter().map(|v| add(*v)).sum::<f32>();
    }
    let m = a.iter().map(|v| (*v * 100.0) as i32).max().unwrap_or(0);
    let any_big = (0..i).any(|q| q * q > 50);
    let all_small = a.iter().all(|v| v.abs() < 20.0);
    t + a[2] + m as f32 + if any_big { 1.0 } else { 0.0 } + if all_small { 2.0 } else { 0.0 }
}
