// `max_by_key`/`min_by_key` need an `Ord` key, which floats lack (as in rustc); a key
// oxidec cannot compare yet is named.
#[device]
fn f(a: &[f32]) -> f32 {
    let m = a.iter().max_by_key(|x| **x * 2.0);
    let n = a.iter().min_by_key(|x| (**x as i32, 1u8));
    *m.unwrap() + *n.unwrap()
}
