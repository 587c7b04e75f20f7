//! Bit manipulation with the integer methods of `core`. `bit_fields` packs a 32-bit word's
//! population count, leading and trailing zeros into 18 bits and mixes in a rotated byte
//! swap, a bit reversal and a saturating 16-bit sum of its halves; `word_ops` combines two
//! 64-bit words through a Gray code and its parity, the next power of two (checked), an
//! overflowing product rotated by the base-2 logarithm, saturating sums and differences
//! and the distance of the words read as signed integers.
use cuda_core::{CudaContext, DeviceBuffer, LaunchConfig};
use cuda_device::{cuda_module, kernel, thread, DisjointSlice};
use cuda_host::cuda_launch;

#[cuda_module]
mod kernels {
    use super::*;

    #[kernel]
    pub fn bit_fields(x: &[u32], rot: u32, mut out: DisjointSlice<u32>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(o) = out.get_mut(idx) {
            let v = x[i];
            let counts = v.count_ones() | (v.leading_zeros() << 6) | (v.trailing_zeros() << 12);
            let mixed = v.swap_bytes().rotate_left(rot) ^ v.reverse_bits().rotate_right(rot / 3);
            let halves = ((v >> 16) as u16).saturating_add(v as u16) as u32;
            *o = counts ^ mixed.wrapping_mul(0x9e37_79b9) ^ (halves << 18);
        }
    }

    #[kernel]
    pub fn word_ops(x: &[u64], y: &[u64], mut out: DisjointSlice<u64>) {
        let idx = thread::index_1d();
        let i = idx.get();
        if let Some(o) = out.get_mut(idx) {
            let (a, b) = (x[i], y[i]);
            let gray = a ^ (a >> 1);
            let parity = (gray.count_ones() & 1) as u64;
            let pow2 = match a.checked_next_power_of_two() {
                Some(p) => p,
                None => 0,
            };
            let (prod, overflow) = a.overflowing_mul(b);
            let lg = if a == 0 { 0 } else { a.ilog2() };
            let sat = a.saturating_add(b) ^ a.saturating_sub(b).swap_bytes();
            let dist = (a as i64).abs_diff(b as i64);
            *o = gray ^ (parity << 63) ^ pow2 ^ prod.rotate_left(lg) ^ sat ^ dist.rotate_right(7)
                ^ overflow as u64;
        }
    }
}

fn main() {
    const N: usize = 1 << 20;

    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let module = ctx.load_module_from_file("build/bitmanip.ptx").unwrap();

    let words: Vec<u32> = (0..N as u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
    let wide: Vec<u64> = (0..N as u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
    let x = DeviceBuffer::from_host(&stream, &words).unwrap();
    let a = DeviceBuffer::from_host(&stream, &wide).unwrap();
    let b = DeviceBuffer::from_host(&stream, &wide[1..]).unwrap();
    let mut fields = DeviceBuffer::<u32>::zeroed(&stream, N).unwrap();
    let mut mixed = DeviceBuffer::<u64>::zeroed(&stream, N - 1).unwrap();

    cuda_launch! {
        kernel: kernels::bit_fields,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32),
        args: [slice(x), 5u32, slice_mut(fields)]
    }
    .unwrap();

    cuda_launch! {
        kernel: kernels::word_ops,
        stream: stream,
        module: module,
        config: LaunchConfig::for_num_elems(N as u32 - 1),
        args: [slice(a), slice(b), slice_mut(mixed)]
    }
    .unwrap();

    let f = fields.to_host_vec(&stream).unwrap();
    let m = mixed.to_host_vec(&stream).unwrap();
    // word 0 is 0: no bits, 32 leading and trailing zeros
    assert_eq!(f[0] & 0x3_ffff, 32 << 6 | 32 << 12);
    println!("bit_fields[1] = {:#010x}, word_ops[1] = {:#018x}", f[1], m[1]);
}
