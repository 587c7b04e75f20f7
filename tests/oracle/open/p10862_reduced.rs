// Open (issue 15): on the H200 this kernel ends with x3 = NaN (slot 3 = 0x7ff8000000000000);
// rustc and the simulator give 0.0. Right with the driver JIT at -O0, wrong at -O1..4, at
// oxidec -O0 and -O2. Inputs: tests/oracle/gen.py generate(10862).inputs. Reduced on the GPU
// by tests/oracle/gpu_reduce.py from oracle program 10862.
// Diagnosis (2026-12-03, SASS of ptxas 13.0 -O3): ptxas selects only the low word of
// `is_nan(x3) ? 0x7ff8.. : x3.to_bits()` on the uniform datapath (DSETP + VOTEU.ANY + one USEL);
// the high word stays 0x7ff80000. Emitting the NaN test as `testp.notanumber` (ptx/instrs.py
// nan_test) gives correct SASS here; the same change fixed programs 40095 and 41362 on the H200.
use cuda_device::{cuda_module, device, kernel, thread, DisjointSlice};

// oracle program, seed 10862
#[cuda_module]
#[allow(arithmetic_overflow)]
mod kernels {
    use super::*;

    #[derive(Clone, Copy)]
    struct S0 { f0: i32, f1: i8 }

    #[derive(Clone, Copy)]
    struct S1 { f0: usize, f1: f64, f2: usize }

    #[device]
    fn h0(mut p0: S0) -> i16 {
        let mut v1: f64 = 0.0f64;
        let mut a2: [u8; 3] = [0u8, 0u8, 0u8];
        0i16
    }

    #[device]
    fn h1(mut p0: usize, mut p1: u8, mut p2: bool) -> f32 {
        0.0f32
    }

    #[device]
    fn h2(mut p0: i8, mut p1: u8) -> i16 {
        0i16
    }

    #[kernel]
    pub fn k0(inp: &[u64], mut out: DisjointSlice<u64>) {
        let idx = thread::index_1d();
        let t = idx.get();
        let mut res = [0u64; 16];
        let mut x0: i64 = inp[0] as i64;
        let mut x1: isize = inp[1] as isize;
        let mut x2: i8 = inp[2] as i8;
        let mut x3: f64 = f64::from_bits(inp[3]);
        let mut x4: i8 = inp[4] as i8;
        let mut x5: f64 = f64::from_bits(inp[5]);
        let mut x6: i32 = inp[6] as i32;
        let mut x7: isize = inp[7] as isize;
        let mut v6: usize = 0usize;
        {
            let mut c7: u32 = 0;
            while c7 < 6 && (0u64 >= (if (0.0f64 % x3).is_nan() { 0u64 } else { 0u64 })) {
                for j11 in (0u32..((x6 as u8 % 9) as u32)) {
                    if (0u64 != 8u64) {
                        x3 = 0.0f64;
                    }
                    let mut a12: [i16; 3] = [0i16, 0i16, 0i16];
                }
                c7 += 1;
            }
        }
        res[3] ^= { let f: f64 = x3; if f.is_nan() { 0x7ff8_0000_0000_0000u64 } else { f.to_bits() } };
        if let Some(o) = out.get_mut(idx) {
            *o = res[t];
        }
    }
}
