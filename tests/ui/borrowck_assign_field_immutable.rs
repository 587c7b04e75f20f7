// Fields and elements of a binding that is not `mut`.
struct Point {
    x: f32,
    y: f32,
}

#[kernel]
pub fn k(mut out: DisjointSlice<f32>) {
    let p = Point { x: 1.0, y: 2.0 };
    p.x = 3.0;
    let counts = [0u32; 4];
    counts[1] = 5;
}
