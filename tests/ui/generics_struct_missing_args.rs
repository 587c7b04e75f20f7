// E0107: a generic struct named without its generic arguments, and with too many.
#[derive(Clone, Copy)]
struct Pair<T> {
    a: T,
    b: T,
}

fn first(p: Pair) -> f32 {
    0.0
}

fn second(p: Pair<f32, f32>) -> f32 {
    p.b
}

#[kernel]
pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let p = Pair { a: x[i], b: 1.0 };
    if let Some(o) = out.get_mut(idx) {
        *o = first(p) + second(p);
    }
}
