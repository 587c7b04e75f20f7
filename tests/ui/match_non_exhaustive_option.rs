// E0004 on Option and Result: prelude variants are named without their enum.
#[device]
fn f(a: Option<i32>, r: Result<u32, i32>) -> i32 {
    let x = match a { Some(0) => 1, None => 2 };
    let y = match r { Ok(_) => 1 };
    x + y
}
