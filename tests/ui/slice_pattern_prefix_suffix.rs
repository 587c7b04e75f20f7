// A prefix of one slice pattern and a suffix of another do not cover every length together:
// `[false, .., true]` is missed (rustc's split of lengths takes the longest prefix plus the
// longest suffix).
#[device]
fn h(xs: &[bool]) -> u32 {
    match xs {
        [] => 0,
        [true, ..] => 1,
        [.., false] => 2,
    }
}
