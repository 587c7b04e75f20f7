// The `unreachable_patterns` lint: an arm after a catch-all, and a repeated literal.
#[derive(Clone, Copy)]
pub enum E { A, B(i32) }

#[kernel]
pub fn k(e: E, mut out: DisjointSlice<i32>) {
    let i = thread::index_1d();
    let v = match e { E::A => 1, _ => 2, E::B(_) => 3 };
    let w = match v { 1 => 10, 1 => 20, _ => 30 };
    if let Some(o) = out.get_mut(i) {
        *o = v + w;
    }
}
