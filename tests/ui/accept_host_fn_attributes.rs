use cuda_device::{kernel, thread, DisjointSlice};

// Host functions keep Rust's own attributes and host crates' path attributes.
#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    if let Some(o) = out.get_mut(thread::index_1d()) { *o = 1; }
}

#[test]
fn checks() {}

#[inline(always)]
#[must_use]
fn helper() -> u32 { 1 }

#[tokio::main]
async fn main() {}
