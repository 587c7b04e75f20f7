// Enums with payloads as kernel parameters, `match` with guards, struct variants, a
// `#[repr(u8)]` enum cast to an integer, integer patterns (ranges, `|`, `@`), `matches!`,
// and `Option` with `?` and combinators in device functions.
use cuda_device::{device, kernel, thread, DisjointSlice};

#[derive(Clone, Copy)]
pub enum Act {
    Relu,
    Leaky(f32),
    Clamp { lo: f32, hi: f32 },
}

#[repr(u8)]
#[derive(Clone, Copy)]
pub enum Level {
    Low = 1,
    Mid = 4,
    High,
}

#[device]
fn apply(a: Act, x: f32) -> f32 {
    match a {
        Act::Relu => x.max(0.0),
        Act::Leaky(s) if x < 0.0 => s * x,
        Act::Leaky(_) => x,
        Act::Clamp { lo, hi } => x.max(lo).min(hi),
    }
}

#[device]
fn halve(x: f32) -> Option<f32> {
    if x > 0.0 { Some(x * 0.5) } else { None }
}

#[device]
fn twice_half(x: f32) -> Option<f32> {
    let h = halve(x)?;
    Some(h * 4.0)
}

#[kernel]
pub fn activation(x: &[f32], act: Act, mut out: DisjointSlice<f32>) {
    let i = thread::index_1d();
    let k = i.get();
    let lv = if k % 3 == 0 { Level::Low } else if k % 3 == 1 { Level::Mid } else { Level::High };
    let code = match k % 9 {
        0 | 1 => 10,
        2..=4 => 20,
        n @ 5..7 => n as i32,
        _ => 40,
    };
    let b = matches!(act, Act::Leaky(_) | Act::Relu);
    if let Some(o) = out.get_mut(i) {
        let t = twice_half(x[k]).map(|v| v + 1.0).unwrap_or(-1.0);
        let lvl = (lv as u8) as f32;
        *o = apply(act, x[k]) + lvl * 100.0 + code as f32 * 1000.0 + t * 0.25
            + if b { 0.125 } else { 0.0 };
    }
}
