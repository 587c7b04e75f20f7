// borrowck sees a closure's captures: `inc` holds `&mut n` from its creation to its last
// call, so `n` cannot be assigned or read in between (E0506, E0503), as in rustc.
#[device]
fn counts(x: u32) -> u32 {
    let mut n = 0u32;
    let mut inc = |by: u32| n += by;
    inc(x);
    n = 5;
    inc(1);
    n
}

#[device]
fn reads(x: u32) -> u32 {
    let mut m = x;
    let mut dbl = || m *= 2;
    let seen = m + 1;
    dbl();
    seen + m
}
