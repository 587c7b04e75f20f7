// let-else: the `else` block must diverge; a refutable pattern is fine there.
#[device]
fn f(a: Option<i32>) -> i32 {
    let Some(x) = a else { return 0; };
    let Some(y) = a else { 5 };
    x + y
}
