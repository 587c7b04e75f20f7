// A generic kernel configured by a policy trait: `#[launch_bounds]` and `#[unroll]` take the
// policy's associated constants, evaluated per instance.
use cuda_device::{kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

trait Policy {
    const THREADS: u32;
    const BLOCKS: u32;
    const ITEMS: usize;
    const SALT: u32;
}

struct Narrow;
struct Wide;

impl Policy for Narrow {
    const THREADS: u32 = 64;
    const BLOCKS: u32 = 4;
    const ITEMS: usize = 2;
    const SALT: u32 = 0x1357_9bdf;
}

impl Policy for Wide {
    const THREADS: u32 = 128 * 2;
    const BLOCKS: u32 = 1;
    const ITEMS: usize = 4;
    const SALT: u32 = 0x0f0f_a5a5;
}

#[kernel]
#[launch_bounds(P::THREADS, P::BLOCKS)]
pub fn salted_sums<P: Policy>(x: &[u32], mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(o) = out.get_mut(idx) {
        let mut acc = 0u32;
        #[unroll(P::ITEMS)]
        for k in 0..P::ITEMS {
            acc = acc.wrapping_add(x[i * P::ITEMS + k] ^ P::SALT);
        }
        *o = acc;
    }
}

fn main() {
    unsafe {
        cuda_launch! { kernel: salted_sums::<Narrow>, stream: s, module: m, config: c, args: [] };
        cuda_launch! { kernel: salted_sums::<Wide>, stream: s, module: m, config: c, args: [] };
    }
}
