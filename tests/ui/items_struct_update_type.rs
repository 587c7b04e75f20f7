// `..base` must be the same struct; a tuple struct is built by calling it.
#[derive(Clone, Copy)]
struct A { x: f32, y: f32 }
#[derive(Clone, Copy)]
struct B { x: f32, y: f32 }
struct Pair(f32, f32);

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let b = B { x: 1.0, y: 2.0 };
    let a = A { x: 3.0, ..b };
    let p = Pair(1.0);
    let q = Pair;
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = a.x + p.0;
    }
}
