// `macro_rules!` called in expressions and statements: fragments evaluated where the
// transcriber puts them, a block body with its own `let`, repetitions, a macro calling a
// macro, and a statement macro that assigns to the caller's variable.
macro_rules! square {
    ($x:expr) => { ($x) * ($x) };
}

macro_rules! sum_all {
    ($($x:expr),+ $(,)?) => { 0.0 $(+ $x)+ };
}

macro_rules! clamp_sq {
    ($x:expr, $lo:expr, $hi:expr) => {{
        let t = square!($x);
        if t < $lo { $lo } else if t > $hi { $hi } else { t }
    }};
}

macro_rules! bump {
    ($v:ident by $k:expr) => { $v += $k; };
}

fn compute(x: f32, i: usize) -> f32 {
    let mut acc = square!(x + 1.0);
    bump!(acc by i as f32);
    let t = 3.5;  // the macro's own `t` does not touch this one
    let c = clamp_sq!(x * 2.0, 0.25, 9.0);
    acc + c + t + sum_all!(x, 2.0 * x, i as f32,) + sum_all!(1.5)
}
