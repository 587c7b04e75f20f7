//! Inclusive prefix sums within each block of 256 elements (u32, wrapping): each warp scans
//! its 32 values with `shuffle_up`, the warps' totals are scanned the same way by warp 0
//! through shared memory, and every value adds the totals of the warps before it.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, launch_contract, thread, warp, DisjointSlice, SharedArray};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const BLOCK: usize = 256;
    const WARPS: usize = 8;

    /// Inclusive scan of one value per lane across the warp.
    #[device]
    fn warp_scan(value: u32, lane: u32) -> u32 {
        let mut v = value;
        let mut delta = 1u32;
        while delta < 32 {
            let up = warp::shuffle_up_u32(v, delta);
            if lane >= delta {
                v = v.wrapping_add(up);
            }
            delta *= 2;
        }
        v
    }

    #[kernel]
    #[launch_contract(block = (BLOCK, 1, 1))]
    pub fn block_scan(x: &[u32], mut out: DisjointSlice<u32>) {
        static mut WARP_TOTALS: SharedArray<u32, WARPS> = SharedArray::UNINIT;
        let idx = thread::index_1d();
        let i = idx.get();
        let lane = warp::lane_id();
        let w = warp::warp_id() as usize;

        let mut v = if i < x.len() { x[i] } else { 0 };
        v = warp_scan(v, lane);
        if lane == 31 {
            unsafe {
                WARP_TOTALS[w] = v;
            }
        }
        thread::sync_threads();

        if w == 0 {
            let l = lane as usize;
            let total = if l < WARPS { unsafe { WARP_TOTALS[l] } } else { 0 };
            let scanned = warp_scan(total, lane);
            if l < WARPS {
                unsafe {
                    WARP_TOTALS[l] = scanned;
                }
            }
        }
        thread::sync_threads();

        if w > 0 {
            v = v.wrapping_add(unsafe { WARP_TOTALS[w - 1] });
        }
        if let Some(o) = out.get_mut(idx) {
            *o = v;
        }
    }
}

fn main() {
    const N: usize = 1 << 20;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/scan.ptx").unwrap();

    let x_host: Vec<u32> = (0..N).map(|i| (i % 10) as u32).collect();
    let x = DeviceBuffer::from_host(&stream, &x_host).unwrap();
    let mut out = DeviceBuffer::<u32>::zeroed(&stream, N).unwrap();

    cuda_launch! {
        kernel: kernels::block_scan,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(x), slice_mut(out)]
    }
    .unwrap();

    let got = out.to_host_vec(&stream).unwrap();
    let want: u32 = x_host[..256].iter().sum();
    println!("block_scan: out[255] = {} (host {})", got[255], want);
}
