// `Self` names the type of the enclosing `impl`; a plain fn has none.
struct P { x: f32 }

fn make() -> Self { P { x: 1.0 } }

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = make().x;
    }
}
