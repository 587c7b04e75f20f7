// `rest @ ..` in an array pattern binds the middle elements as an array of their own
// (by value), at the front, in the middle and at the end, and nested in a tuple pattern.
fn compute(x: f32, i: usize) -> f32 {
    let arr = [x, 2.0, 3.0, x * 4.0, -x];
    let [a, rest @ .., e] = arr;
    let [head @ .., _, _] = arr;
    let (k, [_, tail @ ..]) = (i as f32, [x * x, x + 1.0, 7.5]);
    let mut s = a + e;
    for (j, r) in rest.iter().enumerate() {
        s += r * (10.0 + j as f32);
    }
    s + head[2] * 0.5 + head.len() as f32 + k * tail[0] + tail[1]
}
