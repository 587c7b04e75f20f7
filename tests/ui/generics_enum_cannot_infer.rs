// E0282: a unit variant of a generic enum with nothing to say what its parameter is.
#[derive(Clone, Copy)]
enum Maybe<T> {
    Nothing,
    Just(T),
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let m = Maybe::Nothing;
    if let Some(o) = out.get_mut(idx) {
        *o = 1.0;
    }
}
