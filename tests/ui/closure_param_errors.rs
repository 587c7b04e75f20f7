// `impl Fn` parameters: a closure never escapes (returning one is an error), a closure that
// changes what it captures is no `Fn` (E0525), and a kernel cannot take one (kernels are
// launched from the host).
#[device]
fn make(a: f32) -> impl Fn(f32) -> f32 {
    move |x| x * a
}

fn apply(f: impl Fn(u32) -> u32, x: u32) -> u32 {
    f(x)
}

#[device]
fn counts(x: u32) -> u32 {
    let mut n = 0u32;
    apply(|v| { n += v; n }, x)
}

#[kernel]
pub fn k(f: impl Fn(f32) -> f32) {}
