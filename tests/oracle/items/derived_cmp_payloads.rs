// Derived `PartialEq`/`PartialOrd` on enums with payloads (tuple and struct variants, nested
// enums and structs, floats with NaN), used by `==`, `!=`, `<`, `<=`, `>`, `>=` and inside
// tuples and structs.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
enum Inner { Lo(u8), Hi { v: i16 } }

#[derive(Clone, Copy, PartialEq, PartialOrd)]
struct Tag { k: u8, inner: Inner }

#[derive(Clone, Copy, PartialEq, PartialOrd)]
#[repr(u8)]
enum Shape { Dot, Line(f32), Box { w: f32, h: u32 }, Nest(Inner, Tag), Far = 9 }

fn shape(i: usize, x: f32) -> Shape {
    let inner = if i % 2 == 0 { Inner::Lo((i % 3) as u8) } else { Inner::Hi { v: (i % 5) as i16 - 2 } };
    match i % 6 {
        0 => Shape::Dot,
        1 => Shape::Line(if i % 7 == 0 { f32::NAN } else { x }),
        2 => Shape::Box { w: x, h: (i % 3) as u32 },
        3 => Shape::Nest(inner, Tag { k: (i % 2) as u8, inner }),
        4 => Shape::Far,
        _ => Shape::Line((i % 4) as f32 - 1.0),
    }
}

fn bits(a: Shape, b: Shape) -> u32 {
    (a == b) as u32 | ((a != b) as u32) << 1 | ((a < b) as u32) << 2 | ((a <= b) as u32) << 3
        | ((a > b) as u32) << 4 | ((a >= b) as u32) << 5
}

fn compute(x: f32, i: usize) -> f32 {
    let mut acc = 0u32;
    for j in 0..8usize {
        let a = shape(i + j, x);
        let b = shape(i * 3 + j / 2, x * 0.5);
        acc = acc.wrapping_mul(31).wrapping_add(bits(a, b) + bits(a, a) * 64);
        let t = ((a, j as u8) < (b, 3u8)) as u32 + ((Tag { k: 1, inner: Inner::Lo(j as u8) }
            >= Tag { k: 1, inner: Inner::Hi { v: -1 } }) as u32) * 2;
        acc = acc.wrapping_add(t);
    }
    (acc % 1000003) as f32
}
