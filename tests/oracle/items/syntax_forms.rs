// Syntax rustc accepts that once tripped the parser: `>>>` closing three generic argument
// lists, `>>=`/`>=` after a generic type, a closure with a return type, a pointer cast to
// a generic type.
#[derive(Clone, Copy)]
struct Wrap<T> { v: T }

fn peel(w: Wrap<Wrap<Wrap<f32>>>) -> f32 { w.v.v.v }

fn pick(x: Option<Option<u32>>) -> u32 {
    match x { Some(Some(v)) => v, Some(None) => 1, None => 2 }
}

fn compute(x: f32, i: usize) -> f32 {
    let w: Wrap<Wrap<Wrap<f32>>> = Wrap { v: Wrap { v: Wrap { v: x } } };
    let nested: Option<Option<u32>>= if i % 3 == 0 { None } else { Some(Some(i as u32)) };
    let pair = [x, 0.5 * x];
    let at = |k: usize| -> f32 { pair[k % 2] + 1.0 };
    let scaled = move |s: f32| -> f32 {
        let t = s * 3.0;
        t - 1.0
    };
    let p = &pair as *const [f32; 2] as *const Wrap<f32>;
    let through = unsafe { (*p).v };
    let mut bits = i as u32;
    bits >>= 1;
    peel(w) + at(i) + scaled(at(i + 1)) + pick(nested) as f32 + through + bits as f32
        + (bits >= 3) as u32 as f32
}
