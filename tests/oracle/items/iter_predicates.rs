// The predicate adapters: take_while (the chain ends at the first miss), skip_while (its
// predicate not called again once false: the call count shows it), map_while, filter_map,
// inspect (called once per item that reaches it), with rev and enumerate around them.
fn compute(x: f32, i: usize) -> f32 {
    let data = [x, 1.5, -2.0, x * x, 0.25, -x, 3.0, 0.5];
    let n = i % 9;
    let mut s = data[..n].iter().take_while(|v| **v < 2.0).sum::<f32>();
    let mut calls = 0u32;
    s += data.iter().skip_while(|v| { calls += 1; **v > -1.0 }).map(|v| v * 0.5).sum::<f32>();
    s += calls as f32;
    s += (0..n as u32).map_while(|k| if k * k < 20 { Some(k * 3) } else { None }).sum::<u32>() as f32;
    s += data.iter().filter_map(|v| if *v > 0.0 { Some(v.sqrt()) } else { None }).sum::<f32>();
    let mut seen = 0.0f32;
    let c = data.iter().inspect(|v| seen += **v).filter(|v| **v < 1.0).count();
    s += seen + c as f32;
    s += data.iter().rev().filter_map(|v| (*v as i32).checked_sub(1)).map(|k| k as f32).sum::<f32>();
    for (j, v) in data.iter().enumerate().take_while(|(j, _)| *j < n) {
        s += v * j as f32;
    }
    s
}
