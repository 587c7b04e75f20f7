// Nested modules, `super::`/`self::`/`crate::` paths, `use` with globs, renames and groups,
// items declared inside a function body, a plain fn called from a kernel.
use cuda_device::{kernel, thread, DisjointSlice};

const GAIN: f32 = 2.0;

mod math {
    pub fn twice(x: f32) -> f32 { x * crate::GAIN }

    pub mod inner {
        use super::*;
        pub fn quad(x: f32) -> f32 { twice(twice(x)) / super::super::GAIN }
        pub fn again(x: f32) -> f32 { self::quad(x) + super::twice(0.0) }
    }
}

mod kernels {
    use super::*;
    use crate::math::{inner::{self, quad as q4}, twice};

    #[kernel]
    pub fn k(x: &[f32], mut out: DisjointSlice<f32>) {
        const OFFSET: f32 = 1.0;
        fn local_helper(v: f32) -> f32 { v + OFFSET }
        struct Local { v: f32 }
        let i = thread::index_1d();
        let n = i.get();
        let l = Local { v: x[n] };
        if let Some(o) = out.get_mut(i) {
            *o = local_helper(twice(l.v)) + q4(1.0) + inner::again(1.0);
        }
    }
}

fn main() {
    let host_only: Vec<String> = Vec::new();
    println!("{}", host_only.len());
}
