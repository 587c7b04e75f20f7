// `mod helpers;` keeps its body in helpers.rs, which oxidec does not read: say so, rather than
// calling `helpers` an undeclared crate
use cuda_device::{kernel, thread, DisjointSlice};

mod helpers;

mod kernels {
    use super::*;

    #[kernel]
    pub fn k(mut out: DisjointSlice<u32>) {
        let idx = thread::index_1d();
        if let Some(o) = out.get_mut(idx) {
            *o = helpers::twice(3);
        }
    }
}
