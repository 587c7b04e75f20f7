// E0005: a `let` pattern must be irrefutable.
#[device]
fn f(a: Option<i32>) -> i32 {
    let Some(x) = a;
    x
}
