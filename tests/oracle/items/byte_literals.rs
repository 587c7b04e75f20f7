// Byte literals: `b'x'` is a u8 (in expressions and patterns), `b"..."` a `&[u8; N]`, with
// the byte escapes (`\x00`..`\xff`, `\n`, `\t`, `\\`, `\0`, `\'`, `\"`).
const MAGIC: &[u8; 5] = b"OX\x01\xff\"";

fn class(c: u8) -> u32 {
    match c {
        b'a'..=b'z' => 1,
        b'\n' | b'\t' => 2,
        b'\x7f' => 3,
        b'\\' => 4,
        _ => c as u32 + 10,
    }
}

fn compute(x: f32, i: usize) -> f32 {
    let text = b"Hello,\tGPU\n\\ bytes\0";
    let c = text[i % text.len()];
    let m = MAGIC[i % MAGIC.len()];
    let q = b'\'' as u32 + b'"' as u32;
    x + class(c) as f32 + m as f32 + q as f32 + (c == b'G') as u32 as f32
}
