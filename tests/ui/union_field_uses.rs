// A union field cannot be borrowed or assigned to with an operator yet (OX0002).
union Bits {
    word: u32,
    real: f32,
}

#[device]
pub fn f(x: f32) -> u32 {
    let mut b = Bits { real: x };
    let w = unsafe { b.word };
    let r = unsafe { &b.real };
    b.word += 1;
    w + unsafe { b.word } + *r as u32
}
