// Addresses of zero-sized values: never null, aligned for their type (rustc gives some such
// address; oxidec gives the alignment itself, `NonNull::dangling()`'s value).
#[derive(Clone, Copy)]
#[repr(align(16))]
struct Wide16;

#[derive(Clone, Copy)]
struct Plain;

#[derive(Clone, Copy)]
#[allow(dead_code)]
union Empty16 { w: Wide16, unit: () }

fn low_bits<T>(r: &T, mask: usize) -> usize {
    r as *const T as usize & mask
}

fn zero_addr(v: &Empty16) -> u32 {
    (v as *const Empty16 as usize & 15) as u32
}

fn compute(x: f32, i: usize) -> f32 {
    let w = Wide16;
    let p = Plain;
    let u = Empty16 { unit: () };
    let unit = ();
    let a = (&w as *const Wide16 as usize % 16 == 0) as u32;
    let b = (&p as *const Plain).is_null() as u32;
    let c = zero_addr(&u) + zero_addr(&Empty16 { w: Wide16 });
    let d = low_bits(&w, 15) as u32 + (&unit as *const () as usize == 0) as u32;
    let e = core::mem::size_of::<Empty16>() as u32 * 100 + core::mem::align_of::<Empty16>() as u32;
    x + i as f32 + (a * 1000 + b * 10000 + c * 7 + d * 3 + e) as f32
}
