use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
#[cuda_module]
mod kernels {
    use super::*;
    struct C { a: f32, b: Nope }
    static CFG: C = C { a: 1.0, b: 2 };
    #[kernel]
    pub fn k(mut out: DisjointSlice<f32>) {
        let i = thread::index_1d();
        if let Some(o) = out.get_mut(i) { *o = CFG.a; }
    }
}
