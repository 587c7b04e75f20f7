// A union view of a type that does not exist is reported once (E0412), and the union's
// uses are checked against the views that do (an internal error in layout before).
union Bits {
    word: Wrod,
    real: f32,
}

#[device]
pub fn f(x: f32) -> f32 {
    let mut b = Bits { real: x };
    b.word = 3;
    unsafe { b.real }
}
