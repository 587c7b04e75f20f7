// Reading a union field is unsafe (E0133); writing one is not.
union Bits { word: u32, real: f32 }
#[device]
pub fn f(x: f32) -> u32 {
    let mut b = Bits { real: x };
    b.word = 3;
    b.word
}
