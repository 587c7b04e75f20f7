// E0004 on integers and tuples: the uncovered ranges, as rustc prints them.
#[device]
fn pick(n: i32, b: bool) -> i32 {
    let c = match n { 0..=5 => 1, 7 => 2 };
    let d = match (n, b) { (0, _) => 1, (_, false) => 2 };
    let e = match n as u8 { 0 => 1, 1..=254 => 2 };
    c + d + e
}
