// Oracle program 40533 (seed 40533, inputs: tests/oracle/gen.py generate(40533).inputs).
// On the H200 slots 1 and 4 came out 0x2 and 0x0 where rustc and the simulator give
// 0x3fe9788000000002 and 0x1 (oxidec -O2, driver JIT level 1..4; right at JIT level 0).
// Cause: a ptxas fault on a bool flipped in a loop that holds an f64 division, after a
// branch on the bool around the loop (ptxas_loop_pred.ptx is the reduced PTX). Worked
// around by passes/loop_bools.py; regression test: tests/run/test_loop_bools.py.
use cuda_device::{cuda_module, device, kernel, thread, DisjointSlice};

// oracle program, seed 40533
#[cuda_module]
#[allow(arithmetic_overflow)]
mod kernels {
    use super::*;

    #[derive(Clone, Copy)]
    struct S0 { f0: bool, f1: i8, f2: i8, f3: u16 }

    #[device]
    fn h0(mut p0: i8) -> i64 {
        let mut v1: usize = ((if ((((4187050807u32) ^ (10u32))) == ((!(367146488u32)))) { (4usize).min(435597908356206501usize) } else { 7usize })).wrapping_add((1usize));
        ((((7u8) as i64)) - (((5699469223432177587i64) << (((10u32).max(u32::MIN)) & 63))))
    }

    #[kernel]
    pub fn k0(inp: &[u64], mut out: DisjointSlice<u64>) {
        let idx = thread::index_1d();
        let t = idx.get();
        let mut res = [0u64; 16];
        let mut x0: u32 = inp[0] as u32;
        let mut x1: f32 = f32::from_bits(inp[1] as u32);
        let mut x2: i64 = inp[2] as i64;
        let mut x3: f32 = f32::from_bits(inp[3] as u32);
        let mut x4: bool = (inp[4] & 1) != 0;
        let mut x5: i32 = inp[5] as i32;
        let mut x6: i64 = inp[6] as i64;
        let mut x7: u8 = inp[7] as u8;
        {
            let mut s3: usize = (((x0) as u8 % 3) as usize) + 1;
            for j2 in ((((((0x62e2f82f33b0f131isize) as i64)) as u8 % 4) as u32)..(((i64::MIN) as u8 % 9) as u32)).step_by(s3) {
                x4 = (((if isize::MAX == 0 || (13isize == isize::MIN && isize::MAX == -1) { 0x3d51226741901394isize } else { 13isize % isize::MAX })) == ((!(-502599139895143801isize))));
            }
        }
        x6 += ((x3) as i64);
        let mut st4 = S0 { f0: x4, f1: (-127i8).min(38i8), f2: 9i8, f3: (((2u16).min(u16::MAX)) + (65534u16)) };
        if ((x4) || (false)) {
            {
                let mut s6: usize = (((((x2) * (x2))) as u8 % 3) as usize) + 1;
                for j5 in ((((((4611686018427387904isize) as i32)) as u8 % 4) as i32)..(((-8785i16) as u8 % 9) as i32)).step_by(s6) {
                    s6 = (((x5) as u8 % 5) as usize) + 1;
                    for j7 in ((((x7) as u8 % 4) as i64)..((((u16::MAX).min(62337u16)) as u8 % 9) as i64)) {
                        {
                            let r8 = &mut x4;
                            *r8 = (true ^ *r8);
                        }
                        res[1] ^= { let f: f64 = (((if x4 { 378022420951.79596f64 } else { 1.0f64 })) % ((-1.0f64).abs())); if f.is_nan() { 0x7ff8_0000_0000_0000u64 } else { f.to_bits() } };
                    }
                }
            }
        } else {
            if (4602.397938207528f64).is_nan() {
                let mut v9: isize = (if true { ((((9223372036854775807isize) | (9223372036854775807isize))) ^ (((x3) as isize))) } else { -3602950546065683072isize });
                res[1] = ((i16::MAX) as u64);
                {
                    let r10 = &x4;
                    res[12] ^= (((*r10)) as u64);
                }
            } else {
                let mut v11: f64 = 65536.0f64;
            }
            let mut a12: [u8; 3] = [(x7).min(x7), 109u8, ((x0) as u8)];
        }
        let mut v13: i8 = ((11i8) + (0i8));
        let mut st14 = S0 { f0: (((((if (((x1).round()) >= ((2.0f32).mul_add(x3, x1))) { ((((((x7) >> ((((((0x42du16) % ((12913u16) | 1))) as u64)) & 7))) >= ((!({ x7 = ((9u8) * (x7)); x7 }))))) && (true)) } else { (!(false)) })) || ((((((((f64::NEG_INFINITY).round()) / (3.0f64))) <= (4057844021.7164793f64))) || (((x3) > ((((-({ x3 = x3; x3 }))) - (((7.1849395e+08f32) % ((if true { 1.2892745e-09f32 } else { 0.0f32 })))))))))))) || ((((6usize).max((!(((11573377243058544907usize) - (9836414955765330669usize)))))) >= (1438783335006089149usize)))), f1: v13, f2: v13, f3: ((0u16) ^ (((((f32::NAN) as i32)) as u16))) };
        res[0] ^= ((x0) as u64);
        res[1] ^= { let f: f32 = x1; if f.is_nan() { 0x7fc0_0000u64 } else { f.to_bits() as u64 } };
        res[2] ^= ((x2) as u64);
        res[3] ^= { let f: f32 = x3; if f.is_nan() { 0x7fc0_0000u64 } else { f.to_bits() as u64 } };
        res[4] ^= ((x4) as u64);
        res[5] ^= ((x5) as u64);
        res[6] ^= ((x6) as u64);
        res[7] ^= ((x7) as u64);
        if let Some(o) = out.get_mut(idx) {
            *o = res[t];
        }
    }
}
