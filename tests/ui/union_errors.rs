// Unions: a union expression writes exactly one field (E0784), and a field must exist
// (E0609).
union Bits {
    word: u32,
    real: f32,
}

#[device]
pub fn f(x: f32) -> u32 {
    let both = Bits { word: 1, real: x };
    let b = Bits { real: x };
    unsafe { b.nope + both.word }
}
