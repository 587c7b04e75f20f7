// `cfg` and lint-level attributes on items and statements: a configured-out item or
// statement is gone, a kept one counts. The predicates used here hold (or fail) alike for
// the CPU rustc builds this for and for the GPU target oxidec builds it for.
#[cfg(feature = "never-enabled")]
fn scale() -> f32 { 100.0 }

#[cfg(not(feature = "never-enabled"))]
#[allow(dead_code)]
fn scale() -> f32 { 3.0 }

#[cfg(all(target_pointer_width = "64", target_endian = "little", not(debug_assertions)))]
const SHIFT: u32 = 3;

fn compute(x: f32, i: usize) -> f32 {
    let mut acc = x * scale();
    #[cfg(any(test, feature = "never-enabled"))]
    let acc = 0.0f32;
    #[allow(unused_mut)]
    let mut k = (i as u32).wrapping_mul(2654435761) >> 29;
    #[cfg(target_pointer_width = "64")]
    {
        acc += k as f32;
    }
    #[cfg(target_pointer_width = "32")]
    {
        acc -= 1000.0;
    }
    #[allow(clippy::needless_range_loop)]
    for j in 0..SHIFT {
        acc = acc * 0.5 + j as f32;
    }
    #[expect(unused_assignments)]
    while k > 2 {
        k -= 2;
    }
    #[allow(unused_must_use)]
    bump(acc);
    #[allow(arithmetic_overflow)]
    let wrapped = 250u8 + 10;
    acc + k as f32 + wrapped as f32
}

fn bump(x: f32) -> f32 { x + 1.0 }
