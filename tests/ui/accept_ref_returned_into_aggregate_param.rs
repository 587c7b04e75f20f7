// A reference result of a fn whose reference-to-aggregate parameters are passed by value
// would point into the callee's copy, so such a fn is inlined at each call: the result
// points into the caller's value (no false E0505 for `&mut self`, no dangling pointer).
struct W { a: [u32; 4], n: u32 }

impl W {
    fn first(&mut self) -> &mut u32 {
        &mut self.a[0]
    }
}

#[device]
fn head(a: &[f32; 4]) -> &f32 {
    &a[0]
}

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let mut w = W { a: [1, 2, 3, 4], n: 5 };
    *w.first() = 9;
    let a = [1.0f32, 2.0, 3.0, 4.0];
    let h = *head(&a);
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = w.a[0] + w.n + h as u32;
    }
}
