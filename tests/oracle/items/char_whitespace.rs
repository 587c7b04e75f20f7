// `char::is_whitespace` as core defines it (ASCII `' '`, `'\t'..='\r'` and Unicode's
// White_Space code points above ASCII), over every code point below U+3100 in blocks of
// 128 (block `i` counts its whitespace, weighted by position).
fn compute(x: f32, i: usize) -> f32 {
    let base = (i as u32 % 98) * 128;
    let mut acc = 0u32;
    for k in 0..128u32 {
        if let Some(c) = char::from_u32(base + k) {
            if c.is_whitespace() {
                acc = acc.wrapping_mul(31).wrapping_add(k + 1);
            }
        }
    }
    x * 0.0 + (acc % 1_000_000) as f32
}
