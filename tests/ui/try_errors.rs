// `?` needs an Option or Result, in a function that returns one of the same kind.
#[device]
fn f(a: Option<i32>, n: i32) -> i32 {
    let x = a?;
    x + n?
}
