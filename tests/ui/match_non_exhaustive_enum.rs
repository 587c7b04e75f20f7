// E0004 on an enum: the missing variants are listed as rustc lists them.
pub enum Shape { Dot, Seg(i32), Rect { w: f32, h: f32 } }

#[device]
fn size(s: Shape) -> f32 {
    match s {
        Shape::Dot => 0.0,
    }
}
