// core::mem: swap, replace, take, transmute, size_of, align_of; the panicking macros that
// do not fire.
#[derive(Clone, Copy)]
struct Pair { a: u16, b: i16, c: f32 }
// transmute between arrays, tuples, structs and scalars of the same size
fn reinterpret(x: f32, i: usize) -> f32 {
    let bits = x.to_bits() ^ (i as u32);
    let bytes: [u8; 4] = unsafe { core::mem::transmute(bits) };
    let back: u32 = unsafe { core::mem::transmute(bytes) };
    let halves: [u16; 2] = unsafe { core::mem::transmute(x) };
    let wide: u64 = unsafe { core::mem::transmute([x, -x * 0.5]) };
    let two: [f32; 2] = unsafe { core::mem::transmute((wide >> 32) | (wide << 32)) };
    let p: Pair = unsafe { core::mem::transmute((bits as u64) | ((bits as u64) << 32)) };
    let q: (u32, f32) = unsafe { core::mem::transmute(p) };
    let t: [i8; 8] = unsafe { core::mem::transmute(q) };
    bytes[0] as f32 + bytes[3] as f32 * 2.0 + (back == bits) as u32 as f32 + halves[1] as f32
        + two[0] + two[1] + p.a as f32 + p.b as f32 + p.c + q.0 as f32 + q.1
        + t[1] as f32 + t[6] as f32
}

fn compute(x: f32, i: usize) -> f32 {
    let mut a = x;
    let mut b = 1.0f32;
    core::mem::swap(&mut a, &mut b);
    let c = core::mem::replace(&mut a, 5.0);
    let mut k = i as u32;
    let d = core::mem::take(&mut k);
    assert!(i < 100000, "bad index {}", i);
    assert_eq!(k, 0);
    assert_ne!(d + 1, 0, "d = {}", d);
    let bits: u32 = unsafe { core::mem::transmute(b) };
    let back: f32 = unsafe { core::mem::transmute::<u32, f32>(bits ^ 1) };
    let arr: [u16; 2] = [bits as u16, 7];
    if i > 1000000 { unreachable!("never {}", i); }
    a + b + c + core::mem::size_of::<f64>() as f32 + (bits >> 20) as f32 + back
        + arr[0] as f32 + core::mem::align_of::<u16>() as f32 + d as f32 + reinterpret(x, i)
}
