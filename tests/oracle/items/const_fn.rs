// `const fn`s evaluated at compile time (array lengths, consts) and called at run time.
const fn tri(n: usize) -> usize {
    let mut s = 0;
    let mut k = 1;
    while k <= n {
        s += k;
        k += 1;
    }
    s
}

const fn pow2_at_least(n: u32) -> u32 {
    let mut p = 1;
    loop {
        if p >= n {
            break;
        }
        p *= 2;
    }
    p
}

const fn odd_sum(n: u64) -> u64 {
    let mut s = 0;
    let mut i = 0;
    while i <= n {
        i += 1;
        if i % 2 == 0 {
            continue;
        }
        s += i;
    }
    s
}

const fn mix(x: u32) -> u32 { x.wrapping_mul(2_654_435_761).wrapping_add(0x9e37_79b9) }

const HALF: f32 = f32::from_bits(0x3f00_0000);
const ONE_BITS: u32 = 1.0f32.to_bits();
const N: usize = tri(4);
const P: u32 = pow2_at_least(100);
const M: u32 = mix(7);

fn compute(x: f32, i: usize) -> f32 {
    let a = [x; N];
    let b = [HALF; P as usize];
    let c = [0u8; odd_sum(5) as usize];
    let runtime = pow2_at_least(i as u32 + 1) + mix(i as u32) % 1000;
    a[i % N] * b[i % b.len()] + c.len() as f32 + (M % 997) as f32 + runtime as f32
        + (ONE_BITS >> 20) as f32
}
