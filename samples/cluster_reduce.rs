//! Per-cluster sums through distributed shared memory (sm_90: H100, H200).
//!
//! The grid runs in thread-block clusters of 4 blocks. Each block adds up its 256 elements
//! of x in a shared-memory tree; after a cluster barrier, block 0 of every cluster reads the
//! three other blocks' partial sums straight out of their shared memory (`map_shared_rank`)
//! and writes the cluster's total to `sums[cluster]`. A second cluster barrier keeps the
//! other blocks, and so their shared memory, alive until block 0 has read it.
//! Sums wrap (u32), so the result is exact whatever the order of the additions.
use core::ptr::addr_of;
use cuda_device::{cluster, cluster_launch, kernel, launch_contract, thread};
use cuda_device::{DisjointSlice, SharedArray};

const BLOCK: usize = 256;
const CLUSTER: usize = 4;

#[kernel]
#[cluster_launch(4, 1, 1)]
#[launch_contract(block = (BLOCK, 1, 1))]
pub fn cluster_reduce(x: &[u32], mut sums: DisjointSlice<u32>) {
    static mut PARTIAL: SharedArray<u32, BLOCK> = SharedArray::UNINIT;
    let tid = thread::threadIdx_x() as usize;
    let i = thread::blockIdx_x() as usize * BLOCK + tid;

    // 1. This block's sum, in a tree in shared memory.
    unsafe {
        PARTIAL[tid] = if i < x.len() { x[i] } else { 0 };
    }
    thread::sync_threads();
    let mut half = BLOCK / 2;
    while half > 0 {
        if tid < half {
            unsafe {
                PARTIAL[tid] = PARTIAL[tid].wrapping_add(PARTIAL[tid + half]);
            }
        }
        thread::sync_threads();
        half /= 2;
    }

    // 2. Every block of the cluster has its sum in PARTIAL[0].
    cluster::cluster_sync();

    // 3. Block 0 of the cluster adds up the others' through their shared memory.
    if cluster::block_rank() == 0 && tid == 0 {
        let mut total = 0u32;
        let mut rank = 0u32;
        while rank < cluster::cluster_size() {
            let peer = unsafe { cluster::map_shared_rank(addr_of!(PARTIAL) as *const u32, rank) };
            total = total.wrapping_add(unsafe { *peer });
            rank += 1;
        }
        let c = cluster::cluster_idx() as usize;
        if c < sums.len() {
            unsafe {
                *sums.get_unchecked_mut(c) = total;
            }
        }
    }

    // 4. No block leaves (freeing its shared memory) before block 0 has read it.
    cluster::cluster_sync();
}
