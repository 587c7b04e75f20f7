// `#[custom_mir]` bodies are rustc's hand-written MIR (a nightly compiler-testing feature):
// not compiled by oxidec, said plainly where a kernel calls one
use core::intrinsics::mir::*;
use cuda_device::{kernel, thread, DisjointSlice};

#[custom_mir(dialect = "runtime", phase = "optimized")]
fn doubled(x: u32) -> u32 {
    mir!({
        RET = x + x;
        Return()
    })
}

#[kernel]
pub fn uses_custom_mir(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let v = doubled(idx.get() as u32);
    if let Some(o) = out.get_mut(idx) {
        *o = v;
    }
}
