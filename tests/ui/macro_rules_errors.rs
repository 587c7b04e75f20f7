// item macros (`macro_rules!` of this file): a call no rule matches, and a macro that calls
// itself without end
use cuda_device::{kernel, thread, DisjointSlice};

macro_rules! konst {
    ($name:ident = $v:expr) => {
        const $name: u32 = $v;
    };
}

macro_rules! forever {
    ($name:ident) => {
        forever!($name);
    };
}

konst!(A = 3);
konst!(B => 4);
forever!(C);

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) {
        *o = A;
    }
}
