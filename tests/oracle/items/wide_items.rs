// u128/i128 in items and memory: consts, statics, struct fields (align 16), arrays, tuples,
// pointers to them, `From`/`TryFrom`, function arguments and results.
const BIG: u128 = 1 << 100;
static TABLE: [i128; 3] = [-1, 0, 170141183460469231731687303715884105727];

#[derive(Clone, Copy, PartialEq, Default)]
struct W { a: u8, b: u128, c: i128 }

fn f(x: u128) -> (u128, i128) { (x.wrapping_mul(3), -(x as i128)) }

fn fold(v: u128) -> f32 { ((v as u64) ^ ((v >> 64) as u64).rotate_left(7)) as u32 as f32 }

fn compute(x: f32, i: usize) -> f32 {
    let bits = x.to_bits() as u64;
    let v = u128::from(bits) * 0x1_0000_0001 + BIG;
    let w = W { a: i as u8, b: v, c: TABLE[i % 3] ^ (v as i128) };
    let (a, b) = f(v);
    let arr = [v, a, b as u128, w.c as u128];
    let p = arr.as_ptr();
    let q = unsafe { *p.add(i % 4) };
    let m = match v & 7 { 0 => 1u32, 5 => 2, _ => 3 };
    let same = (w == W::default()) as u32 + (w == w) as u32 * 2;
    let narrow = u64::try_from(v).unwrap_or(7) as u128 + u8::try_from(q & 0x1ff).unwrap_or(3) as u128;
    let size = core::mem::size_of::<W>() * 100 + core::mem::align_of::<W>();
    fold(q) + fold(narrow) + m as f32 + same as f32 + size as f32 + w.a as f32
        + fold(arr[(i + 1) % 4] >> (i % 128))
}
