// Enum values: a cast of an enum with fields (E0605), an unknown variant (E0599), a struct
// variant used as a value (E0533).
pub enum Shape { Dot, Seg(i32), Rect { w: f32, h: f32 } }

#[device]
fn f(s: Shape) -> u32 {
    let n = s as u32;
    let t = Shape::Circle;
    let r = Shape::Rect;
    n
}
