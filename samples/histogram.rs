//! A 256-bin byte histogram: every block counts a grid-stride share of the data into its own
//! histogram in shared memory (one shared-memory atomic per byte), then writes it out, so
//! partial[256 * b + v] is how often block b saw byte v. The host adds the blocks' rows.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::atomic::{AtomicOrdering, BlockAtomicU32};
use cuda_device::{cuda_module, kernel, launch_contract, thread, DisjointSlice, SharedArray};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const BINS: usize = 256;

    #[kernel]
    #[launch_contract(block = (BINS, 1, 1))]
    pub fn histogram(data: &[u8], mut partial: DisjointSlice<u32>) {
        static mut HIST: SharedArray<u32, BINS> = SharedArray::UNINIT;
        let t = thread::threadIdx_x() as usize;
        unsafe {
            HIST[t] = 0;
        }
        thread::sync_threads();

        let stride = (thread::gridDim_x() * thread::blockDim_x()) as usize;
        let mut i = thread::blockIdx_x() as usize * BINS + t;
        while i < data.len() {
            let bin = data[i] as usize;
            let count = BlockAtomicU32::from_mut(unsafe { &mut HIST[bin] });
            count.fetch_add(1, AtomicOrdering::Relaxed);
            i += stride;
        }
        thread::sync_threads();

        // Thread t of block b writes bin t of the block's row: index_1d() is 256 * b + t.
        let idx = thread::index_1d();
        if let Some(out) = partial.get_mut(idx) {
            *out = unsafe { HIST[t] };
        }
    }
}

fn main() {
    const N: usize = 1 << 24;
    const BLOCKS: u32 = 128;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/histogram.ptx").unwrap();

    let data_host: Vec<u8> = (0..N).map(|i| ((i * 2654435761usize) >> 13) as u8).collect();
    let data = DeviceBuffer::from_host(&stream, &data_host).unwrap();
    let mut partial = DeviceBuffer::<u32>::zeroed(&stream, BLOCKS as usize * 256).unwrap();

    let config = LaunchConfig {
        grid_dim: (BLOCKS, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    cuda_launch! {
        kernel: kernels::histogram,
        stream: stream,
        module: module,
        config: config,
        args: [slice(data), slice_mut(partial)]
    }
    .unwrap();

    let rows = partial.to_host_vec(&stream).unwrap();
    let mut hist = [0u64; 256];
    for (k, c) in rows.iter().enumerate() {
        hist[k % 256] += *c as u64;
    }
    println!("histogram: bin 0 = {}, bin 255 = {}, total = {}", hist[0], hist[255], hist.iter().sum::<u64>());
}
