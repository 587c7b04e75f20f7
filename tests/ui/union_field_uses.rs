// A union field cannot be borrowed mutably, nor at all in a union that may be written (the
// copy `&u.f` borrows would not hold the loan on `u`), nor assigned with an operator (OX0002).
union Bits {
    word: u32,
    real: f32,
}

#[device]
pub fn f(x: f32) -> u32 {
    let mut b = Bits { real: x };
    let w = unsafe { b.word };
    let r = unsafe { &mut b.real };
    let s = unsafe { &b.word };
    b.word += 1;
    w + unsafe { b.word } + *r as u32 + *s
}
