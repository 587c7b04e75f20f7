// Pattern errors worded as rustc's: field counts, unknown and missing fields, the wrong
// kind of pattern for a variant, or-patterns binding different names.
pub enum Shape { Dot, Seg(i32), Rect { w: f32, h: f32 } }

#[device]
fn f(s: Shape, t: (i32, i32)) -> i32 {
    let a = match s { Shape::Seg(x, y) => 1, _ => 0 };
    let b = match s { Shape::Rect { w, depth } => 1, _ => 0 };
    let c = match s { Shape::Rect { w } => 1, _ => 0 };
    let d = match s { Shape::Seg => 1, _ => 0 };
    let e = match t { (x, 0) | (0, y) => 1, _ => 0 };
    a + b + c + d + e
}
