//! Integer hashing: MurmurHash3 (x86, 32-bit) of one u32 key per thread, and the
//! SplitMix64 generator. All multiplies and adds wrap, as integer arithmetic does in
//! a release build.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, device, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    const C1: u32 = 0xcc9e_2d51;
    const C2: u32 = 0x1b87_3593;
    const GOLDEN_GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

    #[device]
    fn rotl32(x: u32, r: u32) -> u32 {
        (x << r) | (x >> (32 - r))
    }

    /// MurmurHash3's finaliser: every input bit affects every output bit.
    #[device]
    fn fmix32(mut h: u32) -> u32 {
        h ^= h >> 16;
        h *= 0x85eb_ca6b;
        h ^= h >> 13;
        h *= 0xc2b2_ae35;
        h ^= h >> 16;
        h
    }

    /// MurmurHash3_x86_32 of the 4 little-endian bytes of `key`.
    #[device]
    fn murmur3_u32(key: u32, seed: u32) -> u32 {
        let mut k = key * C1;
        k = rotl32(k, 15);
        k *= C2;
        let mut h = seed ^ k;
        h = rotl32(h, 13);
        h = h * 5 + 0xe654_6b64;
        fmix32(h ^ 4)
    }

    #[device]
    fn splitmix64_mix(mut z: u64) -> u64 {
        z = (z ^ (z >> 30)) * 0xbf58_476d_1ce4_e5b9;
        z = (z ^ (z >> 27)) * 0x94d0_49bb_1331_11eb;
        z ^ (z >> 31)
    }

    #[kernel]
    pub fn murmur3(keys: &[u32], seed: u32, mut hashes: DisjointSlice<u32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(h) = hashes.get_mut(idx) {
            *h = murmur3_u32(keys[i], seed);
        }
    }

    /// Element i is the (i+1)-th output of a SplitMix64 stream whose state starts at `seed`.
    #[kernel]
    pub fn splitmix64(seed: u64, mut out: DisjointSlice<u64>) {
        let idx = thread::index_1d();
        let i = idx.get() as u64;
        if let Some(o) = out.get_mut(idx) {
            *o = splitmix64_mix(seed + (i + 1) * GOLDEN_GAMMA);
        }
    }
}

fn main() {
    const N: usize = 1 << 20;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/int_hash.ptx").unwrap();

    let keys_host: Vec<u32> = (0..N as u32).collect();
    let keys = DeviceBuffer::from_host(&stream, &keys_host).unwrap();
    let mut hashes = DeviceBuffer::<u32>::zeroed(&stream, N).unwrap();
    let mut randoms = DeviceBuffer::<u64>::zeroed(&stream, N).unwrap();

    cuda_launch! {
        kernel: kernels::murmur3,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(keys), 42u32, slice_mut(hashes)]
    }
    .unwrap();

    cuda_launch! {
        kernel: kernels::splitmix64,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [0u64, slice_mut(randoms)]
    }
    .unwrap();

    let h = hashes.to_host_vec(&stream).unwrap();
    let r = randoms.to_host_vec(&stream).unwrap();
    // SplitMix64 seeded with 0 starts 0xe220a8397b1dcdaf, 0x6e789e6aa1b965f4, ...
    assert_eq!(r[0], 0xe220_a839_7b1d_cdaf);
    println!("murmur3(0, 42) = {:#010x}, splitmix64[1] = {:#018x}", h[0], r[1]);
}
