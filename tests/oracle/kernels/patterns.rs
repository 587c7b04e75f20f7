// Every pattern form on values computed per thread: tuples, nested enums, arrays with `..`,
// match ergonomics on references, `ref`, negative literals, `@` bindings, let chains,
// `while let`, `let ... else`, `Result` and its combinators, `matches!` with a guard.
use cuda_device::{device, kernel, thread, DisjointSlice};

#[derive(Clone, Copy)]
pub enum Shape {
    Dot,
    Seg(i32),
    Rect { w: i32, h: i32 },
}

#[derive(Clone, Copy)]
pub enum Wrap {
    One(Shape),
    Two(Shape, Option<i32>),
}

#[device]
fn area(s: Shape) -> i32 {
    let r = &s;
    match r {
        Shape::Dot => 1,
        Shape::Seg(n) if *n < 0 => -*n,
        Shape::Seg(n) => *n,
        Shape::Rect { w, h: 0 } => *w,
        Shape::Rect { w, h } => *w * *h,
    }
}

#[device]
fn classify(v: i32) -> i32 {
    match v {
        -3 => 100,
        i32::MIN..=-4 => 200,
        x @ (0 | 2 | 4) => 300 + x,
        x @ 10..=20 if x % 2 == 0 => 400,
        _ => 500,
    }
}

#[device]
fn checked(v: i32) -> Result<i32, i32> {
    if v % 4 == 0 { Err(v / 4) } else { Ok(v * 3) }
}

#[device]
fn chain(v: i32) -> Result<i32, i32> {
    let a = checked(v)?;
    let b = checked(a + 1)?;
    Ok(a + b)
}

#[device]
fn first_digit(v: i32) -> i32 {
    let Some(n) = (if v > 0 { Some(v) } else { None }) else { return -1; };
    let 0..=99 = n else { return 100 };
    n % 10
}

#[kernel]
pub fn patterns(x: &[f32], mut out: DisjointSlice<f32>) {
    let i = thread::index_1d();
    let k = i.get();
    if let Some(o) = out.get_mut(i) {
        let v = (x[k] * 40.0) as i32;
        let s = match k % 3 {
            0 => Shape::Dot,
            1 => Shape::Seg(v),
            _ => Shape::Rect { w: v % 7, h: (k % 4) as i32 },
        };
        let w = if k % 2 == 0 { Wrap::One(s) } else {
            Wrap::Two(s, if v > 0 { Some(v) } else { None })
        };
        let mut acc = match w {
            Wrap::One(Shape::Dot) => 7,
            Wrap::One(ref inner) => area(*inner),
            Wrap::Two(Shape::Rect { w, .. }, Some(n)) => w + n,
            Wrap::Two(sh, None) => area(sh) * 2,
            Wrap::Two(_, Some(n)) => n,
        };
        let t = (v, (k % 5) as i32);
        acc += match t {
            (0, _) => 1,
            (a, 0) | (0, a) => a,
            (a, b) if a > b => 2,
            _ => 3,
        };
        let arr = [v, v + 1, v + 2, k as i32];
        let [first, .., last] = arr;
        acc += first - last;
        let (p, q) = (classify(v), classify(-v));
        acc += p + q;
        let opt = if v % 3 == 0 { None } else { Some(v) };
        if let Some(n) = opt && n > 5 && let Ok(m) = checked(n) {
            acc += m;
        }
        let mut left = v.abs() % 6;
        let mut stack = if left > 0 { Some(left) } else { None };
        while let Some(n) = stack {
            acc += n;
            left -= 1;
            stack = if left > 0 { Some(left) } else { None };
        }
        let r = chain(v);
        acc += r.map(|a| a * 2).unwrap_or_else(|e| e - 1);
        acc += checked(v).map_err(|e| e * 10).err().unwrap_or(0);
        acc += checked(v).ok().unwrap_or_default();
        acc += if r.is_ok() { 1 } else { 0 } + if checked(v).is_err() { 10 } else { 0 };
        acc += opt.filter(|n| *n > 3).ok_or(0).unwrap_or(-9);
        acc += opt.and_then(|n| if n > 0 { Some(n + 1) } else { None }).map_or(4, |n| n * 3);
        let r2 = &opt;
        acc += match r2 { Some(n) => *n, None => 11 };
        acc += if matches!(s, Shape::Seg(n) if n > 3) { 1000 } else { 0 };
        acc += first_digit(v) * 7;
        *o = acc as f32;
    }
}
