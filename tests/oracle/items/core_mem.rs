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
        + arr[0] as f32 + core::mem::align_of::<u16>() as f32 + d as f32
}
