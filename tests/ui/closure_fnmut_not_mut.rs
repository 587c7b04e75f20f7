// Calling a closure that mutates its captures needs `&mut` to it (an `FnMut`): E0596 when
// its binding is not `mut`, as in rustc.
#[device]
fn not_mut(x: u32) -> u32 {
    let mut k = x;
    let add = || k += 1;
    add();
    k
}
